/**
 * `agentos` without -c: a line shell into one VM. On a terminal: a prompt with the cwd, line editing and
 * history (node:readline), Ctrl-C stops the running command (status 130) or clears the line being typed,
 * Ctrl-D or `exit [n]` leaves. Otherwise the lines of stdin are run as a script, without a prompt.
 * Lines that open a construct (`for …; do`, an open quote) are joined with the next ones.
 */
import { createInterface } from "node:readline";
import { HISTORY_SIZE, historyFile, loadHistory, saveHistory } from "./history.js";
import { TerminalOutput } from "./output.js";
import type { ShellSession } from "./session.js";

export function prompt(session: ShellSession): string {
  return `agentos:${session.cwd}$ `;
}

export async function repl(session: ShellSession): Promise<number> {
  const tty = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const file = tty ? historyFile() : undefined;
  const rl = createInterface({
    input: process.stdin,
    output: tty ? process.stdout : undefined,
    terminal: tty,
    history: loadHistory(file),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
    prompt: prompt(session),
  });
  if (tty) rl.on("history", (history: string[]) => saveHistory(file, history));

  const queue: string[] = [];
  let pending = ""; // lines of a command not complete yet
  let running: AbortController | undefined;
  let busy = false;
  let closed = false;
  let done: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => (done = resolve));
  let over = false;

  const showPrompt = (): void => {
    if (!tty || over) return;
    rl.setPrompt(pending ? "> " : prompt(session));
    rl.prompt();
  };
  const end = (code: number): void => {
    if (over) return;
    over = true;
    done(code);
  };

  const runText = async (text: string): Promise<boolean> => {
    running = new AbortController();
    const out = new TerminalOutput();
    try {
      const { result, ended } = await session.run(text, { signal: running.signal, onStdout: out.onStdout, onStderr: out.onStderr });
      out.finish(result);
      if (ended) {
        end(result.exitCode);
        return false;
      }
    } catch (error) {
      process.stderr.write(`agentos: ${(error as Error).message}\n`);
    } finally {
      running = undefined;
    }
    return true;
  };

  const pump = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      while (queue.length && !over) {
        const line = queue.shift()!;
        const text = pending ? `${pending}\n${line}` : line;
        pending = "";
        if (text.trim() === "") {
          showPrompt();
          continue;
        }
        if (await session.isIncomplete(text)) {
          pending = text;
          showPrompt();
          continue;
        }
        if (!(await runText(text))) return;
        showPrompt();
      }
      if (closed && !over) {
        // End of input: what is left runs as it is (the shell reports what is missing), then leave.
        if (pending) {
          const text = pending;
          pending = "";
          if (!(await runText(text))) return;
        }
        if (tty) process.stdout.write("exit\n");
        end(session.status);
      }
    } finally {
      busy = false;
    }
  };

  const interrupt = (): void => {
    if (running) {
      if (tty) process.stdout.write("^C\n");
      running.abort();
      return;
    }
    if (!tty) {
      end(130);
      return;
    }
    // At the prompt: drop what was typed (and a pending construct), as bash does.
    process.stdout.write("^C\n");
    pending = "";
    const editable = rl as unknown as { line: string; cursor: number };
    editable.line = "";
    editable.cursor = 0;
    showPrompt();
  };

  rl.on("line", (line) => {
    queue.push(line);
    void pump();
  });
  rl.on("close", () => {
    closed = true;
    void pump();
  });
  rl.on("SIGINT", interrupt);
  process.on("SIGINT", interrupt);

  showPrompt();
  try {
    return await finished;
  } finally {
    process.off("SIGINT", interrupt);
    running?.abort();
    rl.close();
  }
}
