import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { chmod } from "./chmod.js";
import type { CommandHandler, WasmCommand } from "./command.js";
import { sort } from "./sort.js";
import { umask } from "./umask.js";
import { PACKAGE_DIR } from "../util/package-dir.js";
import { which } from "./which.js";

/** A command the VM can run, found by the basename of argv[0]. */
export type CommandSpec =
  | {
      kind: "wasm";
      name: string;
      file: string;
      /**
       * It starts in the process's working directory (the binaries built in guests/ link guests/cwd), so a
       * `/` it asks a child to start in means `/`. A user's own binary may not (README "Working directories
       * and paths"): from it, `/` means the caller's directory (kernel/syscalls/process.ts childCwd).
       */
      keepsCwd: boolean;
      /** One binary for many commands, which picks the command by argv[0]'s basename (uutils coreutils). */
      multicall?: boolean;
      /** It is shown what devices, pipes and sockets are (guest-type.ts); the Rust tools' std reads regular files only. */
      seesDevices?: boolean;
      /**
       * A Go program: a broken pipe on fd 1 or 2 ends it with SIGPIPE, on any other fd it is an EPIPE error
       * the program handles (the shell ends only the pipeline stage that wrote).
       */
      sigpipeOnStdioOnly?: boolean;
      /**
       * The binary run instead when the process's environment needs data `file` leaves out (needsLocaleData):
       * coreutils-ls.wasm has no collation data nor time zone database, coreutils.wasm has both.
       */
      dataFile?: string;
    }
  /** One of the runtime's own commands, workers/commands/<script>, run in a pool worker; it resolves its own paths. */
  | { kind: "script"; name: string; script: string }
  | { kind: "ts"; name: string; handler: CommandHandler }
  /** JavaScript: a guest `node` process in a worker of its own (src/kernel/node-process.ts). */
  | { kind: "node"; name: string };

/**
 * Commands run on the kernel's thread, written in TypeScript: `sort` yields to other processes between
 * slices (guest-abi §1: no threads), `chmod` and `umask` are the kernel's own (kernel/umask.ts), and `which`
 * looks in the VM's PATH.
 */
const builtinTs: Record<string, CommandHandler> = { chmod, sort, umask, which };

/**
 * Commands built from source in this repository (guests/build.ts, `pnpm build:guests`), whose .wasm files
 * are committed in guests/dist/: `rg` is ripgrep 15 from crates.io (guests/ripgrep/README.md).
 */
type BuiltGuest = Pick<Extract<CommandSpec, { kind: "wasm" }>, "file" | "keepsCwd" | "multicall" | "seesDevices" | "sigpipeOnStdioOnly" | "dataFile">;
const builtGuests: Record<string, BuiltGuest> = {
  rg: { file: "rg.wasm", keepsCwd: true },
  /** jaq 3 (guests/jq/README.md). */
  jq: { file: "jaq.wasm", keepsCwd: true },
  /** uutils sed (guests/sed/README.md). */
  sed: { file: "sed.wasm", keepsCwd: true },
  /** goawk (guests/awk/README.md). */
  awk: { file: "awk.wasm", keepsCwd: true, sigpipeOnStdioOnly: true },
  /** mvdan.cc/sh, a bash interpreter (guests/sh/README.md). */
  sh: { file: "sh.wasm", keepsCwd: true, seesDevices: true, sigpipeOnStdioOnly: true },
  bash: { file: "sh.wasm", keepsCwd: true, seesDevices: true, sigpipeOnStdioOnly: true },
  /**
   * git 2.47 (guests/git/README.md). Its transports start the server side by the dashed names through
   * `sh -c`; the one binary serves all three, by argv[0] as git itself dispatches.
   */
  git: { file: "git.wasm", keepsCwd: true, seesDevices: true },
  "git-upload-pack": { file: "git.wasm", keepsCwd: true, seesDevices: true },
  "git-receive-pack": { file: "git.wasm", keepsCwd: true, seesDevices: true },
  /** CPython 3.13 (guests/python/README.md); its standard library is a runtime image layer (kernel/runtime-image.ts). */
  python3: { file: "python3.wasm", keepsCwd: true, seesDevices: true },
  python: { file: "python3.wasm", keepsCwd: true, seesDevices: true },
  "python3.13": { file: "python3.wasm", keepsCwd: true, seesDevices: true },
  /** The SQLite 3.40 shell (guests/sqlite3/README.md). */
  sqlite3: { file: "sqlite3.wasm", keepsCwd: true },
  /** GNU make 4.3 (guests/make/README.md); recipes run through the VM's /bin/sh. */
  make: { file: "make.wasm", keepsCwd: true },
  /** GNU patch 2.7.6 (guests/patch/README.md). */
  patch: { file: "patch.wasm", keepsCwd: true },
  /** XZ Utils 5.4 (guests/xz/README.md): one binary, which picks its mode by argv[0] as xz itself does. */
  xz: { file: "xz.wasm", keepsCwd: true, multicall: true },
  unxz: { file: "xz.wasm", keepsCwd: true, multicall: true },
  xzcat: { file: "xz.wasm", keepsCwd: true, multicall: true },
  lzma: { file: "xz.wasm", keepsCwd: true, multicall: true },
  unlzma: { file: "xz.wasm", keepsCwd: true, multicall: true },
  lzcat: { file: "xz.wasm", keepsCwd: true, multicall: true },
  /** bzip2 1.0.8 (guests/bzip2/README.md), which picks its mode by argv[0]. */
  bzip2: { file: "bzip2.wasm", keepsCwd: true, multicall: true },
  bunzip2: { file: "bzip2.wasm", keepsCwd: true, multicall: true },
  bzcat: { file: "bzip2.wasm", keepsCwd: true, multicall: true },
  /** Zstandard 1.5.4's CLI (guests/zstd/README.md), single-threaded, which picks its mode by argv[0]. */
  zstd: { file: "zstd.wasm", keepsCwd: true, multicall: true },
  unzstd: { file: "zstd.wasm", keepsCwd: true, multicall: true },
  zstdcat: { file: "zstd.wasm", keepsCwd: true, multicall: true },
  zstdmt: { file: "zstd.wasm", keepsCwd: true, multicall: true },
  /** Info-ZIP zip 3.0 (guests/zip/README.md). */
  zip: { file: "zip.wasm", keepsCwd: true },
  /** Info-ZIP unzip 6.0 with Debian's patches (guests/unzip/README.md); as `zipinfo` it is zipinfo, by argv[0]. */
  unzip: { file: "unzip.wasm", keepsCwd: true, multicall: true },
  zipinfo: { file: "unzip.wasm", keepsCwd: true, multicall: true },
  /** diff3 of GNU diffutils 3.8 (guests/diff3/README.md); it runs the VM's `diff` for the two comparisons. */
  diff3: { file: "diff3.wasm", keepsCwd: true },
  /** curl 8.14 (guests/curl/README.md): HTTP and the other clear-text protocols, under the VM's network policy. */
  curl: { file: "curl.wasm", keepsCwd: true },
  /** GNU wget 1.21.3 (guests/wget/README.md): HTTP and HTTPS downloads, under the VM's network policy. */
  wget: { file: "wget.wasm", keepsCwd: true },
  /** mikefarah yq v4 (guests/yq/README.md). */
  yq: { file: "yq.wasm", keepsCwd: true, sigpipeOnStdioOnly: true },
  /** OpenSSL 3.0's command-line program (guests/openssl/README.md). */
  openssl: { file: "openssl.wasm", keepsCwd: true },
};
/**
 * The utilities of the uutils coreutils 0.12 multicall binary (guests/coreutils/README.md), which picks
 * one by argv[0]. Not `nice`: it starts a command, which Rust's std cannot do on WASI.
 */
const COREUTILS =
  "arch b2sum base32 base64 basename basenc cat cksum comm cp csplit cut date dd dir dircolors dirname echo expand expr factor false fmt fold head hostid join link ln ls md5sum mkdir mktemp mv nl nproc numfmt od paste pathchk pr printenv printf ptx pwd readlink realpath rm rmdir seq sha1sum sha224sum sha256sum sha384sum sha512sum shred shuf sleep split sum tail tee test touch tr true truncate tsort tty uname unexpand uniq unlink vdir wc yes";
/**
 * The utilities of coreutils that run from a smaller binary of their own (a feature of
 * guests/coreutils/Cargo.toml each): each instance copies the binary's data into its memory, 3.7 MB for
 * coreutils.wasm, which took ~1.5 ms of every start (guests/coreutils/README.md "Three binaries").
 * `coreutils-lite.wasm`: the utilities whose dependencies bring no large tables (0.45 MB of data);
 * `coreutils-ls.wasm`: ls without the collation data and the time zone database (0.25 MB of data), run
 * where the environment needs neither (needsLocaleData), coreutils.wasm, which has them, elsewhere.
 */
export const COREUTILS_VARIANTS: Record<string, string> = {
  "coreutils-lite.wasm":
    "arch base32 base64 basename basenc cat cp cut dd dirname echo expand false fold head hostid link ln mkdir mktemp mv nproc od paste pathchk printenv printf pwd readlink realpath rm rmdir seq shuf sleep split tail tee test tr true truncate tsort tty uname unexpand uniq unlink wc yes",
  "coreutils-ls.wasm": "dir ls vdir",
};
const coreutilsFile = new Map(Object.entries(COREUTILS_VARIANTS).flatMap(([file, names]) => names.split(" ").map((name) => [name, file] as const)));
coreutilsFile.set("[", coreutilsFile.get("test") ?? "coreutils.wasm");
for (const name of [...COREUTILS.split(" "), "["]) {
  const file = coreutilsFile.get(name) ?? "coreutils.wasm";
  builtGuests[name] = { file, keepsCwd: true, multicall: true, ...(file === "coreutils-ls.wasm" && { dataFile: "coreutils.wasm" }) };
}

/**
 * Whether ls needs the data coreutils-ls.wasm leaves out. uucore collates with ICU's data when the
 * collating locale (the first of LC_ALL, LC_COLLATE, LANG that is set, even empty) names a locale and is
 * UTF-8, and compares bytes when it is C (`C`, `C.UTF-8`, empty or none: the VM's default `LANG=C.UTF-8`);
 * jiff reads the time zone database only for a `TZ` that is set. Anything but C counts as a locale here.
 */
export function needsLocaleData(env: Readonly<Record<string, string>>): boolean {
  if (env["TZ"] !== undefined) return true;
  const locale = env["LC_ALL"] ?? env["LC_COLLATE"] ?? env["LANG"];
  if (locale === undefined) return false;
  const name = locale.split(/[.@]/, 1)[0];
  return name !== "" && name !== "C";
}

/**
 * The runtime's own commands in TypeScript that run in a pool worker (workers/commands/<name>.ts): the tools
 * that uutils does not build for WASI, or that the VM answers itself (README "Where the commands come from").
 */
const SCRIPTS = ["nice", "nohup", "timeout", "stat", "tac", "find", "grep", "egrep", "fgrep", "xargs", "xxd", "gzip", "gunzip", "zcat", "tar", "diff", "cmp", "column", "rev", "du", "env", "file", "bc", "strings", "more", "install", "chown", "chgrp", "mkfifo", "mknod", "df", "tree", "fd", "id", "whoami", "groups", "logname", "users", "who", "pinky", "uptime", "hostname", "sync", "stty", "kill", "ps", "chroot", "chcon", "runcon", "stdbuf", "envsubst", "hexdump", "hd", "free", "less", "iconv", "cal", "ncal", "watch", "lsof", "nc"];

const guestsDist = join(PACKAGE_DIR, "guests/dist/");

function defaultCommands(): Map<string, CommandSpec> {
  const specs = new Map<string, CommandSpec>();
  for (const [name, guest] of Object.entries(builtGuests)) specs.set(name, { kind: "wasm", name, ...guest, file: join(guestsDist, guest.file), ...(guest.dataFile !== undefined && { dataFile: join(guestsDist, guest.dataFile) }) });
  for (const name of SCRIPTS) specs.set(name, { kind: "script", name, script: name });
  specs.set("node", { kind: "node", name: "node" });
  return specs;
}

const vmShellFile = join(guestsDist, builtGuests.sh!.file);

/** Whether `spec` is the VM's own shell (sh, bash), whose `-c` scripts the kernel may run itself (kernel.ts). */
export function isVmShell(spec: CommandSpec): boolean {
  return spec.kind === "wasm" && (spec.name === "sh" || spec.name === "bash") && spec.file === vmShellFile;
}

let defaults: Map<string, CommandSpec> | undefined;

/** A TypeScript handler, or `{ wasm: file }`: a WebAssembly command of the user's, which must exist. */
function userSpec(name: string, command: CommandHandler | WasmCommand): CommandSpec {
  if (typeof command === "function") return { kind: "ts", name, handler: command };
  const invalid = (message: string): TypeError => Object.assign(new TypeError(`command ${name}: ${message}`), { code: "ERR_INVALID_ARG_VALUE" });
  const file = typeof command === "object" && command !== null ? (command as { wasm?: unknown }).wasm : undefined;
  if (typeof file !== "string") throw invalid("must be a function or { wasm: path }");
  const path = resolve(file);
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) throw invalid(`no such file: ${path}`);
  return { kind: "wasm", name, file: path, keepsCwd: false };
}

/** The commands of one VM: the WebAssembly userland, the TypeScript replacements, then the user's own. */
export class CommandRegistry {
  private readonly specs: Map<string, CommandSpec>;

  constructor(userCommands: Record<string, CommandHandler | WasmCommand> = {}) {
    defaults ??= defaultCommands();
    this.specs = new Map(defaults);
    for (const [name, command] of Object.entries({ ...builtinTs, ...userCommands })) {
      if (!/^[A-Za-z0-9_.+-]+$/.test(name)) throw new TypeError(`invalid command name: ${JSON.stringify(name)}`);
      this.specs.set(name, userSpec(name, command));
    }
  }

  /** The command named by argv[0] (a name or a path whose basename is the name). */
  resolve(argv0: string): CommandSpec | undefined {
    return this.specs.get(argv0.slice(argv0.lastIndexOf("/") + 1));
  }

  names(): string[] {
    return [...this.specs.keys()].sort();
  }
}
