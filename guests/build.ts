/**
 * Rebuilds the guests (`pnpm build:guests [name…]`, all when none is named) into guests/dist/, with
 * guests/dist/manifest.json saying what each was built from. The .wasm files are committed, so users and
 * tests need only Node; test/guests.test.ts checks that each matches its sources.
 * - Go guests (GO=/path/to/go, default `go` on PATH or /usr/local/go/bin/go) for wasip1, stripped: guests/<guest>
 *   itself, or a package its go.mod names as a `tool`; a module we change is vendored for the build and patched
 *   with the guest's patch; guests/cwd/cwd.go joins the main package when the guest keeps its working directory.
 * - Rust guests from crates.io for wasm32-wasip1 (CARGO=/path/to/cargo, default `cargo`; needs the rustup
 *   target wasm32-wasip1), `--locked` by the guest's Cargo.lock. A crate we change is downloaded from
 *   crates.io, checked against its sha256, unpacked into the guest's target/<crate> (where its Cargo.toml's
 *   [patch.crates-io] points) and patched with guests/<guest>/<crate>.patch. Guests that keep their working
 *   directory link guests/cwd/cwd.rs (compiled to an object here) and are marked so in the registry.
 * - C guests (guests/c.ts) with Debian's clang-19, lld-19 and wasi-libc (apt-get install clang-19 lld-19 wasi-libc
 *   libclang-rt-19-dev-wasm32): upstream release tarballs, checked against their sha256, patched with
 *   guests/<guest>/*.patch and linked with guests/libposix (the POSIX layer on the VM's imports). sqlite3's
 *   amalgamation is generated from its source tree with the host's cc and tclsh (apt-get install gcc tcl);
 *   GNU patch's own configure runs as a cross-compile (the host's sh and make).
 * Then THIRD_PARTY_NOTICES is written again from the new manifest (guests/notices.ts).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { buildC, BZIP2, type CGuest, cToolchain, CURL, CURL_TARBALL, DIFF3, GIT, MAKE, OPENSSL, OPENSSL_APP, PATCH, SQLITE, UNZIP, XZ, ZIP, ZSTD } from "./c.js";
import { PYTHON } from "./python.js";
import { WGET } from "./wget.js";

const here = new URL(".", import.meta.url).pathname;
const dist = join(here, "dist");
const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");
const go = process.env.GO ?? (existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go");
const goEnv = { ...process.env, GOOS: "wasip1", GOARCH: "wasm", CGO_ENABLED: "0" };
const cargo = process.env.CARGO ?? "cargo";
const rustc = process.env.RUSTC ?? "rustc";

/** A crate built with a change of ours: guests/<guest>/<name>.patch applied to it as published. */
export interface PatchedCrate {
  name: string;
  version: string;
  /** Of the .crate file on static.crates.io. */
  sha256: string;
}

export interface RustGuest {
  kind: "rust";
  /** The cargo package (in guests/<guest>/Cargo.toml's dependencies) and its binary. */
  package: string;
  bin: string;
  patches: PatchedCrate[];
  /** Links guests/cwd: the binary starts in the process's working directory. */
  keepsCwd: boolean;
  /**
   * uucore is patched: its build script embeds the English messages of the `uu_<util>-<version>`
   * directories beside it (as in cargo's registry), so every uu_* crate of the build is linked there.
   */
  uucoreLocales?: boolean;
  /**
   * Another binary from the sources of guest `of` (its directory, Cargo.lock and patches): built with
   * `features` (`<its package>/<feature>`) of its own package instead of the default ones, as `file`.
   */
  variant?: { of: string; features: string[]; file: string };
}

export interface GoGuest {
  kind: "go";
  /** Builds this package, a `tool` of guests/<guest>/go.mod, instead of guests/<guest> itself. */
  pkg?: string;
  /** guests/cwd/cwd.go is added to the main package: it starts in the process's working directory. */
  keepsCwd?: boolean;
  /** A change of ours, guests/<guest>/<file>, applied to a module the guest is built with, as vendored for the build. */
  patch?: { module: string; file: string };
  /** Go's error texts are Linux's (`no such file or directory`), not wasip1's (`No such file or directory`). */
  linuxErrors?: boolean;
}

/** The crates both coreutils binaries are built with changes of ours (guests/coreutils/README.md). */
const COREUTILS_PATCHES: PatchedCrate[] = [
  { name: "uucore", version: "0.12.0", sha256: "f24a5910ebbf2c0baf486a9125705f8e026a8f7741a3ea8cf5eca3c9257c9bdf" },
  { name: "uu_ls", version: "0.12.0", sha256: "cd8f956231b30edd22f1c0ef803d6928da0d7cb5f07add01a4d15e5b2d4a2540" },
  { name: "uu_cp", version: "0.12.0", sha256: "eb4c15f0ba298a490b66abac0fefc3a44ff1b8004c38cf140d27c027f1f80784" },
  { name: "uu_test", version: "0.12.0", sha256: "9007d3a30901a0dba2e28c017aba9edb2aa26c919946ae84c770446067e98304" },
  { name: "uu_mkdir", version: "0.12.0", sha256: "665e031110e8de62ebe483eb50b21c19f57c6f02c571e3c57cfb6cf344209370" },
  { name: "uu_mktemp", version: "0.12.0", sha256: "71146f15c55f02214362b2357630e0b8078e249657b234b52f25469dbbead79b" },
  { name: "uu_dd", version: "0.12.0", sha256: "82610ff943844c3ba8be998f3e964cc75a23cedd42be4956a70bd05ec1d0238c" },
  { name: "uu_paste", version: "0.12.0", sha256: "edddacb62a1b7058ec9f33974cb4dbf677171b83d710e153764e6e5995fffaeb" },
  { name: "uu_wc", version: "0.12.0", sha256: "e45457ac8613955d62a62e2cea12aab7023a4d015c24a30b4719ee9138d8598d" },
  { name: "uu_fold", version: "0.12.0", sha256: "b28755578b0b98318371e055fcc70b94c9198bacfce0d125d3049ab1c2d2beb2" },
  { name: "uu_base32", version: "0.12.0", sha256: "a4472f433014202b99debd2907cda4650aafbb6881b8a5dca139b255dceed892" },
  { name: "uu_rm", version: "0.12.0", sha256: "c16cd2b5f4e7647a10a316c001b804e688a80aba77685578cdf11bdf4b31f780" },
];

/** uutils coreutils 0.12 as one multicall binary: the build the smaller ones vary. */
const COREUTILS: RustGuest = { kind: "rust", package: "coreutils", bin: "coreutils", patches: COREUTILS_PATCHES, keepsCwd: true, uucoreLocales: true };

export const GUESTS: Record<string, GoGuest | RustGuest | CGuest> = {
  /** Exercises the kernel for event-loop guests (test/event-loop.test.ts). */
  probe: { kind: "go" },
  /** goawk 1.31.0 as `awk` (guests/awk/README.md). */
  awk: { kind: "go", pkg: "github.com/benhoyt/goawk", keepsCwd: true, patch: { module: "github.com/benhoyt/goawk", file: "goawk.patch" } },
  /** mvdan.cc/sh 3.14.1 as `sh` and `bash` (guests/sh/README.md). */
  sh: { kind: "go", keepsCwd: true, patch: { module: "mvdan.cc/sh/v3", file: "sh.patch" } },
  /** ripgrep 15.2.0 as `rg` (guests/ripgrep/README.md). */
  ripgrep: {
    kind: "rust",
    package: "ripgrep",
    bin: "rg",
    patches: [
      { name: "ripgrep", version: "15.2.0", sha256: "a30750b6d0743bfdd2656ebbaf4555aa278c43144b84bc389bcbfa399485ec71" },
      { name: "grep-cli", version: "0.1.12", sha256: "cf32d263c5d5cc2a23ce587097f5ddafdb188492ba2e6fb638eaccdc22453631" },
    ],
    keepsCwd: true,
  },
  /** jaq 3.1.2 as `jq` (guests/jq/README.md). */
  jq: {
    kind: "rust",
    package: "jaq",
    bin: "jaq",
    patches: [
      { name: "jaq", version: "3.1.2", sha256: "f686343ddd30a3cb6028299b080fb135480532e74b5f6628362c11fdb52f7d22" },
      { name: "jaq-json", version: "2.0.3", sha256: "4be2f53207ffb1313a2d2ad819cfa8bfaa7936cb85a110eda10fd5da822cec94" },
    ],
    keepsCwd: true,
  },
  /** uutils sed 0.3.0 as `sed` (guests/sed/README.md). */
  sed: {
    kind: "rust",
    package: "sed",
    bin: "sed",
    patches: [{ name: "sed", version: "0.3.0", sha256: "b908cd347ea83fee7c9fdb621e4dccdd6612d9962da2be03a846be2e6d83f758" }],
    keepsCwd: true,
  },
  /** uutils coreutils 0.12 as one multicall binary (guests/coreutils/README.md). */
  coreutils: COREUTILS,
  /** git 2.47.3 with zlib 1.3.1 (guests/git/README.md). */
  git: GIT,
  /** CPython 3.13.5 with zlib, bzip2, liblzma and SQLite, and its standard library (guests/python/README.md). */
  python: PYTHON,
  /** mikefarah yq 4.54.3 as `yq` (guests/yq/README.md). */
  yq: { kind: "go", pkg: "github.com/mikefarah/yq/v4", keepsCwd: true, linuxErrors: true },
  /** The SQLite 3.40.1 shell (guests/sqlite3/README.md). */
  sqlite3: SQLITE,
  /** GNU make 4.3 (guests/make/README.md). */
  make: MAKE,
  /** GNU patch 2.7.6 (guests/patch/README.md). */
  patch: PATCH,
  /** curl 8.14.1 with zlib 1.3.1, without TLS for now (guests/curl/README.md). */
  curl: CURL,
  /** The openssl command of OpenSSL 3.0.19 (guests/openssl/README.md). */
  openssl: OPENSSL_APP,
  /** GNU wget 1.21.3 with OpenSSL 3.0.19 and zlib 1.3.1 (guests/wget/README.md). */
  wget: WGET,
  /** XZ Utils 5.4.1 (guests/xz/README.md). */
  xz: XZ,
  /** bzip2 1.0.8 (guests/bzip2/README.md). */
  bzip2: BZIP2,
  /** The Zstandard 1.5.4 CLI (guests/zstd/README.md). */
  zstd: ZSTD,
  /** Info-ZIP zip 3.0 (guests/zip/README.md). */
  zip: ZIP,
  /** Info-ZIP unzip 6.0 with Debian's patches (guests/unzip/README.md). */
  unzip: UNZIP,
  /** diff3 of GNU diffutils 3.8 (guests/diff3/README.md). */
  diff3: DIFF3,
  /**
   * The utilities of coreutils whose dependencies bring no large tables, in a multicall binary of their own
   * that starts in a tenth of the time (guests/coreutils/README.md "Three binaries").
   */
  "coreutils-lite": {
    ...COREUTILS,
    variant: { of: "coreutils", features: ["agentos-coreutils/lite"], file: "coreutils-lite.wasm" },
  },
  /** ls, dir and vdir of coreutils without the data of the other utilities (guests/coreutils/README.md "Three binaries"). */
  "coreutils-ls": {
    ...COREUTILS,
    variant: { of: "coreutils", features: ["agentos-coreutils/ls"], file: "coreutils-ls.wasm" },
  },
};

export interface GuestManifest {
  go: string;
  /** `rustc -V` of the toolchain that built the Rust guests. */
  rust?: string;
  /** The compiler and libc that built the C guests (cToolchain()). */
  c?: string;
  guests: Record<
    string,
    {
      /** guests/dist/<file>. */
      file: string;
      sources: Record<string, string>;
      /** Rust guests: every crate compiled into the binary, name → version (" patched" when from guests/). */
      crates?: Record<string, string>;
      /** C guests: every upstream tarball compiled into the binary, name → version, url and sha256. */
      tarballs?: Record<string, { version: string; url: string; sha256: string }>;
      sha256: string;
      bytes: number;
    }
  >;
}

const SOURCE = /\.(go|rs|toml|patch|c|h)$|^(go\.mod|go\.sum|Cargo\.lock|config\.site)$/;

/** The files a guest is built from, relative to guests/, with their sha256: its directory (without cargo's target/ and a build's vendor/), and guests/cwd's file when it links it. */
export function guestSources(name: string): Record<string, string> {
  const files: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(here, rel), { withFileTypes: true })) {
      if (e.isDirectory() && e.name !== "target" && e.name !== "vendor") walk(`${rel}/${e.name}`);
      else if (e.isFile() && SOURCE.test(e.name)) files.push(`${rel}/${e.name}`);
    }
  };
  const guest = GUESTS[name];
  walk((guest?.kind === "rust" && guest.variant?.of) || name);
  if (guest?.kind === "c") {
    walk("libposix");
    // A guest linking OpenSSL is built with its patches too (opensslLibrary).
    if (name !== "openssl" && guest.tarballs.includes(OPENSSL)) walk("openssl");
    // And one linking libcurl with curl's (curlLibrary).
    if (name !== "curl" && guest.tarballs.includes(CURL_TARBALL)) walk("curl");
  } else if (guest?.keepsCwd) files.push(guest.kind === "rust" ? "cwd/cwd.rs" : "cwd/cwd.go");
  return Object.fromEntries(files.sort().map((f) => [f, sha256(readFileSync(join(here, f)))]));
}

/** The guests this file builds: name → the .wasm file in guests/dist/. */
export const guestFiles = (): Record<string, string> =>
  Object.fromEntries(Object.entries(GUESTS).map(([name, g]) => [name, g.kind === "rust" ? (g.variant?.file ?? `${g.bin}.wasm`) : g.kind === "c" ? g.file : `${name}.wasm`]));

function buildGo(name: string, g: GoGuest): GuestManifest["guests"][string] {
  const file = `${name}.wasm`;
  const cwd = join(here, name);
  const args = ["build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", join(dist, file)];
  // A patched module is built from a vendor/ made for the build (Go refuses changes beneath its module cache).
  const vendor = join(cwd, "vendor");
  const overlay = join(cwd, "overlay.json");
  try {
    // A tool package that gets guests/cwd joins its main package from vendor/ too (no overlays in the module cache).
    if (g.patch || (g.keepsCwd && g.pkg)) {
      execFileSync(go, ["mod", "vendor"], { cwd, env: goEnv, stdio: "inherit" });
      if (g.patch) execFileSync("patch", ["-p1", "-d", join(vendor, g.patch.module), "-i", join(cwd, g.patch.file)], { stdio: "inherit" });
      args.push("-mod=vendor");
    }
    const replace: Record<string, string> = {};
    if (g.keepsCwd) replace[join(g.pkg ? join(vendor, g.pkg) : cwd, "agentos_cwd.go")] = join(here, "cwd/cwd.go");
    if (g.linuxErrors) {
      const table = join(cwd, "linux-errors.go");
      const goroot = execFileSync(go, ["env", "GOROOT"], { encoding: "utf8" }).trim();
      writeFileSync(table, linuxErrorTable(goroot));
      replace[join(goroot, "src/syscall/tables_wasip1.go")] = table;
    }
    if (Object.keys(replace).length > 0) {
      writeFileSync(overlay, JSON.stringify({ Replace: replace }));
      args.push(`-overlay=${overlay}`);
    }
    execFileSync(go, [...args, g.pkg ?? "."], { cwd, env: goEnv, stdio: "inherit" });
  } finally {
    rmSync(vendor, { recursive: true, force: true });
    rmSync(overlay, { force: true });
    rmSync(join(cwd, "linux-errors.go"), { force: true });
  }
  const bytes = readFileSync(join(dist, file));
  return { file, sources: guestSources(name), sha256: sha256(bytes), bytes: bytes.length };
}

/**
 * Go's syscall/tables_wasip1.go with each errno's text replaced by the one Go prints on Linux
 * (zerrors_linux_amd64.go): the messages programs print from Go's errors are then those of their Linux builds.
 */
function linuxErrorTable(goroot: string): string {
  const linux = readFileSync(join(goroot, "src/syscall/zerrors_linux_amd64.go"), "utf8");
  const numbers = new Map([...linux.matchAll(/^\t(E[A-Z0-9]+)\s*= Errno\((0x[0-9a-f]+)\)/gm)].map((m) => [m[1]!, Number(m[2])]));
  const table = linux.slice(linux.indexOf("var errors = [...]string{"), linux.indexOf("var signals = [...]string{"));
  const texts = new Map([...table.matchAll(/^\t(\d+):\s*"([^"]*)",/gm)].map((m) => [Number(m[1]), m[2]!]));
  const wasi = readFileSync(join(goroot, "src/syscall/tables_wasip1.go"), "utf8");
  return wasi.replace(/^(\t(E[A-Z0-9]+):\s*)"([^"]*)",/gm, (line, head: string, name: string) => {
    const n = numbers.get(name);
    const text = n === undefined ? undefined : texts.get(n);
    return text === undefined ? line : `${head}"${text}",`;
  });
}

/** Unpacks a crate from crates.io into `target/<name>` and applies `<dir>/<name>.patch`. */
export async function patchCrate(dir: string, c: PatchedCrate): Promise<void> {
  const target = join(dir, "target");
  const crate = join(target, `${c.name}-${c.version}.crate`);
  mkdirSync(target, { recursive: true });
  if (!existsSync(crate) || sha256(readFileSync(crate)) !== c.sha256) {
    const res = await fetch(`https://static.crates.io/crates/${c.name}/${c.name}-${c.version}.crate`);
    if (!res.ok) throw new Error(`${c.name} ${c.version}: HTTP ${res.status}`);
    writeFileSync(crate, new Uint8Array(await res.arrayBuffer()));
  }
  if (sha256(readFileSync(crate)) !== c.sha256) throw new Error(`${c.name} ${c.version}: checksum mismatch`);
  for (const old of [c.name, `${c.name}-${c.version}`]) rmSync(join(target, old), { recursive: true, force: true });
  execFileSync("tar", ["xzf", crate, "-C", target]);
  renameSync(join(target, `${c.name}-${c.version}`), join(target, c.name));
  execFileSync("patch", ["-p1", "-d", join(target, c.name), "-i", join(dir, `${c.name}.patch`)], { stdio: "inherit" });
}

/** The crates a build compiles (`selection`: its package and feature arguments), as `cargo tree` lists them: "name vX.Y.Z[ (path)]". */
const cargoTree = (dir: string, selection: string[]): string[] =>
  execFileSync(cargo, ["tree", ...selection, "-e", "normal", "--prefix", "none", "--format", "{p}"], { cwd: dir, encoding: "utf8" }).split("\n");

/**
 * Links the source of every uu_* crate the build compiles into the guest's target/ as uu_<util>-<version>,
 * and removes the links an earlier build with other features left there.
 */
function linkUtilitySources(dir: string, selection: string[]): void {
  const built = new Set(cargoTree(dir, selection).map((line) => line.split(" ")[0]));
  const target = join(dir, "target");
  for (const e of readdirSync(target, { withFileTypes: true })) if (e.isSymbolicLink() && /^uu_\w+-\d/.test(e.name)) rmSync(join(target, e.name));
  const metadata = JSON.parse(
    execFileSync(cargo, ["metadata", "--locked", "--format-version", "1", "--filter-platform", "wasm32-wasip1"], { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20 }),
  ) as { packages: Array<{ name: string; version: string; manifest_path: string }> };
  for (const p of metadata.packages) {
    if (p.name.startsWith("uu_") && built.has(p.name)) symlinkSync(dirname(p.manifest_path), join(target, `${p.name}-${p.version}`));
  }
}

/** The release profile of guests/<name>/Cargo.toml; paths in panic messages are made machine-independent. */
async function buildRust(name: string, g: RustGuest): Promise<GuestManifest["guests"][string]> {
  const dir = join(here, g.variant?.of ?? name);
  // A variant selects its own package too (cargo takes features only for the workspace's packages).
  const own = g.variant ? [...new Set(g.variant.features.map((f) => f.split("/")[0]!))] : [];
  const selection = ["--locked", "--target", "wasm32-wasip1", "-p", g.package, ...own.flatMap((p) => ["-p", p])];
  if (g.variant) selection.push("--no-default-features", "--features", g.variant.features.join(","));
  for (const c of g.patches) await patchCrate(dir, c);
  const cargoHome = process.env.CARGO_HOME ?? join(homedir(), ".cargo");
  const rustflags = [`--remap-path-prefix=${cargoHome}=/cargo`, `--remap-path-prefix=${here}=/agentos/guests/`];
  if (g.keepsCwd) {
    const object = join(dir, "target", "cwd.o");
    mkdirSync(join(dir, "target"), { recursive: true });
    execFileSync(rustc, ["--edition", "2024", "--crate-type=lib", "--emit=obj", "--target", "wasm32-wasip1", "-Copt-level=2", "-Cpanic=abort", join(here, "cwd/cwd.rs"), "-o", object]);
    rustflags.push(`-Clink-arg=${object}`);
  }
  if (g.uucoreLocales) {
    linkUtilitySources(dir, selection);
    // Its build script reruns only when the lock file changes: make it look at the links again.
    execFileSync(cargo, ["clean", "--release", "--target", "wasm32-wasip1", "-p", "uucore"], { cwd: dir, stdio: "inherit" });
  }
  // Without LANG: uucore embeds the messages of $LANG's locale besides English.
  const { LANG: _lang, ...env } = process.env;
  execFileSync(cargo, ["build", "--release", ...selection, "--bin", g.bin], {
    cwd: dir,
    // GIT_CEILING_DIRECTORIES: a patched crate is unpacked inside this checkout, and a build script that asks
    // git for its revision (ripgrep's, for `rg --version`) must not find this repository's.
    env: { ...env, CARGO_ENCODED_RUSTFLAGS: rustflags.join("\x1f"), GIT_CEILING_DIRECTORIES: join(dir, "target") },
    stdio: "inherit",
  });
  const file = g.variant?.file ?? `${g.bin}.wasm`;
  copyFileSync(join(dir, `target/wasm32-wasip1/release/${g.bin}.wasm`), join(dist, file));
  const crates: Record<string, string> = {};
  for (const line of cargoTree(dir, selection)) {
    const m = /^(\S+) v(\S+)( \(\/)?/.exec(line);
    if (m && !own.includes(m[1]!)) crates[m[1]!] = m[2]! + (m[3] ? " patched" : "");
  }
  const bytes = readFileSync(join(dist, file));
  const sorted = Object.fromEntries(Object.entries(crates).sort(([a], [b]) => a.localeCompare(b)));
  return { file, sources: guestSources(name), crates: sorted, sha256: sha256(bytes), bytes: bytes.length };
}

/** Builds the guests named (all without names), then the manifest and the notices. */
async function main(): Promise<void> {
  const names = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(GUESTS);
  for (const n of names) if (!GUESTS[n]) throw new Error(`no guest ${n}: ${Object.keys(GUESTS).join(", ")}`);
  mkdirSync(dist, { recursive: true });
  const built: GuestManifest["guests"] = {};
  for (const name of names) {
    const g = GUESTS[name]!;
    built[name] = g.kind === "go" ? buildGo(name, g) : g.kind === "c" ? await buildC(name, g, guestSources(name)) : await buildRust(name, g);
  }
  // Read only now: another build may have written the manifest meanwhile.
  const manifestFile = join(dist, "manifest.json");
  const old = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, "utf8")) as GuestManifest) : undefined;
  // A toolchain's version is asked only when a guest of its kind was built (each build needs only its own).
  const kinds = new Set(names.map((n) => GUESTS[n]!.kind));
  const manifest: GuestManifest = {
    go: kinds.has("go") || !old ? execFileSync(go, ["env", "GOVERSION"], { env: goEnv, encoding: "utf8" }).trim() : old.go,
    rust: kinds.has("rust") || !old?.rust ? execFileSync(rustc, ["-V"], { encoding: "utf8" }).trim() : old.rust,
    c: kinds.has("c") || !old?.c ? cToolchain() : old.c,
    guests: {},
  };
  for (const name of Object.keys(GUESTS)) {
    const entry = built[name] ?? old?.guests[name];
    if (entry) manifest.guests[name] = entry;
  }
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  for (const name of names) console.log(`guests/dist/${built[name]!.file}: ${built[name]!.bytes} bytes`);
  // The licence notices follow what was built (test/notices.test.ts checks them against the manifest).
  const { writeNotices } = await import("./notices.js");
  console.log(await writeNotices());
}

// Not a top-level await: notices.ts imports this module, and its import above would wait for this module's
// evaluation to finish while this module waited for it (Node ends such a deadlock with exit code 13).
if (process.argv[1] === new URL(import.meta.url).pathname) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
