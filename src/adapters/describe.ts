/**
 * What a model is told about the VM in the description of the command tool: where commands start, what is
 * there, and which commands exist, read from the VM when the tools are made. Bounded, whatever the VM holds:
 * a directory of 100,000 files or a thousand commands of your own still give a description of a few lines.
 */
import type { AgentOs } from "../agent-os.js";

/** Entries of the working directory named, at most. */
export const LISTED_ENTRIES = 20;
/** Characters of the working directory's listing, and of the list of commands, at most. */
export const LISTING_CHARS = 400;
export const COMMANDS_CHARS = 1500;
/** Where commands are found (the default PATH without /bin, which links to /usr/bin). */
const COMMAND_DIRS = ["/usr/local/bin", "/usr/bin"];

/** `names` joined by `sep` while at most `max` entries fit in `chars` characters, then how many were left out. */
export function boundedList(names: readonly string[], sep: string, max: number, chars: number, more: (n: number) => string): string {
  let text = "";
  let shown = 0;
  for (const name of names) {
    const next = shown === 0 ? name : `${text}${sep}${name}`;
    if (shown === max || next.length > chars) break;
    text = next;
    shown++;
  }
  return shown < names.length ? `${text}${shown ? sep : ""}${more(names.length - shown)}` : text;
}

async function listing(vm: AgentOs, cwd: string): Promise<string> {
  try {
    const entries = (await vm.readdir(cwd, { withFileTypes: true }))
      .map((e) => (e.type === "directory" ? `${e.name}/` : e.name))
      .sort();
    if (entries.length === 0) return `${cwd} is empty.`;
    return `${cwd} holds: ${boundedList(entries, ", ", LISTED_ENTRIES, LISTING_CHARS, (n) => `… and ${n} more`)}.`;
  } catch (e) {
    return `${cwd} cannot be listed (${(e as { code?: string }).code ?? String(e)}).`;
  }
}

async function commands(vm: AgentOs): Promise<string[]> {
  const names = new Set<string>();
  for (const dir of COMMAND_DIRS) {
    try {
      for (const name of await vm.readdir(dir)) names.add(name);
    } catch {
      // a directory of the PATH that is not there holds no commands
    }
  }
  return [...names].sort();
}

/**
 * A paragraph for the command tool's description: the shell, the starting directory and what it holds, the
 * commands on the PATH, and the output cap. Read once, when the tools are made: it says so.
 */
export async function describeVm(vm: AgentOs, cwd: string, outputLimit: number): Promise<string> {
  const names = await commands(vm);
  const shown = boundedList(names, " ", Infinity, COMMANDS_CHARS, (n) => `… and ${n} more (ls /usr/bin)`);
  return [
    "Run a bash command line in a sandboxed VM: an in-memory Linux-like file system and processes, no network beyond the VM's own loopback.",
    `Each call is a fresh shell starting in ${cwd}: files persist between calls, cd and shell variables do not.`,
    `Returns the exit code, stdout and stderr (a failing command is a result, not an error); output over ${outputLimit} bytes keeps its start and end.`,
    `When this session started, ${await listing(vm, cwd)}`,
    `Commands: ${shown}.`,
  ].join("\n");
}
