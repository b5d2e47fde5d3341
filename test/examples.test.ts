/**
 * examples/ run as a user runs them: each one a child process from the repository root (node with the tsx
 * loader; `agentos-vm` and its subpaths resolve to src/ through tsconfig.json's `paths`, so no build is needed),
 * checked for its exact output and exit status. They run concurrently: each is a process of its own.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { RUN_DEADLINE_MS } from "./deadlines.js";

const ROOT = resolve(import.meta.dirname, "..");
const env = { ...process.env, AGENTOS_HISTFILE: "" };

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(file, args, { cwd: ROOT, env, timeout: RUN_DEADLINE_MS }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === "number" ? error.code : null) : 0;
      done({ status, stdout, stderr });
    });
  });
}
/** The lines of `block` (a README example) are lines of the example file, in the same order; comments aside. */
function expectLinesIn(block: string, example: string): void {
  const code = (text: string): string[] =>
    text
      .split("\n")
      .map((line) => line.replace(/\s*\/\/ .*$/, ""))
      .filter((line) => line.trim() !== "");
  const lines = code(readFileSync(join(ROOT, "examples", example), "utf8"));
  let at = 0;
  for (const line of code(block)) {
    const found = lines.indexOf(line, at);
    expect(found, `README line not in examples/${example} after its line ${at}: ${line}`).toBeGreaterThanOrEqual(0);
    at = found + 1;
  }
}

const tsx = (example: string) => run(process.execPath, ["--import", "tsx", join("examples", example)]);

describe.concurrent("examples/", () => {
  it("readme.mts is the README's first example, line for line", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const block = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    const example = readFileSync(join(ROOT, "examples/readme.mts"), "utf8");
    const code = example.split("\n").filter((line, i, all) => !(line.startsWith("//") && all.slice(0, i).every((l) => l.startsWith("//"))));
    expect(code.join("\n")).toBe(block);
  });

  it("readme.mts", async () => {
    expect(await tsx("readme.mts")).toEqual({ status: 0, stdout: "{ exitCode: 0, stdout: '1\\n' }\n", stderr: "" });
  });

  it("ai-sdk-tool.mts and command-hooks.mts hold the README's AI SDK and hooks examples", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expectLinesIn(/```ts\n(import \{ generateText[\s\S]*?)```/.exec(readme)![1]!, "ai-sdk-tool.mts");
    expectLinesIn(/```ts\n(import \{ createTools, type CommandCall[\s\S]*?)```/.exec(readme)![1]!, "command-hooks.mts");
  });

  it("ai-sdk-tool.mts: the (mock) model calls bash and answers from its result", async () => {
    expect(await tsx("ai-sdk-tool.mts")).toEqual({
      status: 0,
      stdout: 'bash {"command":"wc -l < data.csv"} -> {"exitCode":0,"stdout":"3\\n","stderr":""}\ndata.csv has 2 rows.\n',
      stderr: "",
    });
  });

  it("command-hooks.mts: a command changed by onBeforeCommand, its output redacted by onAfterCommand; a refusal", async () => {
    expect(await tsx("command-hooks.mts")).toEqual({
      status: 0,
      stdout: "{ exitCode: 1, stdout: 'token=[redacted]\\n', stderr: '' }\ncommand refused: rm -rf is not allowed here\n",
      stderr: "audit: set -o pipefail; echo token=$API_TOKEN; false | true -> 1\n",
    });
  });

  it("mcp-client.mts: the SDK's client starts mcp-server.mts over stdio, lists its tools and calls exec", async () => {
    expect(await tsx("mcp-client.mts")).toEqual({
      status: 0,
      stdout: [
        "tools: download, exec, list, read, write",
        "exit code 0",
        "--- stdout ---",
        "HELLO FROM THE VM",
        "",
        '{"exitCode":0,"stdout":"HELLO FROM THE VM\\n","stderr":""}',
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("cli.sh: agentos -c, --json with piped stdin and the exit status, --mount", async () => {
    expect(await run("bash", ["examples/cli.sh"])).toEqual({
      status: 0,
      stdout: [
        "HELLO FROM THE VM",
        '{"exitCode":3,"stdout":"apple\\npear\\n","stderr":"done\\n"}',
        "exit status 3",
        "#!/usr/bin/env bash",
        "read-only",
        "",
      ].join("\n"),
      stderr: "",
    });
  });
});
