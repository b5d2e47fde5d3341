/**
 * The interactive shell's history file on the host: `$AGENTOS_HISTFILE`, else `~/.agentos_history`;
 * `AGENTOS_HISTFILE=` (empty) keeps history in memory only. Oldest line first, as bash writes it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const HISTORY_SIZE = 1000;

export function historyFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = env.AGENTOS_HISTFILE;
  if (file === undefined) return join(homedir(), ".agentos_history");
  return file === "" ? undefined : file;
}

/** Newest first, as readline wants it. */
export function loadHistory(file: string | undefined): string[] {
  if (!file) return [];
  try {
    return readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "").reverse().slice(0, HISTORY_SIZE);
  } catch {
    return [];
  }
}

/** `history` is newest first (readline's order). Failures to write are ignored: history is a convenience. */
export function saveHistory(file: string | undefined, history: readonly string[]): void {
  if (!file) return;
  try {
    writeFileSync(file, history.length ? `${[...history].reverse().join("\n")}\n` : "");
  } catch {
    // ignored
  }
}
