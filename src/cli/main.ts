#!/usr/bin/env node
/**
 * The `agentos` command. `agentos -c 'cmd'` runs one command in a fresh VM; `agentos` alone is an
 * interactive shell into one VM (or runs the script on its stdin); `agentos mcp` is an MCP server on stdio
 * (`npx -y agentos-vm mcp`). From source: `npx tsx src/cli/main.ts`.
 */
import { parseCli, USAGE, UsageError } from "./args.js";
import { serveMcp } from "./mcp.js";
import { repl } from "./repl.js";
import { runOnce } from "./run-once.js";
import { ShellSession } from "./session.js";
import { packageVersion } from "./version.js";

export async function main(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseCli(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`agentos: ${error.message}\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (options.version) {
    process.stdout.write(`agentos ${packageVersion()}\n`);
    return 0;
  }
  try {
    if (options.mcp) return await serveMcp(options);
    if (options.command !== undefined) return await runOnce({ ...options, command: options.command });
    const session = await ShellSession.create(options);
    try {
      return await repl(session);
    } finally {
      await session.dispose();
    }
  } catch (error) {
    process.stderr.write(`agentos: ${(error as Error).message}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`agentos: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
