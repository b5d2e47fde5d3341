/**
 * The C guests of guests/build.ts: upstream release tarballs built for wasm32-wasi with Debian 12's clang-19,
 * lld-19 and wasi-libc 0.0~git20220510 (`apt-get install clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32`),
 * linked with guests/libposix, the POSIX layer (processes, pipes, st_mode, users) on the VM's own imports.
 * Work happens in guests/<guest>/target/ (not committed): the tarballs are downloaded there once and checked
 * against their sha256, then unpacked afresh for every build.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const here = new URL(".", import.meta.url).pathname;
const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

const CC = process.env.CC_WASI ?? "clang-19";
const AR = process.env.AR_WASI ?? "llvm-ar-19";
const SYSROOT_INCLUDE = "/usr/include/wasm32-wasi";
const JOBS = process.env.JOBS ?? "2";

/** An upstream source release, from a mirror that needs no GitHub (Debian's pool keeps the upstream tarballs). */
export interface Tarball {
  name: string;
  version: string;
  url: string;
  sha256: string;
  /** The directory it unpacks to. */
  dir: string;
  /** SPDX identifier and the files of the release that carry its licence (for THIRD_PARTY_NOTICES). */
  licence: string;
  licenceFiles: string[];
  upstream: string;
}

export interface CGuest {
  kind: "c";
  /** guests/dist/<file>. */
  file: string;
  /** The program first, then the libraries compiled into it. */
  tarballs: Tarball[];
  /** Builds the program in `work` (tarballs unpacked and patched there); returns the path of the .wasm. */
  make: (work: string, toolchain: Toolchain) => string;
}

/** Compiler flags every C guest is built with (../shared/docs/c-guests.md §1). */
export interface Toolchain {
  cc: string;
  /** Where guests/libposix was compiled: libagentos_posix.a and agentos_cwd.o. */
  libposix: string;
  ar: string;
  cflags: string[];
  ldflags: string[];
  libs: string[];
}

/**
 * The toolchain's cflags without its `-include`s, for a configure script: configure's test programs declare
 * functions as `char f();`, and agentos_posix.h's prototypes must not be in them.
 */
export function configureCflags(tc: Toolchain): string[] {
  return tc.cflags.filter((f, i, all) => f !== "-include" && all[i - 1] !== "-include");
}

/**
 * -nostdlibinc with explicit -isystem: Debian's clang otherwise searches /usr/include (glibc) after the WASI
 * headers, and a header wasi-libc lacks would come from glibc. `--target=wasm32-wasi`, not wasip1: Debian's
 * multiarch directories carry that name (the output is preview1 either way).
 */
function toolchain(libposix: string): Toolchain {
  return {
    cc: CC,
    libposix,
    ar: AR,
    cflags: [
      "--target=wasm32-wasi",
      "-O2",
      "-nostdlibinc",
      "-isystem",
      join(here, "libposix/include"),
      "-isystem",
      SYSROOT_INCLUDE,
      "-include",
      "agentos_posix.h",
      "-D_WASI_EMULATED_SIGNAL",
      "-D_WASI_EMULATED_PROCESS_CLOCKS",
      "-D_WASI_EMULATED_MMAN",
      "-D_WASI_EMULATED_GETPID",
      `-ffile-prefix-map=${here}=/agentos/guests/`,
    ],
    // An 8 MiB stack (Linux's default) below the static data (--stack-first): wasm-ld's 64 KiB default grows
    // down into dlmalloc's state, and an overflow corrupts the heap silently instead of trapping.
    ldflags: [
      "--target=wasm32-wasi",
      join(libposix, "agentos_cwd.o"),
      `-L${libposix}`,
      "-Wl,--strip-all",
      "-Wl,--wrap=stat,--wrap=lstat,--wrap=fstat,--wrap=open,--wrap=mkdir",
      "-Wl,-z,stack-size=8388608",
      "-Wl,--stack-first",
    ],
    libs: ["-lagentos_posix", "-lwasi-emulated-signal", "-lwasi-emulated-mman", "-lwasi-emulated-process-clocks"],
  };
}

/** What built the C guests, for the manifest: the compiler's version and wasi-libc's Debian package. */
export function cToolchain(): string {
  const clang = execFileSync(CC, ["--version"], { encoding: "utf8" }).split("\n")[0]!.trim();
  let libc = "wasi-libc (version unknown)";
  try {
    libc = `wasi-libc ${execFileSync("dpkg-query", ["-W", "-f=${Version}", "wasi-libc"], { encoding: "utf8" }).trim()}`;
  } catch {
    // not a Debian system: the headers are still the ones named above
  }
  return `${clang}, ${libc}`;
}

/** Downloads (once) and checks a tarball into `dir`; returns its path. */
export async function fetchTarball(dir: string, t: Tarball): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, t.url.slice(t.url.lastIndexOf("/") + 1));
  if (!existsSync(file) || sha256(readFileSync(file)) !== t.sha256) {
    const res = await fetch(t.url);
    if (!res.ok) throw new Error(`${t.name} ${t.version}: HTTP ${res.status} from ${t.url}`);
    writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
  }
  if (sha256(readFileSync(file)) !== t.sha256) throw new Error(`${t.name} ${t.version}: checksum mismatch for ${t.url}`);
  return file;
}

/** Unpacks a checked tarball into `work` afresh; returns the directory it made. */
export async function unpack(cache: string, work: string, t: Tarball): Promise<string> {
  const file = await fetchTarball(cache, t);
  mkdirSync(work, { recursive: true });
  rmSync(join(work, t.dir), { recursive: true, force: true });
  execFileSync("tar", ["xf", file, "-C", work]);
  return join(work, t.dir);
}

/** guests/libposix compiled into `out`: libagentos_posix.a and agentos_cwd.o (linked as an object: nothing references it). */
function buildLibposix(tc: Toolchain, out: string): void {
  mkdirSync(out, { recursive: true });
  const cc = (src: string, obj: string): void => {
    execFileSync(tc.cc, [...tc.cflags, "-Wall", "-Werror", "-c", join(here, "libposix", src), "-o", join(out, obj)], { stdio: "inherit" });
  };
  const members = ["posix", "socket", "netdb"];
  for (const m of members) cc(`${m}.c`, `${m}.o`);
  cc("agentos_cwd.c", "agentos_cwd.o");
  rmSync(join(out, "libagentos_posix.a"), { force: true });
  execFileSync(tc.ar, ["rcs", join(out, "libagentos_posix.a"), ...members.map((m) => join(out, `${m}.o`))]);
}

/** guests/<guest>/*.patch applied, in name order, to the source tree `dir`. */
function applyPatches(guest: string, dir: string): void {
  const patches = readdirSync(join(here, guest)).filter((f) => f.endsWith(".patch")).sort();
  for (const p of patches) execFileSync("patch", ["-p1", "-d", dir, "-i", join(here, guest, p)], { stdio: "inherit" });
}

export async function buildC(name: string, g: CGuest, sources: Record<string, string>) {
  const target = join(here, name, "target");
  const work = join(target, "build");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const libposix = join(work, "libposix");
  const tc = toolchain(libposix);
  buildLibposix(tc, libposix);
  for (const t of g.tarballs) await unpack(target, work, t);
  applyPatches(name, join(work, g.tarballs[0]!.dir));
  const wasm = g.make(work, tc);
  copyFileSync(wasm, join(here, "dist", g.file));
  const bytes = readFileSync(join(here, "dist", g.file));
  const tarballs = Object.fromEntries(g.tarballs.map((t) => [t.name, { version: t.version, url: t.url, sha256: t.sha256 }]));
  return { file: g.file, sources, tarballs, sha256: sha256(bytes), bytes: bytes.length };
}

/** The files under `dir`, path → mode and text, sorted. */
function templateFiles(dir: string): Record<string, { mode: number; text: string }> {
  const out: Record<string, { mode: number; text: string }> = {};
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path);
      else out[path] = { mode: statSync(join(dir, path)).mode & 0o777, text: readFileSync(join(dir, path), "utf8") };
    }
  };
  walk("");
  return out;
}

export const ZLIB: Tarball = {
  name: "zlib",
  version: "1.3.1",
  // Debian's repack of zlib 1.3.1 (its contrib/ directory removed; the library's sources are upstream's).
  url: "http://deb.debian.org/debian/pool/main/z/zlib/zlib_1.3.dfsg+really1.3.1.orig.tar.gz",
  sha256: "60dd315c07f616887caa029408308a018ace66e3d142726a97db164b3b8f69fb",
  dir: "zlib-1.3.1",
  licence: "Zlib",
  licenceFiles: ["LICENSE"],
  upstream: "https://zlib.net",
};

/**
 * The SQLite shell. Debian's orig tarball is SQLite's full source tree (not the amalgamation): its configure and
 * `make sqlite3.c shell.c` generate the amalgamation with native tools (the host's cc and tclsh), then both
 * files are compiled for WASI with wasi-config.h force-included (guests/sqlite3/README.md). The compile-time
 * options are Debian's where they are features a user sees (FTS3/4/5, R*Tree, math functions, dbstat,
 * soundex, URI file names); what WASI cannot have (threads, WAL, extensions, mmap) is left out.
 */
export const SQLITE: CGuest = {
  kind: "c",
  file: "sqlite3.wasm",
  tarballs: [
    {
      name: "sqlite",
      version: "3.40.1",
      // Debian's copy of SQLite's source tree of release 3.40.1 (the version of Debian 12's sqlite3).
      url: "http://deb.debian.org/debian/pool/main/s/sqlite3/sqlite3_3.40.1.orig.tar.xz",
      sha256: "aaa776260ab4dc976db34aa7891819484c8676b5b2783123ebc6301e2ca5d655",
      dir: "sqlite3-3.40.1",
      licence: "blessing",
      licenceFiles: ["LICENSE.md"],
      upstream: "https://sqlite.org",
    },
  ],
  make(work, tc) {
    const native = join(work, "amalgamation");
    mkdirSync(native, { recursive: true });
    // The host's compiler builds the generators (lemon, mkkeywordhash); nothing of it reaches the .wasm.
    const hostEnv = { ...process.env, CC: "cc", CFLAGS: "-O2" };
    execFileSync(join(work, "sqlite3-3.40.1/configure"), ["--disable-tcl", "--disable-readline"], { cwd: native, env: hostEnv, stdio: "inherit" });
    execFileSync("make", [`-j${JOBS}`, "sqlite3.c", "shell.c"], { cwd: native, env: hostEnv, stdio: "inherit" });
    const options = [
      "-include",
      join(here, "sqlite3/wasi-config.h"),
      "-DSQLITE_THREADSAFE=0",
      "-DSQLITE_OMIT_LOAD_EXTENSION",
      "-DSQLITE_OMIT_WAL",
      "-DSQLITE_OMIT_SHARED_CACHE",
      "-DSQLITE_MAX_MMAP_SIZE=0",
      "-DSQLITE_ENABLE_FTS3",
      "-DSQLITE_ENABLE_FTS3_PARENTHESIS",
      "-DSQLITE_ENABLE_FTS4",
      "-DSQLITE_ENABLE_FTS5",
      "-DSQLITE_ENABLE_RTREE",
      "-DSQLITE_ENABLE_MATH_FUNCTIONS",
      "-DSQLITE_ENABLE_DBSTAT_VTAB",
      "-DSQLITE_SOUNDEX",
      "-DSQLITE_USE_URI=1",
      "-DSQLITE_DEFAULT_FOREIGN_KEYS=0",
      "-DHAVE_ISNAN",
      // pread/pwrite (the VM's PREAD and PWRITE) instead of a seek before every page read or written: half the
      // system calls of a scan (3,000 pages: 6,000 calls became 3,000).
      "-DUSE_PREAD",
    ];
    const objects = ["sqlite3.c", "shell.c"].map((src) => {
      const obj = join(native, src.replace(/\.c$/, ".wasm.o"));
      execFileSync(tc.cc, [...tc.cflags, ...options, "-c", join(native, src), "-o", obj], { stdio: "inherit" });
      return obj;
    });
    const out = join(native, "sqlite3.wasm");
    execFileSync(tc.cc, [...tc.ldflags, ...objects, ...tc.libs, "-lm", "-o", out], { stdio: "inherit" });
    return out;
  },
};

/** The objects of GNU make 4.3's own build (Makefile.am's make_SOURCES on POSIX), and its copies of glob and fnmatch. */
const MAKE_SOURCES = [
  ..."ar arscan commands default dir expand file function getopt getopt1 guile hash implicit job load loadapi main misc output posixos read remake remote-stub rule signame strcache variable version vpath"
    .split(" ")
    .map((f) => `src/${f}.c`),
  "lib/glob.c",
  "lib/fnmatch.c",
];

/**
 * GNU make 4.3. Debian's make-dfsg orig tarball is the release without its documentation and without the
 * generated configure (it needs gnulib's autotools): make is compiled directly with the hand-written
 * guests/make/config.h, as its own build.sh does with a configured one (guests/make/README.md).
 */
export const MAKE: CGuest = {
  kind: "c",
  file: "make.wasm",
  tarballs: [
    {
      name: "make",
      version: "4.3",
      // Debian's repack of make-4.3.tar.gz (its doc/ removed, as the GFDL manual is not free for Debian).
      url: "http://deb.debian.org/debian/pool/main/m/make-dfsg/make-dfsg_4.3.orig.tar.gz",
      sha256: "be4c17542578824e745f83bcd2a9ba264206187247cb6a5f5df99b0a9d1f9047",
      dir: "make-dfsg-4.3",
      licence: "GPL-3.0-or-later",
      licenceFiles: ["COPYING"],
      upstream: "https://www.gnu.org/software/make/",
    },
  ],
  make(work, tc) {
    const src = join(work, "make-dfsg-4.3");
    const include = join(work, "include");
    mkdirSync(include, { recursive: true });
    // What configure would do for lib/: make's own glob.h and fnmatch.h (wasi-libc has no glob).
    copyFileSync(join(src, "lib/glob.in.h"), join(include, "glob.h"));
    copyFileSync(join(src, "lib/fnmatch.in.h"), join(include, "fnmatch.h"));
    copyFileSync(join(here, "make/config.h"), join(include, "config.h"));
    const flags = [
      ...tc.cflags,
      "-DHAVE_CONFIG_H",
      `-I${include}`,
      `-I${join(src, "src")}`,
      `-I${join(src, "lib")}`,
      '-DLIBDIR="/usr/lib"',
      '-DINCLUDEDIR="/usr/include"',
      '-DLOCALEDIR="/usr/share/locale"',
    ];
    const objects = [...MAKE_SOURCES.map((f) => join(src, f)), join(here, "make/wasi.c")].map((file, i) => {
      const obj = join(work, `${i}-${file.slice(file.lastIndexOf("/") + 1, -2)}.o`);
      execFileSync(tc.cc, [...flags, "-c", file, "-o", obj], { stdio: "inherit" });
      return obj;
    });
    const out = join(work, "make.wasm");
    execFileSync(tc.cc, [...tc.ldflags, ...objects, ...tc.libs, "-o", out], { stdio: "inherit" });
    return out;
  },
};

/**
 * GNU patch 2.7.6 (guests/patch/README.md): its release tarball's configure, run as a cross-compile for the VM
 * with guests/patch/config.site's answers, then its make, with guests/patch/wasi-first.h before config.h and
 * agentos_posix.h in every file and guests/patch/wasi.c linked in.
 */
export const PATCH: CGuest = {
  kind: "c",
  file: "patch.wasm",
  tarballs: [
    {
      name: "patch",
      version: "2.7.6",
      // Debian's copy of GNU's patch-2.7.6.tar.xz (Debian 12's version).
      url: "http://deb.debian.org/debian/pool/main/p/patch/patch_2.7.6.orig.tar.xz",
      sha256: "ac610bda97abe0d9f6b7c963255a11dcb196c25e337c61f94e4778d632f1d8fd",
      dir: "patch-2.7.6",
      licence: "GPL-3.0-or-later",
      licenceFiles: ["COPYING"],
      upstream: "https://savannah.gnu.org/projects/patch/",
    },
  ],
  make(work, tc) {
    const src = join(work, "patch-2.7.6");
    const glue = join(work, "patch-wasi.o");
    execFileSync(tc.cc, [...tc.cflags, "-c", join(here, "patch/wasi.c"), "-o", glue], { stdio: "inherit" });
    const plain = configureCflags(tc);
    const env = { ...process.env, CONFIG_SITE: join(here, "patch/config.site") };
    execFileSync(
      join(src, "configure"),
      ["--host=i686-pc-linux-musl", "--build=x86_64-pc-linux-gnu", `CC=${tc.cc}`, `CFLAGS=${plain.join(" ")}`, `LDFLAGS=${tc.ldflags.join(" ")}`, `LIBS=${tc.libs.join(" ")}`, "--disable-xattr"],
      { cwd: src, env, stdio: "inherit" },
    );
    const cflags = [...plain, "-include", join(here, "patch/wasi-first.h"), "-include", join(src, "config.h"), "-include", "agentos_posix.h"];
    // wasi.c (and the fstatat it wraps) only at the link of patch itself: it sets patch's `unsafe`, which
    // configure's test programs lack.
    const ldflags = [...tc.ldflags, "-Wl,--wrap=fstatat"];
    execFileSync("make", [`-j${JOBS}`, `CFLAGS=${cflags.join(" ")}`, `LDFLAGS=${ldflags.join(" ")}`, `LIBS=${[glue, ...tc.libs].join(" ")}`], { cwd: src, env, stdio: "inherit" });
    return join(src, "src/patch");
  },
};

/** OpenSSL's sources, for the `openssl` command and every C guest that links libssl/libcrypto (opensslLibrary). */
export const OPENSSL: Tarball = {
  name: "openssl",
  version: "3.0.19",
  // Debian's copy of the upstream release tarball (openssl-3.0.19.tar.gz), the version of Debian 12's openssl.
  url: "http://deb.debian.org/debian/pool/main/o/openssl/openssl_3.0.19.orig.tar.gz",
  sha256: "fa5a4143b8aae18be53ef2f3caf29a2e0747430b8bc74d32d88335b94ab63072",
  dir: "openssl-3.0.19",
  licence: "Apache-2.0",
  licenceFiles: ["LICENSE.txt"],
  upstream: "https://www.openssl.org (https://github.com/openssl/openssl)",
};

export const CURL_TARBALL: Tarball = {
  name: "curl",
  version: "8.14.1",
  // Debian's copy of the upstream release tarball (curl-8.14.1.tar.gz).
  url: "http://deb.debian.org/debian/pool/main/c/curl/curl_8.14.1.orig.tar.gz",
  sha256: "6766ada7101d292b42b8b15681120acd68effa4a9660935853cf6d61f0d984d4",
  dir: "curl-8.14.1",
  licence: "curl",
  licenceFiles: ["COPYING"],
  upstream: "https://curl.se (https://github.com/curl/curl)",
};

/**
 * curl's configure options, the VM's build and the native one of test/curl.differential.test.ts alike: the
 * blocking resolver (no threads), zlib, TLS through OpenSSL, no optional libraries. No alarm(): the VM has no signal
 * that interrupts a blocking call, so a name lookup cannot time out there; the native build is told the same
 * (`curl_disallow_alarm`) so that both print the same. No Unix sockets (wasi-libc's sockaddr_un has no path).
 */
const CURL_CONFIGURE = [
  "--disable-shared",
  "--enable-static",
  // TLS: OpenSSL 3.0.19 (the VM's build links opensslLibrary's, the native one the host's libssl-dev, the same
  // release), trusting the bundle the VM has when it has a network (Node's root certificates).
  "--with-openssl",
  "--with-ca-bundle=/etc/ssl/certs/ca-certificates.crt",
  "--disable-threaded-resolver",
  "--enable-ipv6",
  "--disable-unix-sockets",
  "--disable-ldap",
  "--disable-ldaps",
  "--disable-manual",
  "--disable-docs",
  "--without-libpsl",
  "--without-brotli",
  "--without-zstd",
  "--without-nghttp2",
  "--without-libidn2",
  "--without-libssh2",
  "--without-librtmp",
  "--without-ca-path",
];
const CURL_CACHE = { curl_disallow_alarm: "yes", ac_cv_header_sys_un_h: "no" };

/** zlib's static library built in `work` for the environment's CC and CFLAGS; returns its directory. */
export function buildZlib(work: string, env: NodeJS.ProcessEnv): string {
  const zlib = join(work, ZLIB.dir);
  execFileSync("./configure", ["--static"], { cwd: zlib, env, stdio: "inherit" });
  execFileSync("make", [`-j${JOBS}`, "libz.a"], { cwd: zlib, env, stdio: "inherit" });
  return zlib;
}

/**
 * libcurl of curl 8.14.1 built for the VM in `work` (CURL_TARBALL, ZLIB and OPENSSL unpacked there, curl's own
 * patches applied), as the curl guest and git's HTTP transport link it: configure run as a cross-compile for
 * wasm32-wasi, libcurl with libposix's sockets and getaddrinfo, zlib and opensslLibrary's TLS.
 */
function curlLibrary(work: string, tc: Toolchain): { src: string; cflags: string; ldflags: string; libs: string; static: StaticLibrary } {
  const ssl = opensslLibrary(work, tc);
  const zlib = buildZlib(work, { ...process.env, CC: tc.cc, AR: tc.ar, CFLAGS: "--target=wasm32-wasi -O2 -nostdlibinc -isystem /usr/include/wasm32-wasi" });
  const src = join(work, CURL_TARBALL.dir);
  const plain = configureCflags(tc);
  const cwdObject = join(tc.libposix, "agentos_cwd.o");
  // agentos_cwd.o joins only a program's link (libtool will not put a plain object into libcurl).
  const ldflags = [...tc.ldflags.filter((f) => f !== cwdObject), `-L${zlib}`, `-L${ssl.lib}`].join(" ");
  const libs = ["-lssl", "-lcrypto", "-lz", ...tc.libs].join(" ");
  execFileSync(
    join(src, "configure"),
    ["--host=wasm32-unknown-wasi", "--build=x86_64-pc-linux-gnu", `CC=${tc.cc}`, `AR=${tc.ar}`, `CFLAGS=${plain.join(" ")}`, `CPPFLAGS=-I${zlib} ${ssl.cflags.join(" ")}`, `LDFLAGS=${ldflags}`, `LIBS=${libs}`, `--with-zlib=${zlib}`, ...CURL_CONFIGURE.map((o) => (o === "--with-openssl" ? `--with-openssl=${dirname(ssl.lib)}` : o))],
    { cwd: src, env: { ...process.env, ...CURL_CACHE }, stdio: "inherit" },
  );
  const cflags = `CFLAGS=${[...tc.cflags, "-Qunused-arguments", "-Werror-implicit-function-declaration"].join(" ")}`;
  execFileSync("make", [`-j${JOBS}`, "-C", "lib", cflags, `LDFLAGS=${ldflags}`, `LIBS=${libs}`, "libcurl.la"], { cwd: src, stdio: "inherit" });
  const include = join(src, "include");
  const lib = join(src, "lib/.libs");
  return { src, cflags, ldflags, libs, static: { include, lib, cflags: [`-I${include}`, `-I${zlib}`], libs: [`-L${lib}`, "-lcurl", ...ssl.libs, `-L${zlib}`, "-lz"] } };
}

/** curl 8.14.1 (guests/curl/README.md): the tool linked with curlLibrary's libcurl and agentos_cwd.o. */
export const CURL: CGuest = {
  kind: "c",
  file: "curl.wasm",
  tarballs: [CURL_TARBALL, ZLIB, OPENSSL],
  make(work, tc) {
    const curl = curlLibrary(work, tc);
    const cwdObject = join(tc.libposix, "agentos_cwd.o");
    execFileSync("make", [`-j${JOBS}`, "-C", "src", curl.cflags, `LDFLAGS=${curl.ldflags}`, `LIBS=${cwdObject} ${curl.libs}`, "curl"], { cwd: curl.src, stdio: "inherit" });
    return join(curl.src, "src/curl");
  },
};

/**
 * The make variables of git's build for WASI: no threads, no mmap, no NLS, the regex of git's compat/ (wasi-libc's
 * lacks REG_STARTEND). libcurl (curlLibrary) for the HTTP transport, whose TLS is its own business: git itself
 * uses no OpenSSL (its SHA-1 and SHA-256 are its own) and no expat (no `http-push`, WebDAV push).
 */
const GIT_KNOBS = [
  "NO_OPENSSL",
  "NO_EXPAT",
  "NO_PTHREADS",
  "NO_MMAP",
  "NO_ICONV",
  "NO_GETTEXT",
  "NO_PERL",
  "NO_PYTHON",
  "NO_TCLTK",
  "NO_UNIX_SOCKETS",
  "NO_IPV6",
  "NO_STRUCT_ITIMERVAL",
  "NO_SETITIMER",
  "NO_POSIX_GOODIES",
  "NO_SYMLINK_HEAD",
  "NO_INSTALL_HARDLINKS",
  "SKIP_DASHED_BUILT_INS",
  "HAVE_CLOCK_GETTIME",
  "HAVE_CLOCK_MONOTONIC",
  "HAVE_GETDELIM",
];

export const GIT: CGuest = {
  kind: "c",
  file: "git.wasm",
  tarballs: [
    {
      name: "git",
      version: "2.47.3",
      // Debian's copy of the upstream release tarball (git-2.47.3.tar.xz).
      url: "http://deb.debian.org/debian/pool/main/g/git/git_2.47.3.orig.tar.xz",
      sha256: "9c2eb1250781b3e5bfef098572d07fdf132d67e6c065e4307332ade9819a1501",
      dir: "git-2.47.3",
      licence: "GPL-2.0-only",
      licenceFiles: ["COPYING", "LGPL-2.1"],
      upstream: "https://git-scm.com (https://github.com/git/git)",
    },
    ZLIB,
    CURL_TARBALL,
    OPENSSL,
  ],
  make(work, tc) {
    // git-remote-http(s) is a builtin of the one binary (remote-curl.patch), linked with libcurl.
    applyPatches("curl", join(work, CURL_TARBALL.dir));
    const curl = curlLibrary(work, tc).static;
    const src = join(work, "git-2.47.3");
    const config = [
      `CC = ${tc.cc}`,
      `AR = ${tc.ar}`,
      // libcurl's and zlib's headers: git's Makefile sets CURL_CFLAGS itself (from CURLDIR or curl-config).
      `CFLAGS = ${[...tc.cflags, ...curl.cflags].join(" ")}`,
      `LDFLAGS = ${tc.ldflags.join(" ")}`,
      `EXTLIBS = ${tc.libs.join(" ")}`,
      `CURL_LDFLAGS = ${curl.libs.join(" ")}`,
      // Not the host's curl-config, which would tell of the host's libcurl.
      "CURL_CONFIG = false",
      "NO_REGEX = NeedsStartEnd",
      ...GIT_KNOBS.map((k) => `${k} = YesPlease`),
    ];
    writeFileSync(join(src, "config.mak"), `${config.join("\n")}\n`);
    // uname_* on the command line: config.mak is read after config.mak.uname, whose Linux settings
    // (sync_file_range, sysinfo, procinfo) would otherwise apply. prefix=/usr: the VM's git lives in /usr/bin,
    // reads /etc/gitconfig (the VM has none) and its templates from /usr/share/git-core/templates.
    const uname = ["uname_S=WASI", "uname_M=wasm32", "uname_O=WASI", "uname_R=1", "uname_P=wasm32", "uname_V=1"];
    execFileSync("make", [`-j${JOBS}`, ...uname, "prefix=/usr", "git"], { cwd: src, stdio: "inherit" });
    // git's templates (hook samples, info/exclude, description), which `git init` copies into a new
    // repository: the VM lays them out in /usr/share/git-core/templates (src/kernel/root-layout.ts).
    execFileSync("make", ["-C", "templates", "prefix=/usr"], { cwd: src, stdio: "inherit" });
    writeFileSync(join(here, "dist", "git-templates.json"), `${JSON.stringify(templateFiles(join(src, "templates/blt")), null, 1)}\n`);
    return join(src, "git");
  },
};

/**
 * A program built for this machine from a guest's source, for a differential test: kept in the system's
 * temporary directory (agentos-native/NAME-KEY/NAME) under a hash of all it is built from, so that every
 * checkout of this machine, CI's fresh clones too, builds it once. `build` works in a scratch directory and
 * returns the built file's path; the file is moved into place whole, so a reader never sees half of it.
 */
export async function nativeBuild(name: string, key: string, build: (scratch: string) => Promise<string>): Promise<string> {
  const bin = join(tmpdir(), "agentos-native", `${name}-${key}`, name);
  if (existsSync(bin)) return bin;
  const scratch = mkdtempSync(join(tmpdir(), `agentos-native-${name}-`));
  try {
    const built = await build(scratch);
    mkdirSync(dirname(bin), { recursive: true });
    const part = `${bin}.${process.pid}`;
    copyFileSync(built, part);
    renameSync(part, bin);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return bin;
}

/**
 * The same curl source built for this machine, with the same configure options and zlib release (and the host's
 * OpenSSL, libssl-dev 3.0.19 as the VM's), for test/curl.differential.test.ts (see nativeBuild; the tarballs are
 * downloaded and checked as for the VM's build). Returns its path.
 */
export function nativeCurl(): Promise<string> {
  const target = join(here, "curl", "target");
  // A change of CURL_CONFIGURE or of a release builds it again.
  const key = createHash("sha256").update(JSON.stringify([CURL_TARBALL.sha256, ZLIB.sha256, CURL_CONFIGURE, CURL_CACHE])).digest("hex").slice(0, 16);
  return nativeBuild("curl", key, async (build) => {
    for (const t of [CURL_TARBALL, ZLIB]) await unpack(target, build, t);
    const zlib = buildZlib(build, { ...process.env, CC: "cc", CFLAGS: "-O2" });
    const src = join(build, CURL_TARBALL.dir);
    execFileSync(join(src, "configure"), ["CC=cc", "CFLAGS=-O2", `CPPFLAGS=-I${zlib}`, `LDFLAGS=-L${zlib}`, `--with-zlib=${zlib}`, ...CURL_CONFIGURE], {
      cwd: src,
      env: { ...process.env, ...CURL_CACHE },
      stdio: "ignore",
    });
    execFileSync("make", [`-j${JOBS}`, "-C", "lib", "libcurl.la"], { cwd: src, stdio: "ignore" });
    execFileSync("make", [`-j${JOBS}`, "-C", "src", "curl"], { cwd: src, stdio: "ignore" });
    return join(src, "src/curl");
  });
}

/**
 * OpenSSL's Configure line for the VM (guests/openssl/README.md): the portable C code (no assembly), one thread,
 * static libraries only, nothing WASI cannot do (dlopen, engines, mlock'd secure heap, AF_ALG, kTLS,
 * asynchronous jobs, the terminal prompt). Sockets are guests/libposix's (CPython's _ssl needs the socket BIOs).
 * `linux-generic32`: an ILP32 Unix, as wasm32 is. The trust store is
 * Debian's layout (/usr/lib/ssl, whose certs/ and cert.pem lead to /etc/ssl).
 */
export const OPENSSL_CONFIGURE = [
  "linux-generic32",
  "--prefix=/usr",
  "--openssldir=/usr/lib/ssl",
  "no-shared",
  "no-asm",
  "no-threads",
  "no-dso",
  "no-engine",
  "no-module",
  "no-secure-memory",
  "no-afalgeng",
  "no-devcryptoeng",
  "no-ktls",
  "no-async",
  "no-egd",
  "no-ui-console",
  "no-tests",
];

/**
 * OpenSSL's own compiler flags beside the toolchain's. NO_SYSLOG: no BIO that writes to syslog (the VM has none;
 * libposix's syslog.h only drops messages). HAVE_FORK=0: no fork on WASI, so no forking OCSP responder
 * (apps/lib/http_server.c, which sockets bring in) and no `openssl speed -multi`.
 */
const OPENSSL_CFLAGS = ["-DNO_SYSLOG", "-DHAVE_FORK=0"];

/** A static library built for the VM's toolchain, for a C guest to compile and link against. */
export interface StaticLibrary {
  /** The directory of its headers (`-I`) and of its .a files (`-L`). */
  include: string;
  lib: string;
  /** What to add to the compiler's flags and to the link line, in this order. */
  cflags: string[];
  libs: string[];
}

/**
 * libssl.a and libcrypto.a of OPENSSL, built once per source, Configure line and toolchain into
 * guests/openssl/target/lib-<hash>/ (kept: a second build of any guest that links them reuses it), with the
 * patches of guests/openssl applied. `work` is the calling guest's work directory (buildC fetched its tarballs
 * beside it): list OPENSSL among them. Link with `...lib.libs` before `...tc.libs` (libcrypto uses libposix).
 */
export function opensslLibrary(work: string, tc: Toolchain): StaticLibrary & { tree: string } {
  const patches = readdirSync(join(here, "openssl")).filter((f) => f.endsWith(".patch")).sort();
  const headers = readdirSync(join(here, "libposix/include"), { recursive: true, encoding: "utf8" }).sort();
  const key = createHash("sha256")
    .update(JSON.stringify([OPENSSL.sha256, OPENSSL_CONFIGURE, OPENSSL_CFLAGS, tc.cflags, cToolchain()]))
    .update(patches.map((p) => readFileSync(join(here, "openssl", p), "utf8")).join("\0"))
    .update(headers.map((h) => (statSync(join(here, "libposix/include", h)).isFile() ? readFileSync(join(here, "libposix/include", h), "utf8") : h)).join("\0"))
    .digest("hex")
    .slice(0, 16);
  const cache = join(here, "openssl/target", `lib-${key}`);
  const tree = join(cache, OPENSSL.dir);
  const out = { include: join(cache, "include"), lib: join(cache, "lib"), tree };
  const lib = { ...out, cflags: [`-I${out.include}`], libs: [`-L${out.lib}`, "-lssl", "-lcrypto"] };
  if (existsSync(join(cache, "done"))) return lib;
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(cache, { recursive: true });
  // From the tarball buildC checked and unpacked beside `work` (its own copy there may carry the guest's patches).
  execFileSync("tar", ["xf", join(work, "..", OPENSSL.url.slice(OPENSSL.url.lastIndexOf("/") + 1)), "-C", cache]);
  for (const p of patches) execFileSync("patch", ["-p1", "-d", tree, "-i", join(here, "openssl", p)], { stdio: "inherit" });
  const env = { ...process.env, CC: tc.cc, AR: tc.ar, RANLIB: tc.ar.replace(/llvm-ar/, "llvm-ranlib"), CFLAGS: [...tc.cflags, ...OPENSSL_CFLAGS].join(" "), LDFLAGS: "--target=wasm32-wasi" };
  execFileSync("perl", ["./Configure", ...OPENSSL_CONFIGURE], { cwd: tree, env, stdio: "inherit" });
  // `openssl version -a` prints the build's date and compiler line (crypto/buildinf.h): the release's date
  // (SOURCE_DATE_EPOCH, which OpenSSL's mkbuildinf.pl reads: 2026-01-27) and the paths as -ffile-prefix-map
  // writes them, so the build is the same on every machine.
  const buildinf = [`LIB_CFLAGS=-fPIC ${env.CFLAGS.replaceAll(here, "/agentos/guests/")}`, "crypto/buildinf.h"];
  execFileSync("make", buildinf, { cwd: tree, env: { ...env, SOURCE_DATE_EPOCH: "1769472000" }, stdio: "inherit" });
  execFileSync("make", [`-j${JOBS}`, "build_libs"], { cwd: tree, env, stdio: "inherit" });
  mkdirSync(out.lib, { recursive: true });
  mkdirSync(out.include, { recursive: true });
  for (const a of ["libssl.a", "libcrypto.a"]) copyFileSync(join(tree, a), join(out.lib, a));
  execFileSync("cp", ["-r", join(tree, "include/openssl"), out.include]);
  writeFileSync(join(cache, "done"), `${key}\n`);
  return lib;
}

/**
 * The `openssl` command: OpenSSL's apps/openssl linked with libposix, in the tree opensslLibrary built (its
 * objects are reused; only the link is done again for each build).
 */
export const OPENSSL_APP: CGuest = {
  kind: "c",
  file: "openssl.wasm",
  tarballs: [OPENSSL],
  make(work, tc) {
    const lib = opensslLibrary(work, tc);
    rmSync(join(lib.tree, "apps/openssl"), { force: true });
    // CNF_EX_LIBS: Configure's linux-generic32 adds -ldl, which no-dso does not need.
    const link = [`LDFLAGS=${tc.ldflags.join(" ")}`, `EX_LIBS=${tc.libs.join(" ")}`, "CNF_EX_LIBS="];
    execFileSync("make", [`-j${JOBS}`, ...link, "apps/openssl"], { cwd: lib.tree, stdio: "inherit" });
    return join(lib.tree, "apps/openssl");
  },
};

/**
 * XZ Utils 5.4.1 (guests/xz/README.md): its release's configure, run as a cross-compile for `wasm32-wasi` (its
 * config.sub knows WASI), without threads, NLS or the scripts, then liblzma and the `xz` program. No
 * change to xz itself: its few missing pieces on WASI (signals from outside, ownership) it already treats as
 * optional. xz's copy of GNU getopt_long (lib/) replaces wasi-libc's (musl's), its messages worded as glibc's
 * (guests/xz/getopt-messages.patch), so that option errors read as on Linux.
 */
export const XZ: CGuest = {
  kind: "c",
  file: "xz.wasm",
  tarballs: [
    {
      name: "xz",
      version: "5.4.1",
      // Debian's copy of the upstream release tarball xz-5.4.1.tar.xz (Debian 12's version).
      url: "http://deb.debian.org/debian/pool/main/x/xz-utils/xz-utils_5.4.1.orig.tar.xz",
      sha256: "5d9827aa1875b21c288f78864bb26d2650b436ea8d2cad364e4921eb6266a5a5",
      dir: "xz-5.4.1",
      // liblzma and xz are in the public domain (COPYING); the GNU getopt_long of lib/ linked into xz is LGPL-2.1+.
      licence: "LicenseRef-Public-Domain AND LGPL-2.1-or-later",
      licenceFiles: ["COPYING", "COPYING.LGPLv2.1"],
      upstream: "https://tukaani.org/xz/",
    },
  ],
  make(work, tc) {
    const src = join(work, "xz-5.4.1");
    const plain = configureCflags(tc);
    // agentos_cwd.o only where the program is linked: libtool refuses an object in a library's link.
    const libLdflags = tc.ldflags.filter((f) => !f.endsWith("agentos_cwd.o"));
    execFileSync(
      join(src, "configure"),
      [
        "--host=wasm32-wasi",
        "--build=x86_64-pc-linux-gnu",
        `CC=${tc.cc}`,
        `CFLAGS=${plain.join(" ")}`,
        `LDFLAGS=${libLdflags.join(" ")}`,
        `LIBS=${tc.libs.join(" ")}`,
        "--disable-threads",
        "--disable-nls",
        "--disable-shared",
        "--disable-doc",
        "--disable-scripts",
        "--disable-lzmainfo",
        "--disable-lzmadec",
        "--disable-xzdec",
        "--disable-assembler",
        // lib/getopt.c instead of wasi-libc's getopt_long: "unrecognized option '--bogus'", as glibc words it.
        "ac_cv_func_getopt_long=no",
      ],
      { cwd: src, stdio: "inherit" },
    );
    const cflags = `CFLAGS=${tc.cflags.join(" ")}`;
    execFileSync("make", [`-j${JOBS}`, "-C", "lib", cflags], { cwd: src, stdio: "inherit" });
    execFileSync("make", [`-j${JOBS}`, "-C", "src/liblzma", cflags], { cwd: src, stdio: "inherit" });
    execFileSync("make", [`-j${JOBS}`, "-C", "src/xz", cflags, `LDFLAGS=${tc.ldflags.join(" ")}`], { cwd: src, stdio: "inherit" });
    return join(src, "src/xz/xz");
  },
};

/** The files of bzip2 1.0.8's `bzip2` program (its Makefile's OBJS and bzip2.c). */
const BZIP2_SOURCES = ["blocksort", "huffman", "crctable", "randtable", "compress", "decompress", "bzlib", "bzip2"];

/** bzip2 1.0.8 (guests/bzip2/README.md): its `bzip2` program compiled as its Makefile does, unchanged. */
export const BZIP2: CGuest = {
  kind: "c",
  file: "bzip2.wasm",
  tarballs: [
    {
      name: "bzip2",
      version: "1.0.8",
      // Debian's copy of the upstream release tarball bzip2-1.0.8.tar.gz.
      url: "http://deb.debian.org/debian/pool/main/b/bzip2/bzip2_1.0.8.orig.tar.gz",
      sha256: "ab5a03176ee106d3f0fa90e381da478ddae405918153cca248e682cd0c4a2269",
      dir: "bzip2-1.0.8",
      licence: "bzip2-1.0.6",
      licenceFiles: ["LICENSE"],
      upstream: "https://sourceware.org/bzip2/",
    },
  ],
  make(work, tc) {
    const src = join(work, "bzip2-1.0.8");
    const out = join(src, "bzip2.wasm");
    execFileSync(tc.cc, [...tc.cflags, "-D_FILE_OFFSET_BITS=64", ...tc.ldflags, ...BZIP2_SOURCES.map((f) => join(src, `${f}.c`)), ...tc.libs, "-o", out], { stdio: "inherit" });
    return out;
  },
};

/**
 * zstd 1.5.4's library directories compiled into the CLI (its programs/Makefile's ZSTDLIB_FULL_SRC, without
 * legacy/), and the CLI's own files without the benchmark's (as its `zstd-small` target).
 */
const ZSTD_SOURCES = [
  ...["lib/common", "lib/compress", "lib/decompress", "lib/dictBuilder"],
  ..."zstdcli util timefn fileio fileio_asyncio dibio zstdcli_trace".split(" ").map((f) => `programs/${f}.c`),
];

/**
 * The Zstandard 1.5.4 CLI (guests/zstd/README.md), compiled as programs/Makefile's `zstd` is, single-threaded
 * (no ZSTD_MULTITHREAD), without the benchmark (-b), tracing, the decoders of pre-1.0 formats, and the gzip,
 * xz and lz4 formats (zstd links zlib, liblzma and liblz4 for those). guests/zstd/row-match-finder.patch makes
 * its choice of match finder the one of x86-64 and ARM builds, so that it writes the same bytes.
 */
export const ZSTD: CGuest = {
  kind: "c",
  file: "zstd.wasm",
  tarballs: [
    {
      name: "zstd",
      version: "1.5.4",
      // Debian's repack of zstd-1.5.4.tar.gz (a few contrib/ and test files removed; lib/ and programs/ are upstream's).
      url: "http://deb.debian.org/debian/pool/main/libz/libzstd/libzstd_1.5.4+dfsg2.orig.tar.xz",
      sha256: "8cf4bbb65e77ec348d052c8d6230eba66d435bddf64c8b5be2fcb16880c19953",
      dir: "zstd-1.5.4",
      licence: "BSD-3-Clause OR GPL-2.0-only",
      licenceFiles: ["LICENSE", "COPYING"],
      upstream: "https://facebook.github.io/zstd/ (https://github.com/facebook/zstd)",
    },
  ],
  make(work, tc) {
    const src = join(work, "zstd-1.5.4");
    const flags = [
      ...tc.cflags,
      `-I${join(src, "lib")}`,
      `-I${join(src, "lib/common")}`,
      "-DZSTD_LEGACY_SUPPORT=0",
      "-DZSTD_NOBENCH",
      "-DZSTD_NOTRACE",
      "-DZSTD_DISABLE_ASM",
      "-DBACKTRACE_ENABLE=0",
      // programs/platform.h knows POSIX only by __unix__, which WASI lacks: without it zstd has no -r, no
      // isatty checks, and does not keep a file's mode and times.
      "-DPLATFORM_POSIX_VERSION=200809L",
    ];
    const files = ZSTD_SOURCES.flatMap((s) =>
      s.endsWith(".c")
        ? [s]
        : readdirSync(join(src, s))
            .filter((f) => f.endsWith(".c"))
            .sort()
            .map((f) => `${s}/${f}`),
    );
    const objects = files.map((f) => {
      const obj = join(work, `${f.replace(/\//g, "_").slice(0, -2)}.o`);
      execFileSync(tc.cc, [...flags, "-c", join(src, f), "-o", obj], { stdio: "inherit" });
      return obj;
    });
    const out = join(work, "zstd.wasm");
    execFileSync(tc.cc, [...tc.ldflags, ...objects, ...tc.libs, "-o", out], { stdio: "inherit" });
    return out;
  },
};

/** Compiles `files` (relative to `src`, or absolute) with `flags` and links them with the toolchain's libraries into `out`. */
function compileAndLink(tc: Toolchain, src: string, work: string, files: string[], flags: string[], out: string): string {
  const objects = files.map((f, i) => {
    const obj = join(work, `${i}-${f.slice(f.lastIndexOf("/") + 1, -2)}.o`);
    execFileSync(tc.cc, [...tc.cflags, ...flags, "-c", f.startsWith("/") ? f : join(src, f), "-o", obj], { stdio: "inherit" });
    return obj;
  });
  execFileSync(tc.cc, [...tc.ldflags, ...objects, ...tc.libs, "-o", out], { stdio: "inherit" });
  return out;
}

/** Info-ZIP zip 3.0's objects on Unix (unix/Makefile's OBJZ and OBJI, without the assembler). */
const ZIP_SOURCES = "zip zipfile zipup fileio util globals crypt ttyio unix/unix crc32 deflate trees".split(" ").map((f) => `${f}.c`);

/**
 * Info-ZIP zip 3.0 (guests/zip/README.md), compiled as unix/Makefile's `zips` with the options unix/configure
 * finds on Linux (Unicode, large files, Zip64), without bzip2 and the assembler; guests/zip/wasi.c gives the
 * tzset() wasi-libc lacks.
 */
export const ZIP: CGuest = {
  kind: "c",
  file: "zip.wasm",
  tarballs: [
    {
      name: "zip",
      version: "3.0",
      // Debian's copy of Info-ZIP's zip30.tar.gz.
      url: "http://deb.debian.org/debian/pool/main/z/zip/zip_3.0.orig.tar.gz",
      sha256: "f0e8bb1f9b7eb0b01285495a2699df3a4b766784c1765a8f1aeedf63c0806369",
      dir: "zip30",
      licence: "Info-ZIP",
      licenceFiles: ["LICENSE"],
      upstream: "https://infozip.sourceforge.net/Zip.html",
    },
  ],
  make(work, tc) {
    const src = join(work, "zip30");
    const flags = ["-include", join(here, "zip/wasi.h"), `-I${src}`, "-DUNIX", "-DNO_ASM", "-DHAVE_DIRENT_H", "-DHAVE_TERMIOS_H", "-DHAVE_UNISTD_H", "-DLARGE_FILE_SUPPORT", "-DZIP64_SUPPORT", "-DUNICODE_SUPPORT", "-DHAVE_WCHAR", "-DNO_BZIP2_SUPPORT"];
    return compileAndLink(tc, src, work, [...ZIP_SOURCES, join(here, "zip/wasi.c")], flags, join(work, "zip.wasm"));
  },
};

/** Info-ZIP unzip 6.0's objects on Unix (unix/Makefile's OBJS, unzip and zipinfo in one program). */
const UNZIP_SOURCES = "unzip crc32 crypt envargs explode extract fileio globals inflate list match process ttyio ubz2err unreduce unshrink zipinfo unix/unix"
  .split(" ")
  .map((f) => `${f}.c`);

/**
 * Info-ZIP unzip 6.0 with Debian's 28 patches (guests/unzip/README.md), compiled as unix/Makefile's `unzips`
 * with Debian's DEFINES (debian/rules) less bzip2; guests/unzip/wasi.c gives the System V time-zone interface
 * wasi-libc lacks.
 */
export const UNZIP: CGuest = {
  kind: "c",
  file: "unzip.wasm",
  tarballs: [
    {
      name: "unzip",
      version: "6.0",
      // Debian's copy of Info-ZIP's unzip60.tar.gz.
      url: "http://deb.debian.org/debian/pool/main/u/unzip/unzip_6.0.orig.tar.gz",
      sha256: "036d96991646d0449ed0aa952e4fbe21b476ce994abc276e49d30e686708bd37",
      dir: "unzip60",
      licence: "Info-ZIP",
      licenceFiles: ["LICENSE"],
      upstream: "https://infozip.sourceforge.net/UnZip.html",
    },
  ],
  make(work, tc) {
    const src = join(work, "unzip60");
    const debian = ["-DACORN_FTYPE_NFS", "-DWILD_STOP_AT_DIR", "-DLARGE_FILE_SUPPORT", "-DUNICODE_SUPPORT", "-DUNICODE_WCHAR", "-DUTF8_MAYBE_NATIVE", "-DNO_LCHMOD", "-DDATE_FORMAT=DF_YMD", "-DIZ_HAVE_UXUIDGID", "-DNOMEMCPY", "-DNO_WORKING_ISPRINT"];
    const flags = ["-include", join(here, "unzip/wasi.h"), `-I${src}`, "-DUNIX", ...debian];
    return compileAndLink(tc, src, work, [...UNZIP_SOURCES, join(here, "unzip/wasi.c")], flags, join(work, "unzip.wasm"));
  },
};

/**
 * diff3 of GNU diffutils 3.8 (guests/diff3/README.md): the release's configure as a cross-compile, as GNU patch's
 * (guests/patch/config.site's answers, then guests/diff3/config.site's: no fork, so diff3 runs `diff` through
 * popen(), i.e. the VM's `sh` and `diff`), then gnulib's lib/ and src/diff3 only; guests/diff3/wasi.c gives what
 * gnulib expects of the C library and wasi-libc lacks.
 */
export const DIFF3: CGuest = {
  kind: "c",
  file: "diff3.wasm",
  tarballs: [
    {
      name: "diffutils",
      version: "3.8",
      // Debian's copy of GNU's diffutils-3.8.tar.xz (Debian 12's version).
      url: "http://deb.debian.org/debian/pool/main/d/diffutils/diffutils_3.8.orig.tar.xz",
      sha256: "a6bdd7d1b31266d11c4f4de6c1b748d4607ab0231af5188fc2533d0ae2438fec",
      dir: "diffutils-3.8",
      licence: "GPL-3.0-or-later",
      licenceFiles: ["COPYING"],
      upstream: "https://www.gnu.org/software/diffutils/",
    },
  ],
  make(work, tc) {
    const src = join(work, "diffutils-3.8");
    const glue = join(work, "diff3-wasi.o");
    execFileSync(tc.cc, [...tc.cflags, "-c", join(here, "diff3/wasi.c"), "-o", glue], { stdio: "inherit" });
    const plain = configureCflags(tc);
    const env = { ...process.env, CONFIG_SITE: `${join(here, "patch/config.site")} ${join(here, "diff3/config.site")}` };
    execFileSync(
      join(src, "configure"),
      ["--host=i686-pc-linux-musl", "--build=x86_64-pc-linux-gnu", `CC=${tc.cc}`, `CFLAGS=${plain.join(" ")}`, `LDFLAGS=${tc.ldflags.join(" ")}`, `LIBS=${tc.libs.join(" ")}`, "--disable-nls", "--disable-threads", "--without-libsigsegv"],
      { cwd: src, env, stdio: "inherit" },
    );
    const cflags = `CFLAGS=${[...plain, "-include", join(here, "patch/wasi-first.h"), "-include", join(here, "diff3/wasi.h"), "-include", join(src, "lib/config.h"), "-include", "agentos_posix.h"].join(" ")}`;
    // HAVE_GETPAGESIZE=1: libposix has getpagesize(); gnulib's unistd.h would otherwise define it as a macro,
    // which agentos_posix.h's declaration cannot follow.
    execFileSync("make", [`-j${JOBS}`, "-C", "lib", cflags, "HAVE_GETPAGESIZE=1"], { cwd: src, env, stdio: "inherit" });
    execFileSync("make", ["-C", "src", "version.h", "paths.h"], { cwd: src, env, stdio: "inherit" });
    const ldflags = `LDFLAGS=${[...tc.ldflags, "-Wl,--wrap=set_program_name"].join(" ")}`;
    execFileSync("make", ["-C", "src", "diff3", cflags, ldflags, `LIBS=${[glue, ...tc.libs].join(" ")}`], { cwd: src, env, stdio: "inherit" });
    return join(src, "src/diff3");
  },
};
