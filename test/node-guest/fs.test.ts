// The guest `fs` (workers/node-guest/builtins/fs.js, fs-promises.js), evaluated as the runtime does: in a
// DONT_CONTEXTIFY vm context, over an `internal.sys` that this test implements on the host's node:fs (errors made
// with the context's Error, shaped as the README says). Most cases are differential: the same sequence runs
// against the guest fs in one temp dir and against the host's node:fs in another, and the results are compared
// with the temp dir prefixes normalised.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as hostFs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vm from "node:vm";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const builtinsDir = path.join(repoRoot, "workers/node-guest/builtins");
const nodeModules = path.join(repoRoot, "node_modules");

interface Guest {
  fs: Any;
  fsp: Any;
  require: (name: string) => Any;
  Buffer: Any;
  Uint8Array: Uint8ArrayConstructor;
  ctx: vm.Context;
}

const direntTypeNames = (d: hostFs.Dirent): string =>
  d.isFile() ? "file" : d.isDirectory() ? "dir" : d.isSymbolicLink() ? "symlink" : d.isCharacterDevice() ? "char"
    : d.isBlockDevice() ? "block" : d.isFIFO() ? "fifo" : d.isSocket() ? "socket" : "unknown";

// internal.sys over the host's node:fs. Relative paths are taken against the guest's cwd; errors name the
// paths as the guest gave them.
function makeSys(cwd: string, CtxError: ErrorConstructor) {
  const abs = (p: string): string => path.resolve(cwd, p);
  const call = <T>(paths: string[], f: () => T): T => {
    try {
      return f();
    } catch (e) {
      const h = e as NodeJS.ErrnoException & { dest?: string };
      let message = h.message;
      for (const p of paths) message = message.split(`'${abs(p)}'`).join(`'${p}'`);
      const err = new CtxError(message) as Any;
      err.errno = h.errno;
      err.code = h.code;
      err.syscall = h.syscall;
      if (h.path !== undefined) err.path = paths[0];
      if (h.dest !== undefined) err.dest = paths[1];
      throw err;
    }
  };
  const pos = (p: number): number | null => (p === -1 ? null : p);
  const statArray = (s: hostFs.Stats): number[] => [s.dev, s.mode, s.nlink, s.uid, s.gid, s.rdev, s.blksize, s.ino,
    s.size, s.blocks, s.atimeMs, s.mtimeMs, s.ctimeMs, s.birthtimeMs];
  return {
    open: (p: string, flags: number, mode: number) => call([p], () => hostFs.openSync(abs(p), flags, mode)),
    close: (fd: number) => call([], () => hostFs.closeSync(fd)),
    read: (fd: number, t: Uint8Array, off: number, len: number, p: number) => call([], () => hostFs.readSync(fd, t, off, len, pos(p))),
    write: (fd: number, s: Uint8Array, off: number, len: number, p: number) => call([], () => hostFs.writeSync(fd, s, off, len, pos(p))),
    stat: (p: string, follow: boolean) => call([p], () => statArray(follow ? hostFs.statSync(abs(p)) : hostFs.lstatSync(abs(p)))),
    fstat: (fd: number) => call([], () => statArray(hostFs.fstatSync(fd))),
    readdir: (p: string) => call([p], () => hostFs.readdirSync(abs(p), { withFileTypes: true }).map((d) => [d.name, direntTypeNames(d)])),
    mkdir: (p: string, mode: number) => call([p], () => { hostFs.mkdirSync(abs(p), mode); }),
    rmdir: (p: string) => call([p], () => hostFs.rmdirSync(abs(p))),
    unlink: (p: string) => call([p], () => hostFs.unlinkSync(abs(p))),
    rename: (a: string, b: string) => call([a, b], () => hostFs.renameSync(abs(a), abs(b))),
    symlink: (target: string, p: string) => call([target, p], () => hostFs.symlinkSync(target, abs(p))),
    link: (a: string, b: string) => call([a, b], () => hostFs.linkSync(abs(a), abs(b))),
    chmod: (p: string, mode: number) => call([p], () => hostFs.chmodSync(abs(p), mode)),
    ftruncate: (fd: number, len: number) => call([], () => hostFs.ftruncateSync(fd, len)),
    utimes: (p: string, a: number, m: number, follow: boolean) =>
      call([p], () => (follow ? hostFs.utimesSync : hostFs.lutimesSync)(abs(p), a / 1000, m / 1000)),
    futimes: (fd: number, a: number, m: number) => call([], () => hostFs.futimesSync(fd, a / 1000, m / 1000)),
    fsync: (fd: number) => call([], () => hostFs.fsyncSync(fd)),
    access: (p: string, mode: number) => call([p], () => hostFs.accessSync(abs(p), mode)),
    readlink: (p: string) => call([p], () => hostFs.readlinkSync(abs(p))),
    realpath: (p: string) => call([p], () => hostFs.realpathSync.native(abs(p))),
    cwd: () => cwd,
  };
}

// A guest: the context, a require for the builtins under test and the npm ports the runtime provides.
function makeGuest(cwd: string): Guest {
  const ctx = vm.createContext(vm.constants.DONT_CONTEXTIFY);
  const CtxError = vm.runInContext("Error", ctx) as ErrorConstructor;
  const internal = { sys: makeSys(cwd, CtxError), nextTick: (fn: (...a: unknown[]) => void, ...args: unknown[]) => process.nextTick(fn, ...args) };
  const cache = new Map<string, { exports: Any }>();
  // The guest's process reports the host's Node version (internal/main.js sets process.versions at start).
  const processStub = {
    nextTick: (fn: (...a: unknown[]) => void, ...args: unknown[]) => process.nextTick(fn, ...args),
    env: {},
    versions: { node: process.versions.node },
  };
  const builtins: Record<string, string> = {
    fs: path.join(builtinsDir, "fs.js"),
    "fs/promises": path.join(builtinsDir, "fs-promises.js"),
    "internal/primordials": path.join(builtinsDir, "../internal/primordials.js"),
    "internal/buffer-primordials": path.join(builtinsDir, "../internal/buffer-primordials.js"),
  };
  const npm: Record<string, string> = { buffer: "buffer/", events: "events/", string_decoder: "string_decoder/", "string_decoder/": "string_decoder/" };
  const resolve = (from: string, name: string): string | null | { stub: unknown } => {
    const inNodeModules = from.includes(`${path.sep}node_modules${path.sep}`);
    if (name === "process/" || name === "process") return { stub: processStub };
    if (name === "stream") return inNodeModules ? null : path.join(nodeModules, "readable-stream/lib/ours/index.js");
    if (!inNodeModules && builtins[name]) return builtins[name];
    const spec = npm[name] ?? name;
    return createRequire(inNodeModules ? from : path.join(repoRoot, "package.json")).resolve(spec);
  };
  const load = (file: string): Any => {
    const cached = cache.get(file);
    if (cached) return cached.exports;
    const module = { exports: {} as Any };
    cache.set(file, module);
    const fn = vm.compileFunction(hostFs.readFileSync(file, "utf8"), ["exports", "require", "module", "internal"], {
      parsingContext: ctx,
      filename: file,
    });
    fn(module.exports, (name: string) => requireFrom(file, name), module, file.startsWith(builtinsDir) ? internal : undefined);
    return module.exports;
  };
  const requireFrom = (from: string, name: string): Any => {
    const r = resolve(from, name);
    if (r === null) return null;
    if (typeof r === "object") return r.stub;
    return load(r);
  };
  const req = (name: string) => requireFrom(path.join(repoRoot, "guest.js"), name);
  return {
    fs: req("fs"),
    fsp: req("fs/promises"),
    require: req,
    Buffer: req("buffer").Buffer,
    Uint8Array: vm.runInContext("Uint8Array", ctx) as Uint8ArrayConstructor,
    ctx,
  };
}

interface Env {
  fs: Any;
  fsp: Any;
  root: string;
  Buffer: Any;
  U8: Uint8ArrayConstructor;
}
type Scenario = (env: Env) => unknown;

let guestRoot = "";
let hostRoot = "";
let guest: Guest;
let seq = 0;

beforeAll(() => {
  guestRoot = hostFs.realpathSync(hostFs.mkdtempSync(path.join(os.tmpdir(), "guest-fs-")));
  hostRoot = hostFs.realpathSync(hostFs.mkdtempSync(path.join(os.tmpdir(), "host-fs-")));
  guest = makeGuest(guestRoot);
});
afterAll(() => {
  hostFs.rmSync(guestRoot, { recursive: true, force: true });
  hostFs.rmSync(hostRoot, { recursive: true, force: true });
});

const isBytes = (v: unknown): v is Uint8Array => ArrayBuffer.isView(v) && Object.prototype.toString.call(v) === "[object Uint8Array]";

// A realm-free, comparable image of a result: bytes as hex, errors by their Node properties, Stats by their
// deterministic fields, Dirents by name/parentPath/type, temp dir prefixes replaced.
function norm(v: unknown, roots: string[]): unknown {
  const str = (s: string) => roots.reduce((acc, r) => acc.split(r).join("<tmp>"), s);
  if (typeof v === "string") return str(v);
  if (v === null || typeof v !== "object") return v;
  if (isBytes(v)) return { bytes: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex") };
  const o = v as Any;
  if (typeof o.message === "string" && typeof o.stack === "string") {
    const e: Record<string, unknown> = { name: o.name, message: str(o.message), code: o.code };
    for (const k of ["errno", "syscall", "path", "dest"]) if (o[k] !== undefined) e[k] = norm(o[k], roots);
    return { error: e };
  }
  if (typeof o.isFile === "function" && typeof o.mode === "number") {
    return {
      stats: {
        mode: o.mode, size: o.size, nlink: o.nlink, uid: o.uid, gid: o.gid, rdev: o.rdev, blksize: o.blksize,
        hasDates: [o.atime, o.mtime, o.ctime, o.birthtime].every((d: Any) => typeof d.getTime() === "number"),
        isFile: o.isFile(), isDirectory: o.isDirectory(), isSymbolicLink: o.isSymbolicLink(), isFIFO: o.isFIFO(),
        isSocket: o.isSocket(), isCharacterDevice: o.isCharacterDevice(), isBlockDevice: o.isBlockDevice(),
      },
    };
  }
  if (typeof o.isFile === "function" && typeof o.name !== "undefined") {
    return { dirent: { name: norm(o.name, roots), parentPath: norm(o.parentPath, roots), file: o.isFile(), dir: o.isDirectory(), link: o.isSymbolicLink() } };
  }
  if (Array.isArray(o)) return o.map((x) => norm(x, roots));
  if (typeof o.getTime === "function") return { date: o.getTime() };
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) out[k] = norm(o[k], roots);
  return out;
}

async function runOn(env: Env, scenario: Scenario): Promise<unknown> {
  try {
    return norm(await scenario(env), [guestRoot, hostRoot]);
  } catch (e) {
    return { thrown: norm(e, [guestRoot, hostRoot]) };
  }
}

// Runs a scenario on both sides, in a fresh subdirectory of each root, and returns the two normalised results.
async function both(scenario: Scenario): Promise<{ g: unknown; h: unknown }> {
  const name = `case${++seq}`;
  const gdir = path.join(guestRoot, name);
  const hdir = path.join(hostRoot, name);
  hostFs.mkdirSync(gdir);
  hostFs.mkdirSync(hdir);
  const g = await runOn({ fs: guest.fs, fsp: guest.fsp, root: gdir, Buffer: guest.Buffer, U8: guest.Uint8Array }, scenario);
  const h = await runOn({ fs: hostFs, fsp: hostFs.promises, root: hdir, Buffer, U8: Uint8Array }, scenario);
  return { g, h };
}

function diff(name: string, scenario: Scenario): void {
  it(name, async () => {
    const { g, h } = await both(scenario);
    expect(g).toEqual(h);
  });
}

// Error code (and class) only: for operations whose messages differ between Node versions.
const codeOf = (f: () => unknown): unknown => {
  try {
    f();
    return "no error";
  } catch (e) {
    return { code: (e as Any).code, name: (e as Any).name };
  }
};
const rejection = async (p: Promise<unknown>): Promise<unknown> => {
  try {
    await p;
    return "resolved";
  } catch (e) {
    return { code: (e as Any).code, message: (e as Any).message };
  }
};
// A node-style callback call as a promise of its arguments.
const cbArgs = (f: (cb: (...a: unknown[]) => void) => void): Promise<unknown[]> =>
  new Promise((resolve) => f((...a: unknown[]) => resolve(a)));

function collect(stream: Any, events: string[]): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: unknown[] = [];
    for (const ev of ["open", "ready", "end", "finish", "close"]) stream.on(ev, () => events.push(ev));
    stream.on("data", (c: unknown) => chunks.push(c));
    stream.on("error", (e: unknown) => { events.push("error"); resolve({ error: e, chunks }); });
    stream.on("close", () => resolve({ chunks, events }));
  });
}

describe("guest fs: sync API, differential against node:fs", () => {
  diff("writeFileSync + readFileSync utf8", ({ fs, root }) => {
    fs.writeFileSync(`${root}/a.txt`, "héllo");
    return [fs.readFileSync(`${root}/a.txt`, "utf8"), fs.readFileSync(`${root}/a.txt`, { encoding: "utf8" })];
  });
  diff("readFileSync without encoding gives bytes", ({ fs, root, Buffer }) => {
    fs.writeFileSync(`${root}/b.bin`, Buffer.from([0, 1, 2, 255]));
    return fs.readFileSync(`${root}/b.bin`);
  });
  diff("readFileSync encodings", ({ fs, root }) => {
    fs.writeFileSync(`${root}/e.txt`, "abc\u00e9");
    return ["hex", "base64", "latin1", "ascii", "utf16le", "base64url"].map((e) => fs.readFileSync(`${root}/e.txt`, e));
  });
  diff("writeFileSync with Uint8Array, DataView and encoding", ({ fs, root, U8 }) => {
    fs.writeFileSync(`${root}/u`, new U8([65, 66, 67]));
    const a = fs.readFileSync(`${root}/u`, "utf8");
    fs.writeFileSync(`${root}/d`, new DataView(new U8([68, 69]).buffer));
    const b = fs.readFileSync(`${root}/d`, "utf8");
    fs.writeFileSync(`${root}/h`, "414243", "hex");
    fs.writeFileSync(`${root}/h2`, "4142", { encoding: "hex" });
    return [a, b, fs.readFileSync(`${root}/h`, "utf8"), fs.readFileSync(`${root}/h2`, "utf8")];
  });
  diff("writeFileSync flag a, appendFileSync", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "1");
    fs.writeFileSync(`${root}/f`, "2", { flag: "a" });
    fs.appendFileSync(`${root}/f`, "3");
    fs.appendFileSync(`${root}/new`, "x");
    return [fs.readFileSync(`${root}/f`, "utf8"), fs.readFileSync(`${root}/new`, "utf8")];
  });
  diff("writeFileSync flag wx on an existing file: EEXIST", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "1");
    fs.writeFileSync(`${root}/f`, "2", { flag: "wx" });
  });
  diff("writeFileSync mode", ({ fs, root }) => {
    fs.writeFileSync(`${root}/m`, "x", { mode: 0o600 });
    return fs.statSync(`${root}/m`).mode & 0o777;
  });
  diff("readFileSync of a missing file: ENOENT", ({ fs, root }) => fs.readFileSync(`${root}/nope`));
  diff("readFileSync of a directory: EISDIR", ({ fs, root }) => fs.readFileSync(root));
  diff("readFileSync with an invalid flag", ({ fs, root }) => fs.readFileSync(`${root}/x`, { flag: "zz" }));
  diff("readFileSync of an fd reads from its position", ({ fs, root, Buffer }) => {
    fs.writeFileSync(`${root}/f`, "abcdef");
    const fd = fs.openSync(`${root}/f`, "r");
    const b = Buffer.alloc(2);
    fs.readSync(fd, b, 0, 2, null);
    const rest = fs.readFileSync(fd, "utf8");
    fs.closeSync(fd);
    return [b, rest];
  });
  diff("writeFileSync invalid data type", ({ fs, root }) => fs.writeFileSync(`${root}/f`, 42));
  diff("open/write/read/close, buffer forms", ({ fs, root, Buffer }) => {
    const fd = fs.openSync(`${root}/f`, "w+");
    const w1 = fs.writeSync(fd, Buffer.from("0123456789"));
    const w2 = fs.writeSync(fd, Buffer.from("XYZ"), 1, 2, 3);
    const w3 = fs.writeSync(fd, Buffer.from("Q"), { position: 0 });
    const b = Buffer.alloc(12);
    const r1 = fs.readSync(fd, b, 1, 10, 0);
    const r2 = fs.readSync(fd, b, { offset: 0, length: 3, position: 8 });
    const r3 = fs.readSync(fd, Buffer.alloc(4), 0, 4, 100);
    fs.closeSync(fd);
    return [w1, w2, w3, r1, r2, r3, b, fs.readFileSync(`${root}/f`, "latin1")];
  });
  diff("writeSync string form with position and encoding", ({ fs, root }) => {
    const fd = fs.openSync(`${root}/f`, "w");
    const a = fs.writeSync(fd, "hello");
    const b = fs.writeSync(fd, "4142", 1, "hex");
    const c = fs.writeSync(fd, "é");
    fs.closeSync(fd);
    return [a, b, c, fs.readFileSync(`${root}/f`)];
  });
  diff("readSync sequential reads advance the position", ({ fs, root, Buffer }) => {
    fs.writeFileSync(`${root}/f`, "abcdefgh");
    const fd = fs.openSync(`${root}/f`);
    const out = [];
    for (let i = 0; i < 4; i++) {
      const b = Buffer.alloc(3);
      out.push([fs.readSync(fd, b, 0, 3, null), b.toString()]);
    }
    fs.closeSync(fd);
    return out;
  });
  diff("openSync errors: ENOENT, EEXIST with wx", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "");
    return [codeOf(() => fs.openSync(`${root}/nope`)), (() => { try { fs.openSync(`${root}/f`, "wx"); } catch (e) { return e; } })()];
  });
  diff("closeSync argument errors", ({ fs }) => [
    (() => { try { fs.closeSync(-1); } catch (e) { return e; } })(),
    (() => { try { fs.closeSync("3"); } catch (e) { return e; } })(),
    (() => { try { fs.closeSync(1.5); } catch (e) { return e; } })(),
  ]);
  diff("fstatSync", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "12345");
    const fd = fs.openSync(`${root}/f`);
    const s = fs.fstatSync(fd);
    fs.closeSync(fd);
    return s;
  });
  diff("statSync of a file and a directory", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "abc");
    fs.mkdirSync(`${root}/d`);
    fs.utimesSync(`${root}/f`, 1000, 2000);
    return [fs.statSync(`${root}/f`), fs.statSync(`${root}/d`).isDirectory(), fs.statSync(`${root}/f`) instanceof fs.Stats];
  });
  diff("lstatSync of a symlink, statSync follows it", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "abc");
    fs.symlinkSync("f", `${root}/l`);
    const l = fs.lstatSync(`${root}/l`);
    return [l.isSymbolicLink(), l.isFile(), fs.statSync(`${root}/l`).isFile(), fs.statSync(`${root}/l`).size];
  });
  diff("statSync throwIfNoEntry and ENOENT", ({ fs, root }) => [
    fs.statSync(`${root}/nope`, { throwIfNoEntry: false }),
    fs.lstatSync(`${root}/nope`, { throwIfNoEntry: false }),
    (() => { try { fs.statSync(`${root}/nope`); } catch (e) { return e; } })(),
    (() => { try { fs.lstatSync(`${root}/nope`); } catch (e) { return e; } })(),
  ]);
  diff("statSync ENOTDIR below a file", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "");
    return [fs.statSync(`${root}/f/x`, { throwIfNoEntry: false }), codeOf(() => fs.statSync(`${root}/f/x`))];
  });
  diff("existsSync", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "");
    return [fs.existsSync(`${root}/f`), fs.existsSync(`${root}/nope`), fs.existsSync(undefined), fs.existsSync(42), fs.existsSync(`${root}/f\0`)];
  });
  diff("accessSync", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "");
    return [fs.accessSync(`${root}/f`), fs.accessSync(`${root}/f`, fs.constants.R_OK | fs.constants.W_OK),
      (() => { try { fs.accessSync(`${root}/nope`); } catch (e) { return e; } })()];
  });
  diff("readdirSync", ({ fs, root }) => {
    for (const n of ["b", "a", "c"]) fs.writeFileSync(`${root}/${n}`, "");
    fs.mkdirSync(`${root}/sub`);
    return fs.readdirSync(root).sort();
  });
  diff("readdirSync withFileTypes", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "");
    fs.mkdirSync(`${root}/d`);
    fs.symlinkSync("f", `${root}/l`);
    const ents = fs.readdirSync(root, { withFileTypes: true });
    ents.sort((a: Any, b: Any) => (a.name < b.name ? -1 : 1));
    return [ents, ents[0] instanceof fs.Dirent];
  });
  diff("readdirSync recursive", ({ fs, root }) => {
    fs.mkdirSync(`${root}/a/b/c`, { recursive: true });
    fs.writeFileSync(`${root}/a/f1`, "");
    fs.writeFileSync(`${root}/a/b/f2`, "");
    fs.writeFileSync(`${root}/a/b/c/f3`, "");
    return fs.readdirSync(root, { recursive: true }).sort();
  });
  diff("readdirSync recursive withFileTypes", ({ fs, root }) => {
    fs.mkdirSync(`${root}/a/b`, { recursive: true });
    fs.writeFileSync(`${root}/a/b/f`, "");
    const ents = fs.readdirSync(root, { recursive: true, withFileTypes: true });
    return ents.map((d: Any) => [d.parentPath, d.name, d.isDirectory()]).sort();
  });
  diff("readdirSync errors: ENOENT, ENOTDIR", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "");
    return [(() => { try { fs.readdirSync(`${root}/nope`); } catch (e) { return e; } })(),
      (() => { try { fs.readdirSync(`${root}/f`); } catch (e) { return e; } })()];
  });
  diff("readdirSync encoding buffer", ({ fs, root }) => {
    fs.writeFileSync(`${root}/x`, "");
    return fs.readdirSync(root, { encoding: "buffer" });
  });
  diff("mkdirSync and EEXIST", ({ fs, root }) => {
    const r = fs.mkdirSync(`${root}/d`);
    return [r, fs.statSync(`${root}/d`).isDirectory(), (() => { try { fs.mkdirSync(`${root}/d`); } catch (e) { return e; } })()];
  });
  diff("mkdirSync recursive returns the first directory created", ({ fs, root }) => {
    const a = fs.mkdirSync(`${root}/x/y/z`, { recursive: true });
    const b = fs.mkdirSync(`${root}/x/y/z`, { recursive: true });
    const c = fs.mkdirSync(`${root}/x/y/w/`, { recursive: true });
    return [a, b, c];
  });
  diff("mkdirSync recursive through a file", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "");
    return [(() => { try { fs.mkdirSync(`${root}/f`, { recursive: true }); } catch (e) { return e; } })(),
      (() => { try { fs.mkdirSync(`${root}/f/g/h`, { recursive: true }); } catch (e) { return e; } })()];
  });
  diff("mkdirSync without recursive under a missing parent: ENOENT", ({ fs, root }) => fs.mkdirSync(`${root}/no/such`));
  diff("mkdirSync mode", ({ fs, root }) => {
    fs.mkdirSync(`${root}/d`, 0o700);
    fs.mkdirSync(`${root}/e`, { mode: "750" });
    return [fs.statSync(`${root}/d`).mode & 0o777, fs.statSync(`${root}/e`).mode & 0o777];
  });
  diff("rmdirSync and ENOTEMPTY", ({ fs, root }) => {
    fs.mkdirSync(`${root}/d/e`, { recursive: true });
    const err = (() => { try { fs.rmdirSync(`${root}/d`); } catch (e) { return e; } })();
    fs.rmdirSync(`${root}/d/e`);
    fs.rmdirSync(`${root}/d`);
    return [err, fs.existsSync(`${root}/d`)];
  });
  diff("rmSync: files, directories, recursive, force", ({ fs, root }) => {
    fs.mkdirSync(`${root}/d/e/f`, { recursive: true });
    fs.writeFileSync(`${root}/d/e/f/x`, "");
    fs.writeFileSync(`${root}/file`, "");
    fs.rmSync(`${root}/file`);
    const dirNoRecursive = codeOf(() => fs.rmSync(`${root}/d`));
    fs.rmSync(`${root}/d`, { recursive: true });
    const missingForce = codeOf(() => fs.rmSync(`${root}/nope`, { force: true }));
    const missing = codeOf(() => fs.rmSync(`${root}/nope`));
    return [fs.readdirSync(root), dirNoRecursive, missingForce, missing];
  });
  diff("rmSync of a symlink removes the link only", ({ fs, root }) => {
    fs.mkdirSync(`${root}/d`);
    fs.writeFileSync(`${root}/d/x`, "");
    fs.symlinkSync(`${root}/d`, `${root}/l`);
    fs.rmSync(`${root}/l`, { recursive: true });
    return fs.readdirSync(`${root}/d`);
  });
  diff("unlinkSync and ENOENT", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "");
    fs.unlinkSync(`${root}/f`);
    return [fs.existsSync(`${root}/f`), (() => { try { fs.unlinkSync(`${root}/f`); } catch (e) { return e; } })()];
  });
  diff("renameSync and ENOENT (with dest)", ({ fs, root }) => {
    fs.writeFileSync(`${root}/a`, "A");
    fs.renameSync(`${root}/a`, `${root}/b`);
    return [fs.readdirSync(root), (() => { try { fs.renameSync(`${root}/a`, `${root}/c`); } catch (e) { return e; } })()];
  });
  diff("copyFileSync, COPYFILE_EXCL, ENOENT", ({ fs, root }) => {
    fs.writeFileSync(`${root}/a`, "A", { mode: 0o640 });
    fs.copyFileSync(`${root}/a`, `${root}/b`);
    const excl = (() => { try { fs.copyFileSync(`${root}/a`, `${root}/b`, fs.constants.COPYFILE_EXCL); } catch (e) { return e; } })();
    const missing = (() => { try { fs.copyFileSync(`${root}/nope`, `${root}/c`); } catch (e) { return e; } })();
    return [fs.readFileSync(`${root}/b`, "utf8"), fs.statSync(`${root}/b`).mode & 0o777, excl, missing];
  });
  diff("cpSync of a file and of a tree", ({ fs, root }) => {
    fs.mkdirSync(`${root}/src/sub`, { recursive: true });
    fs.writeFileSync(`${root}/src/a`, "A");
    fs.writeFileSync(`${root}/src/sub/b`, "B");
    fs.symlinkSync("a", `${root}/src/link`);
    fs.cpSync(`${root}/src/a`, `${root}/copy-a`);
    fs.cpSync(`${root}/src`, `${root}/dst`, { recursive: true });
    return [fs.readFileSync(`${root}/copy-a`, "utf8"), fs.readdirSync(`${root}/dst`, { recursive: true }).sort(),
      fs.readFileSync(`${root}/dst/sub/b`, "utf8"), fs.readlinkSync(`${root}/dst/link`)];
  });
  diff("cpSync errors: directory without recursive, into itself, errorOnExist", ({ fs, root }) => {
    fs.mkdirSync(`${root}/d`);
    fs.writeFileSync(`${root}/f`, "1");
    fs.writeFileSync(`${root}/g`, "2");
    return [codeOf(() => fs.cpSync(`${root}/d`, `${root}/e`)),
      codeOf(() => fs.cpSync(`${root}/d`, `${root}/d/sub`, { recursive: true })),
      codeOf(() => fs.cpSync(`${root}/f`, `${root}/g`, { force: false, errorOnExist: true })),
      codeOf(() => fs.cpSync(`${root}/f`, `${root}/g`, { force: false })), fs.readFileSync(`${root}/g`, "utf8")];
  });
  diff("symlinkSync, readlinkSync, linkSync", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "x");
    fs.symlinkSync("f", `${root}/s`);
    fs.linkSync(`${root}/f`, `${root}/h`);
    return [fs.readlinkSync(`${root}/s`), fs.readlinkSync(`${root}/s`, "buffer"), fs.statSync(`${root}/f`).nlink,
      (() => { try { fs.readlinkSync(`${root}/f`); } catch (e) { return e; } })(),
      (() => { try { fs.symlinkSync("f", `${root}/s`); } catch (e) { return e; } })()];
  });
  diff("realpathSync and .native", ({ fs, root }) => {
    fs.mkdirSync(`${root}/d`);
    fs.writeFileSync(`${root}/d/f`, "");
    fs.symlinkSync("d", `${root}/l`);
    return [fs.realpathSync(`${root}/l/f`), fs.realpathSync.native(`${root}/l/./f`), fs.realpathSync(`${root}/l/../l`),
      codeOf(() => fs.realpathSync(`${root}/nope`))];
  });
  diff("chmodSync with numbers and octal strings", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "");
    fs.chmodSync(`${root}/f`, 0o604);
    const a = fs.statSync(`${root}/f`).mode;
    fs.chmodSync(`${root}/f`, "755");
    return [a, fs.statSync(`${root}/f`).mode, (() => { try { fs.chmodSync(`${root}/f`, "9x"); } catch (e) { return e; } })()];
  });
  diff("utimesSync and futimesSync with seconds and Dates", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "");
    fs.utimesSync(`${root}/f`, 12345, new Date(1_600_000_000_000));
    const a = fs.statSync(`${root}/f`);
    const fd = fs.openSync(`${root}/f`, "r+");
    fs.futimesSync(fd, "1000", 2000.5);
    fs.closeSync(fd);
    return [a.atimeMs, a.mtimeMs, a.mtime, fs.statSync(`${root}/f`).mtimeMs, fs.statSync(`${root}/f`).atimeMs];
  });
  diff("truncateSync and ftruncateSync", ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "abcdef");
    fs.truncateSync(`${root}/f`, 3);
    const a = fs.readFileSync(`${root}/f`, "utf8");
    const fd = fs.openSync(`${root}/f`, "r+");
    fs.ftruncateSync(fd, 5);
    fs.fsyncSync(fd);
    fs.fdatasyncSync(fd);
    fs.closeSync(fd);
    const b = fs.readFileSync(`${root}/f`);
    fs.truncateSync(`${root}/f`);
    return [a, b, fs.statSync(`${root}/f`).size, codeOf(() => fs.truncateSync(`${root}/nope`))];
  });
  diff("mkdtempSync", ({ fs, root }) => {
    const d = fs.mkdtempSync(`${root}/tmp-`);
    return [/\/tmp-[A-Za-z0-9]{6}$/.test(d), d.startsWith(`${root}/tmp-`), fs.statSync(d).isDirectory(), fs.statSync(d).mode & 0o777,
      codeOf(() => fs.mkdtempSync(`${root}/no/such/x-`))];
  });
  diff("opendirSync: readSync until null, closeSync twice", ({ fs, root }) => {
    fs.writeFileSync(`${root}/a`, "");
    fs.mkdirSync(`${root}/b`);
    const dir = fs.opendirSync(root);
    const names = [];
    let d;
    while ((d = dir.readSync()) !== null) names.push([d.name, d.isDirectory(), d.parentPath]);
    dir.closeSync();
    return [dir.path, names.sort(), codeOf(() => dir.closeSync()), codeOf(() => fs.opendirSync(`${root}/nope`))];
  });
  diff("opendirSync async iteration", async ({ fs, root }) => {
    fs.writeFileSync(`${root}/a`, "");
    fs.writeFileSync(`${root}/b`, "");
    const names = [];
    for await (const d of fs.opendirSync(root)) names.push(d.name);
    const dir = await fs.promises.opendir(root);
    const first = await dir.read();
    await dir.close();
    return [names.sort(), typeof first.name];
  });
  diff("fs.constants", ({ fs }) => {
    const keys = ["O_RDONLY", "O_WRONLY", "O_RDWR", "O_CREAT", "O_EXCL", "O_TRUNC", "O_APPEND", "O_DIRECTORY", "O_NOFOLLOW",
      "O_SYNC", "O_DSYNC", "O_NONBLOCK", "S_IFMT", "S_IFREG", "S_IFDIR", "S_IFLNK", "S_IFIFO", "S_IFSOCK", "S_IFCHR", "S_IFBLK",
      "S_IRWXU", "S_IRUSR", "F_OK", "R_OK", "W_OK", "X_OK", "COPYFILE_EXCL", "COPYFILE_FICLONE", "UV_DIRENT_DIR"];
    return [keys.map((k) => fs.constants[k]), fs.F_OK, fs.R_OK, fs.W_OK, fs.X_OK];
  });
  diff("Buffer and file: URL paths", ({ fs, root, Buffer }) => {
    fs.writeFileSync(Buffer.from(`${root}/b`), "buf");
    fs.writeFileSync(pathToFileURL(`${root}/with space`), "url");
    return [fs.readFileSync(`${root}/b`, "utf8"), fs.readFileSync(new URL(`file://${root}/with%20space`), "utf8"),
      fs.existsSync(pathToFileURL(`${root}/b`)), fs.readdirSync(pathToFileURL(root)).sort()];
  });
  diff("invalid path arguments", ({ fs }) => [undefined, null, 1.5, {}, true, ["a"], function named() {}].map((p) => {
    try { fs.readFileSync(p); } catch (e) { return e; }
    return "no error";
  }));
  diff("path arguments in several functions", ({ fs }) => [
    (() => { try { fs.statSync(undefined); } catch (e) { return e; } })(),
    (() => { try { fs.renameSync("a", 5); } catch (e) { return e; } })(),
    (() => { try { fs.copyFileSync(null, "b"); } catch (e) { return e; } })(),
    (() => { try { fs.mkdirSync(undefined); } catch (e) { return e; } })(),
  ]);
  diff("NUL bytes in paths", ({ fs, root, Buffer }) => [
    (() => { try { fs.readFileSync(`${root}/a\0b`); } catch (e) { return { code: (e as Any).code, name: (e as Any).name }; } })(),
    (() => { try { fs.writeFileSync("x\0", ""); } catch (e) { return e; } })(),
    (() => { try { fs.statSync(Buffer.from("x\0")); } catch (e) { return { code: (e as Any).code }; } })(),
  ]);
  diff("non-file URL", ({ fs }) => codeOf(() => fs.readFileSync(new URL("http://example.com/x"))));
});

describe("guest fs: callback API, differential", () => {
  diff("readFile: result and ENOENT through the callback", async ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "cb");
    const ok = await cbArgs((cb) => fs.readFile(`${root}/f`, "utf8", cb));
    const bytes = await cbArgs((cb) => fs.readFile(`${root}/f`, cb));
    const err = await cbArgs((cb) => fs.readFile(`${root}/nope`, cb));
    return [ok, bytes, err];
  });
  diff("writeFile, appendFile, stat, readdir, mkdir, rm through callbacks", async ({ fs, root }) => {
    const out = [];
    out.push(await cbArgs((cb) => fs.writeFile(`${root}/f`, "a", cb)));
    out.push(await cbArgs((cb) => fs.appendFile(`${root}/f`, "b", { encoding: "utf8" }, cb)));
    out.push(await cbArgs((cb) => fs.stat(`${root}/f`, cb)));
    out.push(await cbArgs((cb) => fs.lstat(`${root}/f`, {}, cb)));
    out.push(await cbArgs((cb) => fs.mkdir(`${root}/x/y`, { recursive: true }, cb)));
    out.push(await cbArgs((cb) => fs.readdir(root, cb)).then((a) => [a[0], (a[1] as string[]).sort()]));
    out.push(await cbArgs((cb) => fs.rm(`${root}/x`, { recursive: true }, cb)));
    out.push(await cbArgs((cb) => fs.access(`${root}/x`, cb)));
    out.push(await cbArgs((cb) => fs.readFile(`${root}/f`, "utf8", cb)));
    return out;
  });
  diff("rename, copyFile, unlink, symlink, readlink, realpath, chmod, utimes, truncate through callbacks", async ({ fs, root }) => {
    fs.writeFileSync(`${root}/a`, "abc");
    const out = [];
    out.push(await cbArgs((cb) => fs.rename(`${root}/a`, `${root}/b`, cb)));
    out.push(await cbArgs((cb) => fs.copyFile(`${root}/b`, `${root}/c`, cb)));
    out.push(await cbArgs((cb) => fs.symlink("c", `${root}/s`, cb)));
    out.push(await cbArgs((cb) => fs.readlink(`${root}/s`, cb)));
    out.push(await cbArgs((cb) => fs.realpath(`${root}/s`, cb)));
    out.push(await cbArgs((cb) => fs.chmod(`${root}/c`, 0o600, cb)));
    out.push(await cbArgs((cb) => fs.truncate(`${root}/c`, 1, cb)));
    out.push(await cbArgs((cb) => fs.utimes(`${root}/c`, 10, 20, cb)));
    out.push(await cbArgs((cb) => fs.unlink(`${root}/b`, cb)));
    out.push(await cbArgs((cb) => fs.rmdir(`${root}/nope`, cb)));
    const s = fs.statSync(`${root}/c`);
    return [out, s.mode & 0o777, s.mtimeMs, s.size];
  });
  diff("open, read, write, fstat, close through callbacks", async ({ fs, root, Buffer }) => {
    const [err, fd] = await cbArgs((cb) => fs.open(`${root}/f`, "w+", cb));
    const w = await cbArgs((cb) => fs.write(fd, Buffer.from("hello"), 0, 5, 0, cb));
    const ws = await cbArgs((cb) => fs.write(fd, "!", 5, "utf8", cb));
    const buf = Buffer.alloc(6);
    const r = await cbArgs((cb) => fs.read(fd, buf, 0, 6, 0, cb));
    const r2 = await cbArgs((cb) => fs.read(fd, { buffer: Buffer.alloc(3), position: 1 }, cb));
    const st = await cbArgs((cb) => fs.fstat(fd, cb));
    const c = await cbArgs((cb) => fs.close(fd, cb));
    return [err, w, ws, r, r2, st, c, buf.toString()];
  });
  diff("exists calls back with a boolean", async ({ fs, root }) => [
    await cbArgs((cb) => fs.exists(root, cb)),
    await cbArgs((cb) => fs.exists(`${root}/nope`, cb)),
  ]);
  diff("a missing callback throws ERR_INVALID_ARG_TYPE", ({ fs, root }) => [
    (() => { try { fs.readFile(`${root}/f`); } catch (e) { return e; } })(),
    (() => { try { fs.stat(`${root}/f`, {}); } catch (e) { return e; } })(),
    (() => { try { fs.mkdir(`${root}/f`, "x"); } catch (e) { return e; } })(),
  ]);
  diff("invalid path arguments throw synchronously in the callback API", ({ fs }) => {
    let called = false;
    try {
      fs.stat(undefined, () => { called = true; });
    } catch (e) {
      return [e, called];
    }
    return "no error";
  });
  diff("callbacks run after the calling code", async ({ fs, root }) => {
    const order: string[] = [];
    const done = new Promise((resolve) => fs.stat(root, () => { order.push("callback"); resolve(undefined); }));
    order.push("sync");
    await done;
    return order;
  });
  diff("mkdtemp, opendir, cp, link, readdir withFileTypes through callbacks", async ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "");
    const [e1, dir] = await cbArgs((cb) => fs.mkdtemp(`${root}/t-`, cb));
    const [e2, d] = await cbArgs((cb) => fs.opendir(root, cb));
    (d as Any).closeSync();
    const cp = await cbArgs((cb) => fs.cp(`${root}/f`, `${root}/g`, cb));
    const ln = await cbArgs((cb) => fs.link(`${root}/f`, `${root}/h`, cb));
    const [e3, ents] = await cbArgs((cb) => fs.readdir(root, { withFileTypes: true }, cb));
    return [e1, typeof dir, e2, cp, ln, e3, (ents as Any[]).map((x) => x.name).filter((n: string) => !n.startsWith("t-")).sort()];
  });
});

describe("guest fs: promises API, differential", () => {
  diff("readFile, writeFile, appendFile", async ({ fsp, root }) => {
    await fsp.writeFile(`${root}/f`, "a");
    await fsp.appendFile(`${root}/f`, "b");
    return [await fsp.readFile(`${root}/f`, "utf8"), await fsp.readFile(`${root}/f`)];
  });
  diff("stat, readdir, mkdir, rm, rename, copyFile, access", async ({ fsp, root }) => {
    await fsp.mkdir(`${root}/d/e`, { recursive: true });
    await fsp.writeFile(`${root}/d/e/f`, "x");
    await fsp.copyFile(`${root}/d/e/f`, `${root}/g`);
    await fsp.rename(`${root}/g`, `${root}/h`);
    const st = await fsp.stat(`${root}/h`);
    const list = (await fsp.readdir(root)).sort();
    await fsp.rm(`${root}/d`, { recursive: true });
    return [st.size, list, (await fsp.readdir(root)).sort(), await fsp.access(`${root}/h`), await fsp.lstat(`${root}/h`)];
  });
  diff("rejections: ENOENT and argument errors", async ({ fsp, root }) => [
    await rejection(fsp.readFile(`${root}/nope`)),
    await rejection(fsp.stat(`${root}/nope`)),
    await rejection(fsp.readFile(undefined)),
    await rejection(fsp.mkdir(`${root}/a/b`)),
  ]);
  diff("FileHandle: read, write, stat, truncate, readFile, writeFile, close", async ({ fsp, root, Buffer }) => {
    const fh = await fsp.open(`${root}/f`, "w+");
    const fdOk = typeof fh.fd === "number" && fh.fd >= 0;
    const w = await fh.write(Buffer.from("hello world"), 0, 11, 0);
    const ws = await fh.write("!", 11);
    const r = await fh.read(Buffer.alloc(5), 0, 5, 6);
    const r2 = await fh.read({ buffer: Buffer.alloc(3), position: 0 });
    const st = await fh.stat();
    await fh.truncate(5);
    const content = await fh.readFile("utf8");
    await fh.close();
    const fh2 = await fsp.open(`${root}/g`, "w");
    await fh2.writeFile("via handle");
    await fh2.appendFile("+");
    await fh2.sync();
    await fh2.close();
    return [fdOk, w.bytesWritten, ws, r, r2.bytesRead, r2.buffer, st.size, content, await fsp.readFile(`${root}/f`, "utf8"),
      await fsp.readFile(`${root}/g`, "utf8")];
  });
  diff("FileHandle as the file of readFile/writeFile", async ({ fsp, root }) => {
    const fh = await fsp.open(`${root}/f`, "w+");
    await fsp.writeFile(fh, "xyz");
    await fh.close();
    const fr = await fsp.open(`${root}/f`, "r");
    const data = await fsp.readFile(fr, "utf8");
    await fr.close();
    return data;
  });
  diff("promises: symlink, readlink, realpath, chmod, utimes, truncate, unlink, mkdtemp, cp, rmdir", async ({ fsp, root }) => {
    await fsp.writeFile(`${root}/f`, "abcdef");
    await fsp.symlink("f", `${root}/s`);
    const link = await fsp.readlink(`${root}/s`);
    const real = await fsp.realpath(`${root}/s`);
    await fsp.chmod(`${root}/f`, 0o640);
    await fsp.truncate(`${root}/f`, 2);
    await fsp.utimes(`${root}/f`, 5, 6);
    await fsp.cp(`${root}/f`, `${root}/g`);
    const st = await fsp.stat(`${root}/f`);
    await fsp.unlink(`${root}/s`);
    const t = await fsp.mkdtemp(`${root}/t-`);
    await fsp.rmdir(t);
    return [link, real, st.mode & 0o777, st.mtimeMs, st.size, await fsp.readFile(`${root}/g`, "utf8"), (await fsp.readdir(root)).sort()];
  });
  diff("fs.promises is fs/promises with the constants", ({ fs, fsp }) => [fs.promises === fsp, fsp.constants.O_CREAT, typeof fsp.open]);
});

describe("guest fs: streams, differential", () => {
  diff("createReadStream of a whole file", async ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "x".repeat(100_000));
    const events: string[] = [];
    const r = (await collect(fs.createReadStream(`${root}/f`), events)) as Any;
    return [r.chunks.map((c: Uint8Array) => c.length), r.events];
  });
  diff("createReadStream start, end, highWaterMark", async ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "0123456789abcdef");
    const s = fs.createReadStream(`${root}/f`, { start: 2, end: 11, highWaterMark: 4 });
    const r = (await collect(s, [])) as Any;
    return [r.chunks, s.bytesRead];
  });
  diff("createReadStream encoding", async ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "héllo");
    const r = (await collect(fs.createReadStream(`${root}/f`, "utf8"), [])) as Any;
    const r2 = (await collect(fs.createReadStream(`${root}/f`, { encoding: "hex", start: 1 }), [])) as Any;
    return [r.chunks.join(""), r2.chunks.join("")];
  });
  diff("createReadStream of a missing file emits error", async ({ fs, root }) => {
    const events: string[] = [];
    const r = (await collect(fs.createReadStream(`${root}/nope`), events)) as Any;
    return [r.error, events];
  });
  diff("createReadStream from an fd", async ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "from fd");
    const fd = fs.openSync(`${root}/f`);
    const s = fs.createReadStream(null, { fd, start: 5 });
    const r = (await collect(s, [])) as Any;
    return [r.chunks.map(String), codeOf(() => fs.fstatSync(fd))];
  });
  diff("createWriteStream: bytesWritten, finish and close", async ({ fs, root, Buffer }) => {
    const ws = fs.createWriteStream(`${root}/f`);
    const events: string[] = [];
    const done = collect(ws, events);
    ws.write("abc");
    ws.write(Buffer.from("def"));
    ws.end("g");
    await done;
    return [ws.bytesWritten, events, fs.readFileSync(`${root}/f`, "utf8"), ws.path === `${root}/f`];
  });
  diff("createWriteStream flags a and start", async ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "12345");
    const a = fs.createWriteStream(`${root}/f`, { flags: "a" });
    a.end("67");
    await new Promise((resolve) => a.on("close", resolve));
    fs.writeFileSync(`${root}/g`, "abcdef");
    const b = fs.createWriteStream(`${root}/g`, { flags: "r+", start: 2 });
    b.end("XY");
    await new Promise((resolve) => b.on("close", resolve));
    return [fs.readFileSync(`${root}/f`, "utf8"), fs.readFileSync(`${root}/g`, "utf8")];
  });
  diff("createWriteStream to a missing directory emits error", async ({ fs, root }) => {
    const ws = fs.createWriteStream(`${root}/no/f`);
    const err = await new Promise((resolve) => ws.on("error", resolve));
    return err;
  });
  diff("pipe a ReadStream into a WriteStream", async ({ fs, root }) => {
    fs.writeFileSync(`${root}/src`, "p".repeat(70_000) + "end");
    const ws = fs.createWriteStream(`${root}/dst`);
    fs.createReadStream(`${root}/src`, { highWaterMark: 1000 }).pipe(ws);
    await new Promise((resolve) => ws.on("close", resolve));
    return [fs.readFileSync(`${root}/dst`, "utf8") === fs.readFileSync(`${root}/src`, "utf8"), ws.bytesWritten];
  });
  diff("ReadStream and WriteStream classes", async ({ fs, root }) => {
    fs.writeFileSync(`${root}/f`, "");
    const r = fs.createReadStream(`${root}/f`);
    const w = fs.createWriteStream(`${root}/g`);
    const out = [r instanceof fs.ReadStream, w instanceof fs.WriteStream, r.pending, w.pending];
    await new Promise((resolve) => { r.on("close", resolve); r.resume(); });
    w.end();
    await new Promise((resolve) => w.on("close", resolve));
    return out;
  });
});

describe("guest fs: VM specifics", () => {
  it("watch is not supported (watchFile's stat polling is: the node differential suite's fs-watch-file cases)", () => {
    expect(() => guest.fs.watch(guestRoot)).toThrow("fs.watch is not supported in the VM");
  });
  it("stat with bigint: true gives BigInt fields (only for bigint === true, as Node's binding)", async () => {
    const s = guest.fs.statSync(guestRoot, { bigint: true });
    expect([typeof s.size, typeof s.mode, typeof s.mtimeNs, s.isDirectory(), s.mtimeMs * 1_000_000n <= s.mtimeNs]).toEqual(["bigint", "bigint", "bigint", true, true]);
    expect(typeof (await guest.fsp.stat(guestRoot, { bigint: true })).ino).toBe("bigint");
    expect(typeof guest.fs.statSync(guestRoot, { bigint: 1 }).size).toBe("number");
  });
  it("relative paths are taken against the guest's cwd; mkdir -p returns the path as given", () => {
    const fs = guest.fs;
    expect(fs.mkdirSync("rel/a/b", { recursive: true })).toBe("rel");
    fs.writeFileSync("rel/a/b/f", "x");
    expect(hostFs.readFileSync(path.join(guestRoot, "rel/a/b/f"), "utf8")).toBe("x");
    expect(fs.readdirSync("rel", { recursive: true }).sort()).toEqual(["a", "a/b", "a/b/f"]);
    fs.rmSync("rel", { recursive: true });
    expect(fs.existsSync("rel")).toBe(false);
  });
  it("errors are the context's, with Node's properties", () => {
    const CtxError = vm.runInContext("Error", guest.ctx);
    const CtxTypeError = vm.runInContext("TypeError", guest.ctx);
    let err: Any;
    try { guest.fs.readFileSync(undefined); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(CtxTypeError);
    expect(err.message).toBe('The "path" argument must be of type string or an instance of Buffer or URL. Received undefined');
    try { guest.fs.openSync("/nope/x"); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(CtxError);
    expect([err.code, err.errno, err.syscall, err.path]).toEqual(["ENOENT", -2, "open", "/nope/x"]);
  });
  it("the callback API defers through internal.nextTick", async () => {
    const order: string[] = [];
    guest.fs.access(guestRoot, () => order.push("cb"));
    order.push("after");
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(["after", "cb"]);
  });
  it("Stats has Node's shape", () => {
    const s = guest.fs.statSync(guestRoot);
    // Node 22+ makes the Dates lazy accessors, so only require the host's own keys (and the Dates) to be there.
    for (const k of [...Object.keys(hostFs.statSync(guestRoot)), "atime", "mtime", "ctime", "birthtime"]) expect(s).toHaveProperty(k);
    for (const m of ["isFile", "isDirectory", "isSymbolicLink", "isFIFO", "isSocket", "isCharacterDevice", "isBlockDevice"]) {
      expect(typeof s[m]).toBe("function");
    }
    for (const k of ["dev", "ino", "size", "blocks", "mode", "mtimeMs", "ctimeMs", "birthtimeMs"]) {
      expect(s[k]).toBe((hostFs.statSync(guestRoot) as Any)[k]);
    }
    expect(s.mtime.getTime()).toBe(hostFs.statSync(guestRoot).mtime.getTime());
  });
});
