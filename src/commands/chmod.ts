/**
 * `chmod` as GNU coreutils 9.1 (the published binary only ever sets 0o666 or 0o444): octal and symbolic
 * modes (mode-change.ts) filtered by the VM's fixed umask 022 where GNU applies one, `-R`, `-c`, `-v`,
 * `-f`, `--reference`, `--preserve-root`, a mode such as `-w` given as an option, GNU's messages and exit
 * statuses. Symlinks named on the command line are followed; symlinks met while recursing are left alone.
 * Entries are visited in name order (GNU: directory order). Its work is a few calls per file, done on
 * the kernel's thread in time slices.
 */
import type { CommandContext, CommandHandler, CommandStat } from "./command.js";
import { quote, quoteaf, quotef } from "../gnu/quote.js";
import { adjustMode, compileMode, MODE_BITS, modeString, referenceMode, type ModeChange } from "../gnu/mode-change.js";
import { Slicer } from "./sort/cooperative.js";
import { versionText } from "../gnu/version.js";
import { errorCode, strerror } from "../gnu/strerror.js";
import { UMASK } from "../kernel/umask.js";

interface Options {
  recurse: boolean;
  verbosity: "off" | "changes" | "high";
  silent: boolean;
  preserveRoot: boolean;
  reference: string | undefined;
  /** The mode given as options (`-w`, `-x,+r`): GNU then warns when the umask kept a bit from changing. */
  optionMode: string | undefined;
  operands: string[];
}

/** What happened to one file (GNU's change_status; the order matters: NOT_APPLIED and above are success). */
enum Status {
  NoStat,
  Failed,
  NotApplied,
  NoChangeRequested,
  Succeeded,
}

const LONG_OPTIONS = ["changes", "recursive", "no-preserve-root", "preserve-root", "quiet", "reference", "silent", "verbose", "help", "version"];
/** The characters of a mode: an argument `-rw` or `-755` is a mode, not options (GNU's getopt string). */
const MODE_CHARS = "rwxXstugoa,+=01234567";

const HELP = `Usage: chmod [OPTION]... MODE[,MODE]... FILE...
  or:  chmod [OPTION]... OCTAL-MODE FILE...
  or:  chmod [OPTION]... --reference=RFILE FILE...
Change the mode of each FILE to MODE.
With --reference, change the mode of each FILE to that of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --no-preserve-root  do not treat '/' specially (the default)
      --preserve-root    fail to operate recursively on '/'
      --reference=RFILE  use RFILE's mode instead of MODE values
  -R, --recursive        change files and directories recursively
      --help        display this help and exit
      --version     output version information and exit

Each MODE is of the form '[ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+'.
The file mode creation mask is 0022.
`;

class UsageError {
  constructor(readonly message: string) {}
}

export const chmod: CommandHandler = async (ctx) => {
  const usage = (message: string): number => {
    ctx.writeStderr(`chmod: ${message}\nTry 'chmod --help' for more information.\n`);
    return 1;
  };
  let o: Options | "help" | "version";
  try {
    o = parseOptions(ctx.argv);
  } catch (e) {
    if (e instanceof UsageError) return usage(e.message);
    throw e;
  }
  if (o === "help" || o === "version") {
    ctx.writeStdout(o === "help" ? HELP : versionText("chmod", "GNU coreutils 9.1"));
    return 0;
  }
  let mode = o.optionMode;
  if (o.reference !== undefined) {
    if (mode !== undefined) return usage("cannot combine mode and --reference options");
  } else if (mode === undefined) {
    mode = o.operands.shift();
    if (mode !== undefined && o.operands.length === 0) return usage(`missing operand after ${quote(mode, ctx.env)}`);
  }
  if (o.operands.length === 0) return usage("missing operand");

  let changes: ModeChange[] | undefined;
  if (o.reference !== undefined) {
    try {
      changes = referenceMode(ctx.fs.stat(o.reference).mode);
    } catch (e) {
      ctx.writeStderr(`chmod: failed to get attributes of ${quoteaf(o.reference)}: ${strerror(e)}\n`);
      return 1;
    }
  } else {
    changes = compileMode(mode ?? "");
    if (!changes) return usage(`invalid mode: ${quote(mode ?? "", ctx.env)}`);
  }
  let root: CommandStat | undefined;
  if (o.recurse && o.preserveRoot) {
    try {
      root = ctx.fs.stat("/");
    } catch (e) {
      ctx.writeStderr(`chmod: failed to get attributes of '/': ${strerror(e)}\n`);
      return 1;
    }
  }
  const run = new Chmod(ctx, o, changes, root);
  let ok = true;
  for (const name of o.operands) ok = (await run.operand(name)) && ok;
  return ok ? 0 : 1;
};

/** GNU getopt_long's reading of chmod's command line: options anywhere before `--`, long ones abbreviated. */
function parseOptions(argv: readonly string[]): Options | "help" | "version" {
  const o: Options = { recurse: false, verbosity: "off", silent: false, preserveRoot: false, reference: undefined, optionMode: undefined, operands: [] };
  let i = 1;
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      i++;
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) {
      o.operands.push(arg);
      continue;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      const matches = LONG_OPTIONS.includes(name) ? [name] : LONG_OPTIONS.filter((n) => n.startsWith(name));
      if (matches.length === 0) throw new UsageError(`unrecognized option '${arg}'`);
      if (matches.length > 1)
        throw new UsageError(`option '${arg}' is ambiguous; possibilities:${matches.map((m) => ` '--${m}'`).join("")}`);
      const option = matches[0]!;
      if (option === "reference") {
        if (eq >= 0) o.reference = arg.slice(eq + 1);
        else if (i + 1 < argv.length) o.reference = argv[++i]!;
        else throw new UsageError("option '--reference' requires an argument");
        continue;
      }
      if (eq >= 0) throw new UsageError(`option '--${option}' doesn't allow an argument`);
      if (option === "help" || option === "version") return option;
      if (option === "changes") o.verbosity = "changes";
      else if (option === "verbose") o.verbosity = "high";
      else if (option === "recursive") o.recurse = true;
      else if (option === "quiet" || option === "silent") o.silent = true;
      else o.preserveRoot = option === "preserve-root";
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const c = arg[j]!;
      if (MODE_CHARS.includes(c)) {
        // The whole argument is (part of) the mode; several such arguments join with commas.
        o.optionMode = o.optionMode === undefined ? arg : `${o.optionMode},${arg}`;
        break;
      }
      if (c === "R") o.recurse = true;
      else if (c === "c") o.verbosity = "changes";
      else if (c === "v") o.verbosity = "high";
      else if (c === "f") o.silent = true;
      else throw new UsageError(`invalid option -- '${c}'`);
    }
  }
  o.operands.push(...argv.slice(i));
  return o;
}

/** The work on the files: each operand, and with -R everything below it. */
class Chmod {
  private readonly slicer: Slicer;

  constructor(
    private readonly ctx: CommandContext,
    private readonly o: Options,
    private readonly changes: readonly ModeChange[],
    /** "/" with --preserve-root and -R: not to be gone through. */
    private readonly root: CommandStat | undefined,
  ) {
    this.slicer = new Slicer(ctx.signal);
  }

  private error(message: string): void {
    if (!this.o.silent) this.ctx.writeStderr(`chmod: ${message}\n`);
  }

  /** A file named on the command line: symlinks followed, then the tree below it with -R. */
  async operand(name: string): Promise<boolean> {
    let st: CommandStat;
    try {
      st = this.ctx.fs.stat(name);
    } catch (e) {
      if (errorCode(e) === "ENOENT" && this.isSymlink(name)) this.error(`cannot operate on dangling symlink ${quoteaf(name)}`);
      else this.error(`cannot access ${quoteaf(name)}: ${strerror(e)}`);
      this.describe(name, Status.NoStat, 0, 0);
      return false;
    }
    let { ok, descend } = this.visit(name, st);
    if (!descend) return ok;
    // Depth first without recursion: a tree can be deeper than the host's stack.
    const stack: Array<{ dir: string; names: string[]; next: number }> = [];
    const enter = (dir: string): void => {
      try {
        stack.push({ dir, names: this.ctx.fs.readdir(dir), next: 0 });
      } catch (e) {
        this.error(`cannot read directory ${quoteaf(dir)}: ${strerror(e)}`);
        this.describe(dir, Status.NoStat, 0, 0);
        ok = false;
      }
    };
    enter(name);
    while (stack.length > 0) {
      await this.slicer.pause();
      const top = stack[stack.length - 1]!;
      if (top.next === top.names.length) {
        stack.pop();
        continue;
      }
      const path = top.dir.endsWith("/") ? `${top.dir}${top.names[top.next++]}` : `${top.dir}/${top.names[top.next++]}`;
      let lst: CommandStat;
      try {
        lst = this.ctx.fs.stat(path, false);
      } catch (e) {
        this.error(`cannot access ${quoteaf(path)}: ${strerror(e)}`);
        this.describe(path, Status.NoStat, 0, 0);
        ok = false;
        continue;
      }
      const r = this.visit(path, lst);
      ok = r.ok && ok;
      if (r.descend) enter(path);
    }
    return ok;
  }

  private isSymlink(name: string): boolean {
    try {
      return this.ctx.fs.stat(name, false).type === "symlink";
    } catch {
      return false;
    }
  }

  /** GNU's process_file for one entry: `ok` is its share of the exit status, `descend` whether -R goes below it. */
  private visit(path: string, st: CommandStat): { ok: boolean; descend: boolean } {
    // A symlink met while recursing: neither it nor what it names changes.
    if (st.type === "symlink") {
      this.describe(path, Status.NotApplied, 0, 0);
      return { ok: true, descend: false };
    }
    if (this.root && st.ino === this.root.ino && st.dev === this.root.dev) {
      // Not silenced by -f.
      const same = path === "/" ? "" : " (same as '/')";
      this.ctx.writeStderr(`chmod: it is dangerous to operate recursively on ${quoteaf(path)}${same}\nchmod: use --no-preserve-root to override this failsafe\n`);
      return { ok: false, descend: false };
    }
    const oldMode = st.mode;
    const newMode = adjustMode(oldMode, this.changes, UMASK);
    let status: Status;
    try {
      this.ctx.fs.chmod(path, newMode);
      status = ((oldMode ^ newMode) & MODE_BITS) === 0 ? Status.NoChangeRequested : Status.Succeeded;
    } catch (e) {
      this.error(`changing permissions of ${quoteaf(path)}: ${strerror(e)}`);
      status = Status.Failed;
    }
    this.describe(path, status, oldMode, newMode);
    if (status >= Status.NoChangeRequested && this.o.optionMode !== undefined) {
      // `chmod -w f` means "no w for anyone" to most people; say so when the umask kept some.
      const naive = adjustMode(oldMode, this.changes, 0);
      if (newMode & ~naive) {
        this.error(`${quotef(path)}: new permissions are ${modeString(newMode).slice(1)}, not ${modeString(naive).slice(1)}`);
        status = Status.Failed;
      }
    }
    return { ok: status >= Status.NotApplied, descend: this.o.recurse && st.type === "directory" };
  }

  /** -v reports every file, -c only the changed ones (on stdout). */
  private describe(path: string, status: Status, oldMode: number, newMode: number): void {
    if (this.o.verbosity === "off" || (this.o.verbosity === "changes" && status !== Status.Succeeded)) return;
    const q = quoteaf(path);
    const show = (m: number): string => `${(m & MODE_BITS).toString(8).padStart(4, "0")} (${modeString(m).slice(1)})`;
    const lines: Record<Status, string> = {
      [Status.NoStat]: `${q} could not be accessed`,
      [Status.Failed]: `failed to change mode of ${q} from ${show(oldMode)} to ${show(newMode)}`,
      [Status.NotApplied]: `neither symbolic link ${q} nor referent has been changed`,
      [Status.NoChangeRequested]: `mode of ${q} retained as ${show(newMode)}`,
      [Status.Succeeded]: `mode of ${q} changed from ${show(oldMode)} to ${show(newMode)}`,
    };
    this.ctx.writeStdout(`${lines[status]}\n`);
  }
}
