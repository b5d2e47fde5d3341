import { FileType } from "../abi/wasi.js";
import type { CommandRegistry, CommandSpec } from "../commands/registry.js";
import { Errno } from "../abi/errno.js";
import { KernelError } from "./kernel-error.js";
import { join } from "./path.js";
import type { Vfs } from "./vfs.js";

/**
 * What exec(2) finds for argv[0]: a program file, looked up like execvp does (a name with a slash is a
 * path, a bare name is searched in PATH), then run as Linux runs it:
 * - a command's stub in /bin (see root-layout.ts) runs that command;
 * - a file starting with `#!` runs its interpreter, with the one optional argument, the file's path and
 *   the rest of argv (an interpreter may be a script too, MAX_SCRIPTS in a row, as on Linux);
 * - any other executable text file runs under `sh`, as bash runs a script without `#!`;
 * - a file without an execute bit is EACCES, a directory EACCES, binary data ENOEXEC.
 * Failures carry the text bash prints for them (`message`) with the path; the shell's exit status follows
 * from the errno (127 for ENOENT, 126 for the others).
 */
export interface Executable {
  spec: CommandSpec;
  argv: string[];
}

/** The first line of every command stub the root layout writes in /bin. */
export const STUB_PREFIX = "#!/bin/sh\n# agentos command: ";
const STUB = /^#!\/bin\/sh\n# agentos command: ([^\n]+)\n/;
/** Linux runs a script whose interpreter is a script… up to this many scripts in a row, then ELOOP. */
const MAX_SCRIPTS = 5;
/** Bytes read to find the `#!` line (Linux reads 256). */
const HEAD_BYTES = 256;

export interface ExecLookup {
  vfs: Vfs;
  commands: CommandRegistry;
  cwd: string;
  /** The caller's PATH. */
  path: string;
}

/** An exec that failed, with the text bash prints after the path (`Permission denied`). */
export class ExecFailure extends KernelError {
  constructor(
    code: "ENOENT" | "EACCES" | "ENOEXEC" | "ELOOP",
    override readonly path: string,
    readonly text: string,
  ) {
    super(Errno[code], { syscall: "execve", path, message: text });
  }
}

const fail = (code: "ENOENT" | "EACCES" | "ENOEXEC" | "ELOOP", path: string, text: string): ExecFailure => new ExecFailure(code, path, text);

/** Finds what argv[0] names and how it runs (see Executable). */
export function findExecutable(argv: readonly string[], at: ExecLookup): Executable {
  const argv0 = argv[0] ?? "";
  if (argv0 === "") throw fail("ENOENT", argv0, "command not found");
  let { file, name } = locate(argv0, at);
  let args = [...argv];
  let first: string | undefined;
  for (let depth = 0; ; depth++) {
    const head = at.vfs.readHead(file, HEAD_BYTES);
    const stub = STUB.exec(head.toString("latin1"));
    if (stub) {
      const spec = at.commands.resolve(stub[1]!);
      if (spec) return { spec, argv: args };
    }
    if (head[0] === 0x23 && head[1] === 0x21) {
      const [interpreter, arg] = shebang(head);
      first ??= interpreter;
      if (depth === MAX_SCRIPTS) throw fail("ELOOP", argv0, `${first}: bad interpreter: Too many levels of symbolic links`);
      if (interpreter === "") throw fail("ENOEXEC", argv0, "cannot execute: required file not found");
      args = [interpreter, ...(arg !== undefined ? [arg] : []), name, ...args.slice(1)];
      name = interpreter;
      file = interpreterFile(interpreter, argv0, at);
      continue;
    }
    if (isBinary(head)) throw fail("ENOEXEC", argv0, "cannot execute binary file: Exec format error");
    // A text file without `#!`: the shell runs it.
    const sh = at.commands.resolve("sh");
    if (!sh) throw fail("ENOEXEC", argv0, "Exec format error");
    return { spec: sh, argv: ["sh", name, ...args.slice(1)] };
  }
}

/** bash's test: a NUL in the first line (of at most 80 bytes) makes a file binary, not a script. */
function isBinary(head: Buffer): boolean {
  for (const b of head.subarray(0, 80)) {
    if (b === 0x0a) return false;
    if (b === 0) return true;
  }
  return false;
}

/** Linux trims spaces and tabs only: `#!/bin/sh\r` names an interpreter `/bin/sh\r`, which is not there. */
const BLANKS_AROUND = /^[ \t]+|[ \t]+$/g;

/** The interpreter's path and the optional argument: everything after the first blank, trimmed. */
function shebang(head: Buffer): [string, string | undefined] {
  const end = head.indexOf(0x0a);
  const line = head.subarray(2, end < 0 ? head.length : end).toString("utf8").replace(BLANKS_AROUND, "");
  const blank = line.search(/[ \t]/);
  if (blank < 0) return [line, undefined];
  const arg = line.slice(blank + 1).replace(BLANKS_AROUND, "");
  return [line.slice(0, blank), arg === "" ? undefined : arg];
}

/** A script's interpreter file: it must exist and be executable (bash: "required file not found"). */
function interpreterFile(interpreter: string, argv0: string, at: ExecLookup): string {
  const file = join(at.cwd, interpreter);
  const type = at.vfs.typeOf(file);
  if (type === undefined) throw fail("ENOENT", argv0, "cannot execute: required file not found");
  if (type !== FileType.REGULAR_FILE || !isExecutable(at.vfs, file)) throw fail("EACCES", argv0, `${interpreter}: bad interpreter: Permission denied`);
  return file;
}

/**
 * The program file argv[0] names (a path, or a name searched in PATH): its absolute `file`, and the
 * `name` a script's interpreter is given (the path as written, or the one PATH gave).
 */
function locate(argv0: string, at: ExecLookup): { file: string; name: string } {
  if (!argv0.includes("/")) return found(search(argv0, at.path.split(":"), at));
  const file = join(at.cwd, argv0);
  const type = at.vfs.typeOf(file);
  if (type === undefined) throw fail("ENOENT", argv0, "No such file or directory");
  if (type === FileType.DIRECTORY) throw fail("EACCES", argv0, "Is a directory");
  if (!isExecutable(at.vfs, file)) throw fail("EACCES", argv0, "Permission denied");
  return { file, name: argv0 };
}

const found = (file: string): { file: string; name: string } => ({ file, name: file });

/**
 * execvp's search: the first executable regular file named `name` in a PATH directory (an empty entry is
 * the working directory). A match without an execute bit is remembered: with no executable one it is EACCES.
 */
function search(name: string, dirs: readonly string[], at: ExecLookup): string {
  let denied: string | undefined;
  for (const dir of dirs) {
    const file = join(at.cwd, join(dir === "" ? "." : dir, name));
    if (at.vfs.typeOf(file) !== FileType.REGULAR_FILE) continue;
    if (isExecutable(at.vfs, file)) return file;
    denied ??= file;
  }
  if (denied !== undefined) throw fail("EACCES", denied, "Permission denied");
  throw fail("ENOENT", name, "command not found");
}

/** Any execute bit: the VM has one user, who may run what anyone may. */
function isExecutable(vfs: Vfs, file: string): boolean {
  return (vfs.mode(file) & 0o111) !== 0;
}
