/**
 * CPython 3.13 for wasm32-wasi (guests/python/README.md): the interpreter as guests/dist/python3.wasm, with its
 * C modules and their libraries (zlib, bzip2, liblzma, SQLite, OpenSSL) linked in, and its standard library, compiled,
 * as guests/dist/python3.13-lib.tar.gz, the image layer the VM mounts at /usr/lib/python3.13.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CGuest, Tarball, Toolchain } from "./c.js";
import { OPENSSL, opensslLibrary, ZLIB } from "./c.js";

const here = new URL(".", import.meta.url).pathname;
const JOBS = process.env.JOBS ?? "2";

const CPYTHON: Tarball = {
  name: "cpython",
  version: "3.13.5",
  // Debian's copy of the upstream release tarball (Python-3.13.5.tar.xz).
  url: "http://deb.debian.org/debian/pool/main/p/python3.13/python3.13_3.13.5.orig.tar.xz",
  sha256: "93e583f243454e6e9e4588ca2c2662206ad961659863277afcdb96801647d640",
  dir: "Python-3.13.5",
  licence: "PSF-2.0",
  // The interpreter's licence, and those of the libraries its source tree bundles (expat, mpdecimal).
  licenceFiles: ["LICENSE", "Modules/expat/COPYING", "Modules/_decimal/libmpdec/README.txt"],
  upstream: "https://www.python.org (https://github.com/python/cpython)",
};

/** bzip2 1.0.8 as published inside the bzip2-sys crate (upstream's sources, unchanged). */
const BZIP2: Tarball = {
  name: "bzip2",
  version: "1.0.8",
  url: "https://static.crates.io/crates/bzip2-sys/bzip2-sys-0.1.13+1.0.8.crate",
  sha256: "225bff33b2141874fe80d71e07d6eec4f85c5c216453dd96388240f96e1acc14",
  dir: "bzip2-sys-0.1.13+1.0.8",
  licence: "bzip2-1.0.6",
  licenceFiles: ["bzip2-1.0.8/LICENSE"],
  upstream: "https://sourceware.org/bzip2/",
};

/** liblzma of xz 5.2 as published inside the lzma-sys crate, with the crate's config.h. */
const XZ: Tarball = {
  name: "xz",
  version: "5.2",
  url: "https://static.crates.io/crates/lzma-sys/lzma-sys-0.1.20.crate",
  sha256: "5fda04ab3764e6cde78b9974eec4f779acaba7c4e84b36eca3cf77c581b85d27",
  dir: "lzma-sys-0.1.20",
  licence: "0BSD",
  licenceFiles: ["xz-5.2/COPYING"],
  upstream: "https://tukaani.org/xz/",
};

/** The SQLite 3.46.0 amalgamation as published inside the libsqlite3-sys crate. */
const SQLITE: Tarball = {
  name: "sqlite",
  version: "3.46.0",
  url: "https://static.crates.io/crates/libsqlite3-sys/libsqlite3-sys-0.30.1.crate",
  sha256: "2e99fb7a497b1e3339bc746195567ed8d3e24945ecd636e3619d20b9de9e9149",
  dir: "libsqlite3-sys-0.30.1",
  licence: "blessing",
  licenceFiles: ["sqlite3/sqlite3.h"],
  upstream: "https://sqlite.org",
};

/** Compiles `files` (relative to `cwd`) with `flags` into lib<name>.a in `lib`. */
function staticLib(tc: Toolchain, cwd: string, lib: string, name: string, flags: string[], files: string[]): void {
  const objs = join(lib, `obj-${name}`);
  mkdirSync(objs, { recursive: true });
  const out: string[] = [];
  for (const f of files) {
    const o = join(objs, `${f.replaceAll("/", "_")}.o`);
    execFileSync(tc.cc, ["--target=wasm32-wasi", "-O2", "-nostdlibinc", "-isystem", "/usr/include/wasm32-wasi", ...flags, "-c", f, "-o", o], { cwd, stdio: "inherit" });
    out.push(o);
  }
  execFileSync(tc.ar, ["rcs", join(lib, `lib${name}.a`), ...out]);
}

/** The C libraries of the modules zlib, _bz2, _lzma and _sqlite3, as static libraries and headers in `deps`. */
function buildDeps(work: string, tc: Toolchain, deps: string): void {
  const lib = join(deps, "lib");
  const include = join(deps, "include");
  mkdirSync(lib, { recursive: true });
  mkdirSync(include, { recursive: true });
  const zlib = join(work, ZLIB.dir);
  staticLib(tc, zlib, lib, "z", ["-DHAVE_UNISTD_H"], ["adler32.c", "compress.c", "crc32.c", "deflate.c", "gzclose.c", "gzlib.c", "gzread.c", "gzwrite.c", "infback.c", "inffast.c", "inflate.c", "inftrees.c", "trees.c", "uncompr.c", "zutil.c"]);
  for (const h of ["zlib.h", "zconf.h"]) copyFileSync(join(zlib, h), join(include, h));
  const bz = join(work, BZIP2.dir, "bzip2-1.0.8");
  staticLib(tc, bz, lib, "bz2", [], ["blocksort.c", "huffman.c", "crctable.c", "randtable.c", "compress.c", "decompress.c", "bzlib.c"]);
  copyFileSync(join(bz, "bzlib.h"), join(include, "bzlib.h"));
  // liblzma without threads: the crate's config.h less MYTHREAD_POSIX, and mythread.h's signal-mask helpers
  // (which need sigprocmask) left out on WASI. Not the *_tablegen.c files: each has a main() of its own.
  const xz = join(work, XZ.dir);
  writeFileSync(join(xz, "config.h"), readFileSync(join(xz, "config.h"), "utf8").replace("#define MYTHREAD_POSIX 1", ""));
  const mythread = join(xz, "xz-5.2/src/common/mythread.h");
  const guard = "#if !(defined(_WIN32) && !defined(__CYGWIN__))\n";
  writeFileSync(mythread, readFileSync(mythread, "utf8").replace(guard, "#if !(defined(_WIN32) && !defined(__CYGWIN__)) && !defined(__wasi__)\n"));
  const l = "xz-5.2/src/liblzma";
  const dirs = ["common", "lzma", "lz", "check", "delta", "rangecoder", "simple"];
  const skip = /_small\.c$|_tablegen\.c$|stream_encoder_mt\.c$|stream_decoder_mt\.c$|outqueue\.c$/;
  const files = dirs.flatMap((d) => readdirSync(join(xz, l, d)).filter((f) => f.endsWith(".c") && !skip.test(f)).sort().map((f) => `${l}/${d}/${f}`));
  files.push("xz-5.2/src/common/tuklib_cpucores.c", "xz-5.2/src/common/tuklib_physmem.c");
  const includes = [".", `${l}/api`, ...dirs.map((d) => `${l}/${d}`), "xz-5.2/src/common"].map((d) => `-I${join(xz, d)}`);
  staticLib(tc, xz, lib, "lzma", ["-std=c99", "-DHAVE_CONFIG_H", ...includes], files);
  execFileSync("cp", ["-r", join(xz, l, "api/lzma.h"), join(xz, l, "api/lzma"), include]);
  const sqlite = join(work, SQLITE.dir, "sqlite3");
  // No threads, no extension loading (no dlopen); SQLite detects WASI itself (no WAL, dot-file locking).
  staticLib(tc, sqlite, lib, "sqlite3", ["-DSQLITE_THREADSAFE=0", "-DLONGDOUBLE_TYPE=double", "-DSQLITE_OMIT_LOAD_EXTENSION", "-DSQLITE_ENABLE_FTS5", "-DSQLITE_ENABLE_MATH_FUNCTIONS"], ["sqlite3.c"]);
  for (const h of ["sqlite3.h", "sqlite3ext.h"]) copyFileSync(join(sqlite, h), join(include, h));
}

/** Linux's errno numbers (x86_64 uses asm-generic's) and glibc's ENOTSUP, which the kernel headers leave out. */
function linuxErrnos(): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of ["errno-base.h", "errno.h"]) {
    const text = readFileSync(join("/usr/include/asm-generic", f), "utf8");
    for (const m of text.matchAll(/^#define\s+(E[A-Z0-9]+)\s+(\w+)/gm)) out.set(m[1]!, /^\d+$/.test(m[2]!) ? Number(m[2]) : out.get(m[2]!)!);
  }
  out.set("ENOTSUP", out.get("EOPNOTSUPP")!);
  return out;
}

/** wasi-libc's errno numbers: <__errno_values.h> names them after <wasi/api.h>'s __WASI_ERRNO_* values. */
function wasiErrnos(): Map<string, number> {
  const api = readFileSync("/usr/include/wasm32-wasi/wasi/api.h", "utf8");
  const values = new Map([...api.matchAll(/^#define (__WASI_ERRNO_\w+) \(UINT16_C\((\d+)\)\)/gm)].map((m) => [m[1]!, Number(m[2])]));
  const out = new Map<string, number>();
  const names = readFileSync("/usr/include/wasm32-wasi/__errno_values.h", "utf8");
  for (const m of names.matchAll(/^#define (E[A-Z0-9]+) (\w+)/gm)) out.set(m[1]!, values.get(m[2]!) ?? out.get(m[2]!)!);
  return out;
}

/**
 * Python in the VM shows Linux's errno numbers, as a Linux build does (`[Errno 2] No such file or directory`),
 * while wasi-libc sets its own (ENOENT is 44). Two headers, written into CPython's Include/ for
 * cpython.patch: agentos_errno.h translates a wasi-libc errno to Linux's number and gives glibc's text for a
 * Linux number (os.strerror, OSError's message); agentos_linux_errno.h redefines every E* macro as Linux's
 * number, for the errno module and OSError's errno-to-subclass table. glibc's texts come from `python`, a
 * native build, whose os.strerror is glibc's strerror.
 */
function writeErrnoHeaders(src: string, python: string): void {
  const linux = linuxErrnos();
  const wasi = wasiErrnos();
  // 0 too: glibc's strerror(0) is "Success".
  const numbers = [0, ...new Set(linux.values())].sort((a, b) => a - b);
  const texts = JSON.parse(execFileSync(python, ["-c", `import json, os; print(json.dumps([os.strerror(n) for n in ${JSON.stringify(numbers)}]))`], { encoding: "utf8" })) as string[];
  const cases: string[] = [];
  for (const [name, n] of [...wasi].sort((a, b) => a[1] - b[1])) {
    // ENOTCAPABLE (WASI's capability error) has no Linux number: EACCES is what Linux says for a path it may not use.
    const l = linux.get(name) ?? (name === "ENOTCAPABLE" ? linux.get("EACCES") : undefined);
    if (l === undefined) throw new Error(`wasi-libc's ${name} has no Linux errno`);
    if (!cases.some((c) => c.startsWith(`    case ${n}:`))) cases.push(`    case ${n}: return ${l}; /* ${name} */`);
  }
  const guard = "/* Generated by guests/python.ts (writeErrnoHeaders) from wasi-libc's and Linux's errno headers. */\n";
  writeFileSync(
    join(src, "Include/agentos_errno.h"),
    `${guard}#ifndef AGENTOS_ERRNO_H\n#define AGENTOS_ERRNO_H\n
/* Linux's number for a wasi-libc errno value. */
static inline int _Py_agentos_linux_errno(int e) {
  switch (e) {
${cases.join("\n")}
  }
  return e;
}

/* glibc's text for a Linux errno number, or NULL. */
static inline const char *_Py_agentos_linux_strerror(int e) {
  switch (e) {
${numbers.map((n, i) => `    case ${n}: return ${JSON.stringify(texts[i])};`).join("\n")}
  }
  return NULL;
}
#endif\n`,
  );
  const redefine = [...new Set([...wasi.keys(), ...linux.keys()])].sort().map((name) => (linux.has(name) ? `#undef ${name}\n#define ${name} ${linux.get(name)}` : `#undef ${name}`));
  writeFileSync(join(src, "Include/agentos_linux_errno.h"), `${guard}/* Every E* macro as Linux's number; wasi-libc's own (ENOTCAPABLE) left undefined. */\n${redefine.join("\n")}\n`);
}

/**
 * What the standard library leaves out in the VM: the static library and build files (config-3.13-*), the
 * GUI (idlelib, tkinter, turtle), and the optimized .pyc files (only the plain ones are made again below).
 */
const STDLIB_LEFT_OUT = ["config-3.13-wasm32-wasi", "idlelib", "tkinter", "turtledemo", "turtle.py", "__phello__"];

export const PYTHON: CGuest = {
  kind: "c",
  file: "python3.wasm",
  tarballs: [CPYTHON, ZLIB, BZIP2, XZ, SQLITE, OPENSSL],
  make(work, tc) {
    const src = join(work, CPYTHON.dir);
    // A cross build needs a Python of the same version on the build machine (it freezes modules and
    // compiles the standard library): built first from the same source.
    const native = join(work, "native");
    mkdirSync(native, { recursive: true });
    execFileSync(join(src, "configure"), ["--disable-test-modules"], { cwd: native, stdio: "inherit", env: { ...process.env, CONFIG_SITE: "" } });
    execFileSync("make", [`-j${JOBS}`], { cwd: native, stdio: "inherit" });
    writeErrnoHeaders(src, join(native, "python"));
    const deps = join(work, "deps");
    buildDeps(work, tc, deps);
    // _ssl and _hashlib: OpenSSL as curl and the openssl command have it (with its socket BIOs, which _ssl's
    // SSL_set_fd needs).
    const ssl = opensslLibrary(work, tc);
    // agentos_posix.h is force-included only when CPython itself is compiled (CFLAGS_NODIST): in configure's
    // tests, its declarations would clash with the `char f();` each function test declares, and every
    // function they name (lstat, getpid, umask, …) would be found missing. -D_GNU_SOURCE: CPython compiles
    // with -std=c11, under which wasi-libc's headers hide sigset_t and the other types agentos_posix.h uses.
    const forced = tc.cflags.indexOf("-include");
    const cflags = tc.cflags.filter((_, i) => i !== forced && i !== forced + 1);
    const cc = [tc.cc, "-D_GNU_SOURCE", ...cflags].join(" ");
    const include = `CFLAGS_NODIST=-include ${tc.cflags[forced + 1]}`;
    const empty = join(work, "empty-pkgconfig");
    mkdirSync(empty, { recursive: true });
    const cross = join(work, "wasm");
    mkdirSync(cross, { recursive: true });
    const dep = (lib: string) => ({ cflags: `-I${join(deps, "include")}`, libs: `-L${join(deps, "lib")} -l${lib}` });
    const env = {
      ...process.env,
      PYTHON_SRC: src,
      CONFIG_SITE: join(here, "python/config.site"),
      CC: cc,
      CPP: `${cc} -E`,
      AR: tc.ar,
      RANLIB: tc.ar.replace("llvm-ar", "llvm-ranlib"),
      READELF: "true",
      PKG_CONFIG_PATH: "",
      PKG_CONFIG_LIBDIR: empty,
      LDFLAGS: ["--target=wasm32-wasi", `-L${tc.libposix}`, "-Wl,-z,stack-size=8388608", "-Wl,--stack-first"].join(" "),
      LIBS: [join(tc.libposix, "agentos_cwd.o"), ...tc.libs].join(" "),
      ZLIB_CFLAGS: dep("z").cflags,
      ZLIB_LIBS: dep("z").libs,
      BZIP2_CFLAGS: dep("bz2").cflags,
      BZIP2_LIBS: dep("bz2").libs,
      LIBLZMA_CFLAGS: dep("lzma").cflags,
      LIBLZMA_LIBS: dep("lzma").libs,
      LIBSQLITE3_CFLAGS: dep("sqlite3").cflags,
      LIBSQLITE3_LIBS: dep("sqlite3").libs,
    };
    execFileSync(
      join(src, "configure"),
      ["--host=wasm32-unknown-wasi", "--build=x86_64-pc-linux-gnu", `--with-build-python=${join(native, "python")}`, "--disable-test-modules", "--prefix=/usr", `--with-openssl=${dirname(ssl.lib)}`, "--with-openssl-rpath=no"],
      { cwd: cross, env, stdio: "inherit" },
    );
    // libposix's --wrap of stat, lstat, fstat, open and mkdir only for the build itself: configure's link tests
    // would see its wrappers' symbols as missing.
    const wrap = "LDFLAGS_NODIST=-Wl,--wrap=stat,--wrap=lstat,--wrap=fstat,--wrap=open,--wrap=mkdir -Wl,--strip-all";
    execFileSync("make", [`-j${JOBS}`, "all", include, wrap], { cwd: cross, env, stdio: "inherit" });
    const stage = join(work, "stage");
    execFileSync("make", ["install", `DESTDIR=${stage}`, include, wrap, "COMPILEALL_OPTS=-j0"], { cwd: cross, env, stdio: "inherit" });
    const lib = join(stage, "usr/lib/python3.13");
    for (const name of STDLIB_LEFT_OUT) rmSync(join(lib, name), { recursive: true, force: true });
    // The bytecode again, checked against its source's hash (not its mtime): the image's files carry the
    // archive's times, and a source a VM changes is compiled again, as Python does for any changed source.
    execFileSync("find", [lib, "-name", "__pycache__", "-prune", "-exec", "rm", "-rf", "{}", "+"]);
    // A fixed hash seed: the bytecode of a set literal otherwise differs from build to build.
    execFileSync(join(native, "python"), ["-m", "compileall", "-q", "-j0", "-o", "0", "--invalidation-mode", "checked-hash", "-s", lib, "-p", "/usr/lib/python3.13", lib], {
      stdio: "inherit",
      env: { ...process.env, PYTHONHASHSEED: "0" },
    });
    // A reproducible archive: names sorted, fixed times and owners, gzip without a name or time.
    const tar = join(work, "python3.13-lib.tar");
    execFileSync("tar", ["--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner", "-cf", tar, "-C", lib, "."]);
    execFileSync("gzip", ["-9nf", tar]);
    copyFileSync(`${tar}.gz`, join(here, "dist", "python3.13-lib.tar.gz"));
    return join(stage, "usr/bin/python3.13.wasm");
  },
};
