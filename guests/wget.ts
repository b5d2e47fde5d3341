/**
 * GNU wget (guests/wget/README.md): its release tarball's configure, run as a cross-compile for the VM with
 * guests/wget/config.site's answers, linked with zlib, OpenSSL (opensslLibrary) and guests/libposix's sockets;
 * and the same source built for this machine with the same options, for test/wget.differential.test.ts.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { buildZlib, type CGuest, configureCflags, nativeBuild, OPENSSL, opensslLibrary, type Tarball, unpack, ZLIB } from "./c.js";

const here = new URL(".", import.meta.url).pathname;
const JOBS = process.env.JOBS ?? "2";

export const WGET_TARBALL: Tarball = {
  name: "wget",
  version: "1.21.3",
  // Debian's copy of GNU's wget-1.21.3.tar.gz (Debian 12's version).
  url: "http://deb.debian.org/debian/pool/main/w/wget/wget_1.21.3.orig.tar.gz",
  sha256: "5726bb8bc5ca0f6dc7110f6416e4bb7019e2d2ff5bf93d1ca2ffcc6656f220e5",
  dir: "wget-1.21.3",
  licence: "GPL-3.0-or-later",
  licenceFiles: ["COPYING"],
  upstream: "https://www.gnu.org/software/wget/",
};

/**
 * wget's configure options, the VM's build and the native one alike: TLS through OpenSSL, zlib, Debian's
 * paths (/etc/wgetrc), none of the optional libraries (IDN, PSL, PCRE, c-ares, metalink, libuuid, NLS).
 */
const WGET_CONFIGURE = [
  "--prefix=/usr",
  "--sysconfdir=/etc",
  "--with-ssl=openssl",
  "--with-zlib",
  "--without-libpsl",
  "--disable-iri",
  "--disable-pcre",
  "--disable-pcre2",
  "--disable-nls",
  "--without-metalink",
  "--without-cares",
  "--without-libuuid",
  "--disable-xattr",
  "--disable-threads",
  "--disable-rpath",
];
/**
 * No sigsetjmp or sigblock on either side: the VM delivers no signal that interrupts a blocking call, so
 * wget's run_with_timeout (alarm + siglongjmp) is off, as it is when a system lacks them.
 */
const WGET_CACHE = { ac_cv_func_sigsetjmp: "no", ac_cv_func_sigblock: "no" };

export const WGET: CGuest = {
  kind: "c",
  file: "wget.wasm",
  tarballs: [WGET_TARBALL, ZLIB, OPENSSL],
  make(work, tc) {
    const ssl = opensslLibrary(work, tc);
    const zlib = buildZlib(work, { ...process.env, CC: tc.cc, AR: tc.ar, CFLAGS: "--target=wasm32-wasi -O2 -nostdlibinc -isystem /usr/include/wasm32-wasi" });
    const src = join(work, WGET_TARBALL.dir);
    const glue = join(work, "wget-wasi.o");
    execFileSync(tc.cc, [...tc.cflags, "-c", join(here, "wget/wasi.c"), "-o", glue], { stdio: "inherit" });
    const plain = configureCflags(tc);
    // PKG_CONFIG=false: nothing of the host's; OpenSSL and zlib are named by their *_CFLAGS/*_LIBS.
    const env = {
      ...process.env,
      ...WGET_CACHE,
      CONFIG_SITE: join(here, "wget/config.site"),
      PKG_CONFIG: "false",
      OPENSSL_CFLAGS: ssl.cflags.join(" "),
      OPENSSL_LIBS: [...ssl.libs].join(" "),
      ZLIB_CFLAGS: `-I${zlib}`,
      ZLIB_LIBS: `-L${zlib} -lz`,
    };
    execFileSync(
      join(src, "configure"),
      ["--host=wasm32-unknown-wasi", "--build=x86_64-pc-linux-gnu", `CC=${tc.cc}`, `CFLAGS=${plain.join(" ")}`, `LDFLAGS=${tc.ldflags.join(" ")}`, `LIBS=${tc.libs.join(" ")}`, ...WGET_CONFIGURE],
      { cwd: src, env, stdio: "inherit" },
    );
    // The force-included headers as CPPFLAGS and the glue as LDFLAGS: configure's CFLAGS and LIBS carry OpenSSL's and zlib's.
    const cppflags = ["-include", join(here, "wget/wasi-first.h"), "-include", join(src, "src/config.h"), "-include", "agentos_posix.h"];
    execFileSync("make", [`-j${JOBS}`, `CPPFLAGS=${cppflags.join(" ")}`, `LDFLAGS=${[...tc.ldflags, glue].join(" ")}`], { cwd: src, env, stdio: "inherit" });
    return join(src, "src/wget");
  },
};

/**
 * The same wget source built for this machine with the same options, zlib release and OpenSSL release (the
 * host's libssl-dev 3.0.19), for test/wget.differential.test.ts (see nativeBuild). Returns its path.
 */
export function nativeWget(): Promise<string> {
  const target = join(here, "wget", "target");
  const key = createHash("sha256").update(JSON.stringify([WGET_TARBALL.sha256, ZLIB.sha256, WGET_CONFIGURE, WGET_CACHE])).digest("hex").slice(0, 16);
  return nativeBuild("wget", key, async (build) => {
    for (const t of [WGET_TARBALL, ZLIB]) await unpack(target, build, t);
    const zlib = buildZlib(build, { ...process.env, CC: "cc", CFLAGS: "-O2" });
    const src = join(build, WGET_TARBALL.dir);
    const env = { ...process.env, ...WGET_CACHE, ZLIB_CFLAGS: `-I${zlib}`, ZLIB_LIBS: `-L${zlib} -lz` };
    execFileSync(join(src, "configure"), ["CC=cc", "CFLAGS=-O2", ...WGET_CONFIGURE], { cwd: src, env, stdio: "ignore" });
    execFileSync("make", [`-j${JOBS}`], { cwd: src, env, stdio: "ignore" });
    return join(src, "src/wget");
  });
}
