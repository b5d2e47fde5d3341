// Differential tests of workers/node-guest/internal/resolve.js against the host's own Node: the resolver runs
// in a DONT_CONTEXTIFY vm context over the host's real file system, and every case is also resolved by the
// host (createRequire(...).resolve for CommonJS, a child node with a resolve hook for ESM).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { spawnSync } from 'node:child_process';
import Module, { createRequire, isBuiltin } from 'node:module';
import { pathToFileURL } from 'node:url';
import { RUN_DEADLINE_MS } from '../deadlines.js';

type Format = 'module' | 'commonjs' | 'json' | 'builtin';
interface Resolver {
  resolveCjs(request: string, parentFilename: string | undefined, parentDir: string, requireStack: string[]): string;
  resolveEsm(specifier: string, parentURL: string): { url: string; format: Format };
  packageType(filename: string): 'module' | 'commonjs';
  nodeModulePaths(dir: string): string[];
  readPackageScope(filename: string): { path: string; data: { name?: string; type: string } } | undefined;
}
interface FsInterface {
  fileType(p: string): 0 | 1 | 2;
  readText(p: string): string | undefined;
  realpath(p: string): string;
  isBuiltin(name: string): boolean;
  makeError(Ctor: ErrorConstructor, code: string | undefined, message: string, props?: Record<string, unknown>): Error;
  cwd?(): string;
}
// What a case produced: a result or an error's observable parts.
interface Outcome { ok?: string; format?: string | null; code?: string; message?: string; name?: string; requireStack?: string[] }

const RESOLVE_JS = new URL('../../workers/node-guest/internal/resolve.js', import.meta.url);
const PRIMORDIALS_JS = new URL('../../workers/node-guest/internal/primordials.js', import.meta.url);

function loadResolverModule(): { createResolver(fsi: FsInterface): Resolver } {
  const ctx = vm.createContext(vm.constants.DONT_CONTEXTIFY);
  const fn = vm.compileFunction(fs.readFileSync(RESOLVE_JS, 'utf8'), ['exports', 'require', 'module', 'internal'],
    { parsingContext: ctx }) as (e: object, r: unknown, m: { exports: object }, i: object) => void;
  const mod = { exports: {} };
  // resolve.js requires only 'process', for the Node version the guest reports (here the host's), and the
  // realm's intrinsics (internal/primordials.js, compiled in the same context).
  const primordials = { exports: {} };
  (vm.compileFunction(fs.readFileSync(PRIMORDIALS_JS, 'utf8'), ['exports', 'require', 'module'], { parsingContext: ctx }) as (e: object, r: unknown, m: { exports: object }) => void)(primordials.exports, undefined, primordials);
  const requireStub = (name: string) => {
    if (name === 'process') return { versions: { node: process.versions.node } };
    if (name === 'internal/primordials') return primordials.exports;
    throw new Error(`resolve.js needs no require('${name}')`);
  };
  fn(mod.exports, requireStub, mod, {});
  return mod.exports as { createResolver(fsi: FsInterface): Resolver };
}

function hostFs(reads?: string[]): FsInterface {
  return {
    fileType(p) {
      try {
        const st = fs.statSync(p);
        return st.isFile() ? 1 : st.isDirectory() ? 2 : 0;
      } catch {
        return 0;
      }
    },
    readText(p) {
      reads?.push(p);
      try { return fs.readFileSync(p, 'utf8'); } catch { return undefined; }
    },
    realpath: (p) => fs.realpathSync(p),
    isBuiltin: (name) => isBuiltin(name),
    makeError(Ctor, code, message, props) {
      const e = new Ctor(message) as Error & Record<string, unknown>;
      if (code !== undefined) e.code = code;
      if (props) Object.assign(e, props);
      return e;
    },
  };
}

let R = '';
const F = (rel: string) => path.join(R, rel);
const U = (rel: string) => pathToFileURL(F(rel)).href;

function write(rel: string, content: string | object = ''): void {
  const p = F(rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
}
function link(target: string, rel: string): void {
  fs.mkdirSync(path.dirname(F(rel)), { recursive: true });
  fs.symlinkSync(target, F(rel));
}

function buildFixtures(): void {
  write('app/package.json', {
    name: 'app',
    exports: { '.': './main.js', './feat': { import: './feat.mjs', require: './feat.cjs' } },
    imports: {
      '#util': './src/util.js', '#cond': { import: './src/c.mjs', require: './src/c.cjs' },
      '#lib/*': './src/lib/*.js', '#dep': 'dep-plain', '#null': null,
    },
  });
  for (const f of ['main.js', 'feat.mjs', 'feat.cjs', 'a.js', 'a.mjs', 'x.js', 'x.json', 'y.json', 'z.node',
    'only.cjs', 'only.mjs', 'a b.js', 'é.js', 'h#.js', 'dir/index.js', 'dir2/index.json', 'sub/deep.js',
    'src/util.js', 'src/c.mjs', 'src/c.cjs', 'src/lib/one.js', 'real/target.js']) write(`app/${f}`);
  link('real/target.js', 'app/linked.js');
  write('app/dirmain/package.json', { main: 'lib/entry' });
  write('app/dirmain/lib/entry.js');
  write('app/dirmain-fallback/package.json', { main: 'nope.js' });
  write('app/dirmain-fallback/index.js');
  write('app/dirmain-broken/package.json', { main: 'nope.js' });

  // npm layout
  write('app/node_modules/dep-plain/package.json', { name: 'dep-plain', main: './lib/index.js' });
  write('app/node_modules/dep-plain/lib/index.js');
  write('app/node_modules/dep-plain/lib/other.js');
  write('app/node_modules/dep-plain/node_modules/inner/index.js');
  write('app/node_modules/dep-index/index.js');
  write('app/node_modules/exp/package.json', {
    name: 'exp',
    exports: {
      '.': { import: './esm/index.mjs', require: './cjs/index.cjs' },
      './feature': { node: { import: './esm/f.mjs', default: './cjs/f.js' } },
      './nested': { node: { require: { default: './cjs/n.cjs' }, import: './esm/n.mjs' } },
      './def': { browser: './b.js', default: './cjs/f.js' },
      './arr': ['not-relative', './cjs/f.js'],
      './arr-missing': ['./cjs/missing.js', './cjs/f.js'],
      './patterns/*': './lib/*.js',
      './patterns/deep/*.js': './lib/deep/*.js',
      './features/private/*': null,
      './bad': 'bad-target',
      './outside': './../x.js',
      './missing': './nope.js',
      './only-import': { import: './esm/f.mjs' },
      './package.json': './package.json',
    },
  });
  for (const f of ['esm/index.mjs', 'cjs/index.cjs', 'esm/f.mjs', 'cjs/f.js', 'cjs/n.cjs', 'esm/n.mjs',
    'lib/one.js', 'lib/deep/two.js', 'lib/private.js', 'features/private/p.js']) write(`app/node_modules/exp/${f}`);
  write('app/node_modules/exp-sugar/package.json', { exports: './index.js' });
  write('app/node_modules/exp-sugar/index.js');
  write('app/node_modules/exp-sugar/other.js');
  write('app/node_modules/exp-cond/package.json', { exports: { require: './r.js', import: './i.mjs' } });
  write('app/node_modules/exp-cond/r.js');
  write('app/node_modules/exp-cond/i.mjs');
  write('app/node_modules/exp-mixed/package.json', { exports: { '.': './a.js', x: './b.js' } });
  write('app/node_modules/@scope/pkg/package.json', { name: '@scope/pkg', exports: { './a': './a.js' } });
  write('app/node_modules/@scope/pkg/a.js');
  write('app/node_modules/esm-only/package.json', { type: 'module', main: 'index.js' });
  write('app/node_modules/esm-only/index.js');
  write('app/node_modules/mainless-esm/package.json', { main: 'lib' });
  write('app/node_modules/mainless-esm/lib/index.js');
  write('app/node_modules/no-main/package.json', {});

  // pnpm layout: symlinks into node_modules/.pnpm, a dependency visible only from its dependant
  write('app/node_modules/.pnpm/pn@1.0.0/node_modules/pn/package.json', { name: 'pn', main: 'index.js' });
  write('app/node_modules/.pnpm/pn@1.0.0/node_modules/pn/index.js');
  write('app/node_modules/.pnpm/pn-dep@2.0.0/node_modules/pn-dep/package.json',
    { name: 'pn-dep', exports: { require: './c.cjs', import: './m.mjs' } });
  write('app/node_modules/.pnpm/pn-dep@2.0.0/node_modules/pn-dep/c.cjs');
  write('app/node_modules/.pnpm/pn-dep@2.0.0/node_modules/pn-dep/m.mjs');
  link('../../pn-dep@2.0.0/node_modules/pn-dep', 'app/node_modules/.pnpm/pn@1.0.0/node_modules/pn-dep');
  link('.pnpm/pn@1.0.0/node_modules/pn', 'app/node_modules/pn');

  // "type": "module" scope
  write('mod/package.json', { type: 'module', imports: { '#x': './b.js' } });
  for (const f of ['a.mjs', 'a.js', 'b.js', 'c.cjs', 'data.json', 'extless']) write(`mod/${f}`);
  write('mod/cjs/package.json', { type: 'commonjs' });
  write('mod/cjs/k.js');
}

const PN = 'app/node_modules/.pnpm/pn@1.0.0/node_modules/pn/index.js';

// [request, parent (relative to the fixture root)]
const CJS_CASES: [string, string][] = [
  ['./x', 'app/a.js'], ['./x.js', 'app/a.js'], ['./x.json', 'app/a.js'], ['./y', 'app/a.js'], ['./z', 'app/a.js'],
  ['./only', 'app/a.js'], ['./only.cjs', 'app/a.js'], ['./only.mjs', 'app/a.js'], ['./nope', 'app/a.js'],
  ['./dir', 'app/a.js'], ['./dir/', 'app/a.js'], ['./dir2', 'app/a.js'], ['./dirmain', 'app/a.js'],
  ['./dirmain-fallback', 'app/a.js'], ['./dirmain-broken', 'app/a.js'], ['../x', 'app/sub/deep.js'],
  ['..', 'app/sub/deep.js'], ['.', 'app/dir/index.js'], ['./linked', 'app/a.js'], ['./a b', 'app/a.js'],
  ['./é', 'app/a.js'], ['./h#', 'app/a.js'], ['__ABS__/app/x', 'app/sub/deep.js'],
  ['fs', 'app/a.js'], ['node:fs', 'app/a.js'], ['node:test', 'app/a.js'], ['fs/promises', 'app/a.js'],
  ['dep-plain', 'app/a.js'], ['dep-plain/lib/other', 'app/a.js'], ['dep-index', 'app/a.js'],
  ['inner', 'app/node_modules/dep-plain/lib/index.js'], ['inner', 'app/a.js'],
  ['exp', 'app/node_modules/dep-plain/lib/index.js'],
  ['exp', 'app/a.js'], ['exp/feature', 'app/a.js'], ['exp/nested', 'app/a.js'], ['exp/def', 'app/a.js'],
  ['exp/arr', 'app/a.js'], ['exp/arr-missing', 'app/a.js'], ['exp/patterns/one', 'app/a.js'],
  ['exp/patterns/deep/two.js', 'app/a.js'], ['exp/features/private/p.js', 'app/a.js'], ['exp/bad', 'app/a.js'],
  ['exp/outside', 'app/a.js'], ['exp/missing', 'app/a.js'], ['exp/only-import', 'app/a.js'],
  ['exp/nope', 'app/a.js'], ['exp/package.json', 'app/a.js'], ['exp/cjs/f.js', 'app/a.js'], ['exp/', 'app/a.js'],
  ['exp-sugar', 'app/a.js'], ['exp-sugar/other.js', 'app/a.js'], ['exp-cond', 'app/a.js'],
  ['exp-mixed', 'app/a.js'], ['@scope/pkg', 'app/a.js'], ['@scope/pkg/a', 'app/a.js'], ['@scope/nope', 'app/a.js'],
  ['esm-only', 'app/a.js'], ['mainless-esm', 'app/a.js'], ['no-main', 'app/a.js'], ['nopkg', 'app/a.js'],
  ['app', 'app/a.js'], ['app/feat', 'app/sub/deep.js'], ['app/nope', 'app/a.js'],
  ['#util', 'app/a.js'], ['#cond', 'app/sub/deep.js'], ['#lib/one', 'app/a.js'], ['#dep', 'app/a.js'],
  ['#null', 'app/a.js'], ['#missing', 'app/a.js'], ['#', 'app/a.js'], ['#x', 'mod/a.js'],
  ['pn', 'app/a.js'], ['pn-dep', PN], ['pn-dep', 'app/a.js'],
];

const ESM_CASES: [string, string][] = [
  ['./x.js', 'app/a.mjs'], ['./x', 'app/a.mjs'], ['./nope.js', 'app/a.mjs'], ['./dir', 'app/a.mjs'],
  ['./dir/index.js', 'app/a.mjs'], ['../x.js', 'app/sub/deep.js'], ['./only.mjs', 'app/a.mjs'],
  ['./only.cjs', 'app/a.mjs'], ['./x.json', 'app/a.mjs'], ['./linked.js', 'app/a.mjs'],
  ['./a%20b.js', 'app/a.mjs'], ['./é.js', 'app/a.mjs'], ['./%C3%A9.js', 'app/a.mjs'], ['./h%23.js', 'app/a.mjs'],
  ['./x.js?q=1#frag', 'app/a.mjs'], ['./a%2Fb.js', 'app/a.mjs'], ['__URL__/app/x.js', 'app/sub/deep.js'],
  ['__ABS__/app/x.js', 'app/sub/deep.js'], ['__ABS__/app/x', 'app/sub/deep.js'],
  ['fs', 'app/a.mjs'], ['node:fs', 'app/a.mjs'], ['node:test', 'app/a.mjs'], ['fs/promises', 'app/a.mjs'],
  ['dep-plain', 'app/a.mjs'], ['dep-plain/lib/other.js', 'app/a.mjs'], ['dep-plain/lib/other', 'app/a.mjs'],
  ['dep-index', 'app/a.mjs'], ['mainless-esm', 'app/a.mjs'], ['no-main', 'app/a.mjs'], ['nopkg', 'app/a.mjs'],
  ['inner', 'app/node_modules/dep-plain/lib/index.js'],
  ['exp', 'app/a.mjs'], ['exp/feature', 'app/a.mjs'], ['exp/nested', 'app/a.mjs'], ['exp/def', 'app/a.mjs'],
  ['exp/arr', 'app/a.mjs'], ['exp/arr-missing', 'app/a.mjs'], ['exp/patterns/one', 'app/a.mjs'],
  ['exp/patterns/deep/two.js', 'app/a.mjs'], ['exp/features/private/p.js', 'app/a.mjs'], ['exp/bad', 'app/a.mjs'],
  ['exp/outside', 'app/a.mjs'], ['exp/missing', 'app/a.mjs'], ['exp/only-import', 'app/a.mjs'],
  ['exp/nope', 'app/a.mjs'], ['exp-sugar', 'app/a.mjs'], ['exp-sugar/other.js', 'app/a.mjs'],
  ['exp-cond', 'app/a.mjs'], ['exp-mixed', 'app/a.mjs'], ['@scope/pkg', 'app/a.mjs'], ['@scope/pkg/a', 'app/a.mjs'],
  ['esm-only', 'app/a.mjs'], ['app', 'app/a.mjs'], ['app/feat', 'app/a.mjs'], ['app/nope', 'app/a.mjs'],
  ['#util', 'app/a.mjs'], ['#cond', 'app/a.mjs'], ['#lib/one', 'app/a.mjs'], ['#dep', 'app/a.mjs'],
  ['#null', 'app/a.mjs'], ['#missing', 'app/a.mjs'], ['#', 'app/a.mjs'], ['#x', 'mod/a.mjs'],
  ['./a.js', 'mod/a.mjs'], ['./c.cjs', 'mod/a.mjs'], ['./data.json', 'mod/a.mjs'], ['./cjs/k.js', 'mod/a.mjs'],
  ['pn', 'app/a.mjs'], ['pn-dep', PN], ['pn-dep', 'app/a.mjs'], ['.%2e/x.js', 'app/sub/deep.js'],
];

// Checked against a real import() from app/probe.mjs: Node adds the CommonJS hint ("Did you mean to
// import ...?") and rejects URL schemes and unknown builtins only there, not in a resolve hook's next().
const IMPORT_CASES: string[] = [
  './x', './dir', './nope', '../app/x', '__ABS__/app/x', 'dep-plain/lib/other', 'exp/cjs/f', './sub/deep',
  'dep-plain/lib', './a b', 'file:./x', '__URL__/app/x',
  'http://example.com/x.js', 'node:nope', './x.js',
];

const expand = (req: string) => req.replace('__ABS__', R).replace('__URL__', pathToFileURL(R).href);

function outcomeOf(fn: () => Outcome): Outcome {
  try {
    return fn();
  } catch (e) {
    const err = e as Error & { code?: string; requireStack?: string[] };
    const o: Outcome = { code: err.code, message: err.message, name: err.name };
    if (err.requireStack) o.requireStack = err.requireStack;
    return o;
  }
}

// Compares an outcome with the host's: the result, or the error code, class and (for the codes whose texts
// users read) the message.
function expectSame(mine: Outcome, host: Outcome): void {
  if (host.ok !== undefined) {
    expect(mine).toMatchObject({ ok: host.ok });
    if (host.format) expect(mine.format).toBe(host.format);
    return;
  }
  expect(mine.ok).toBeUndefined();
  expect(mine.code).toBe(host.code);
  expect(mine.name).toBe(host.name);
  expect(mine.message).toBe(host.message);
  if (host.requireStack) expect(mine.requireStack).toEqual(host.requireStack);
}

// The ESM side of the host runs in one child node: a resolve hook calls Node's default resolver for each
// (specifier, parent) and hands back the result or the error as a tiny module.
const HOOKS = `
export async function resolve(specifier, context, next) {
  if (!specifier.startsWith('probe:')) return next(specifier, context);
  const { s, p, i } = JSON.parse(decodeURIComponent(specifier.slice(6)));
  let out;
  try {
    const r = await next(s, { ...context, parentURL: p });
    out = { ok: r.url, format: r.format ?? null };
  } catch (e) {
    out = { code: e.code, message: e.message, name: e.name };
  }
  return { url: 'probe-result:' + encodeURIComponent(JSON.stringify(out)) + '#' + i, shortCircuit: true };
}
export async function load(url, context, next) {
  if (!url.startsWith('probe-result:')) return next(url, context);
  const json = decodeURIComponent(url.slice(13, url.indexOf('#')));
  return { format: 'module', source: 'export default ' + json, shortCircuit: true };
}
`;
const PROBE = `
export async function probe(list) {
  const out = [];
  for (const s of list) {
    try { await import(s); out.push({ ok: s }); } catch (e) { out.push({ code: e.code, message: e.message, name: e.name }); }
  }
  return out;
}
`;
const RUNNER = `
import { register } from 'node:module';
import { readFileSync } from 'node:fs';
const [hooks, casesFile, probeURL, importsFile] = process.argv.slice(1);
const imports = await (await import(probeURL)).probe(JSON.parse(readFileSync(importsFile, 'utf8')));
register(hooks);
const cases = JSON.parse(readFileSync(casesFile, 'utf8'));
const out = [];
for (let i = 0; i < cases.length; i++) {
  const [s, p] = cases[i];
  out.push((await import('probe:' + encodeURIComponent(JSON.stringify({ s, p, i })))).default);
}
process.stdout.write(JSON.stringify({ out, imports }));
`;

let resolver: Resolver;
let hostEsm: Outcome[] = [];
let hostImports: Outcome[] = [];
let createResolver: (fsi: FsInterface) => Resolver;

beforeAll(() => {
  R = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentos-resolve-')));
  buildFixtures();
  createResolver = loadResolverModule().createResolver;
  // The host child runs in app/: Node takes the CommonJS hint of ESM errors relative to the working directory.
  resolver = createResolver({ ...hostFs(), cwd: () => F('app') });
  fs.writeFileSync(F('hooks.mjs'), HOOKS);
  fs.writeFileSync(F('cases.json'), JSON.stringify(ESM_CASES.map(([s, p]) => [expand(s), U(p)])));
  fs.writeFileSync(F('app/probe.mjs'), PROBE);
  fs.writeFileSync(F('imports.json'), JSON.stringify(IMPORT_CASES.map(expand)));
  const child = spawnSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', RUNNER,
    U('hooks.mjs'), F('cases.json'), U('app/probe.mjs'), F('imports.json')], { encoding: 'utf8', timeout: RUN_DEADLINE_MS, cwd: F('app') });
  if (child.status !== 0) throw new Error(`host ESM probe failed: ${child.stderr}`);
  ({ out: hostEsm, imports: hostImports } = JSON.parse(child.stdout) as { out: Outcome[]; imports: Outcome[] });
});

afterAll(() => {
  if (R) fs.rmSync(R, { recursive: true, force: true });
});

describe('CommonJS resolution matches the host', () => {
  it.each(CJS_CASES)('require.resolve(%j) from %s', (req, parent) => {
    const request = expand(req);
    const host = outcomeOf(() => {
      const r = createRequire(F(parent)).resolve(request);
      return { ok: path.isAbsolute(r) || r.startsWith('node:') ? r : `node:${r}` };
    });
    const mine = outcomeOf(() => ({ ok: resolver.resolveCjs(request, F(parent), path.dirname(F(parent)), [F(parent)]) }));
    expectSame(mine, host);
  });
});

describe('ESM resolution matches the host', () => {
  it.each(ESM_CASES.map((c, i) => [...c, i] as const))('import %j from %s', (spec, parent, i) => {
    const host = hostEsm[i]!;
    const mine = outcomeOf(() => {
      const r = resolver.resolveEsm(expand(spec), U(parent));
      return { ok: r.url, format: r.format };
    });
    // The host's resolve gives builtins no format; ours says 'builtin'.
    if (host.ok?.startsWith('node:')) expect(mine.format).toBe('builtin');
    expectSame(mine, { ...host, format: host.ok?.startsWith('node:') ? null : host.format });
  });
});

describe('ESM errors match a real import() on the host', () => {
  it('sees the hints there', () => {
    expect(hostImports.filter((h) => h.message?.includes('\nDid you mean to import')).length).toBeGreaterThan(3);
  });
  it.each(IMPORT_CASES.map((c, i) => [c, i] as const))('import(%j) from app/probe.mjs', (spec, i) => {
    const host = hostImports[i]!;
    const mine = outcomeOf(() => ({ ok: resolver.resolveEsm(expand(spec), U('app/probe.mjs')).url }));
    if (host.ok !== undefined) expect(mine.ok).toBeDefined();
    else expectSame(mine, host);
  });
});

describe('formats and helpers', () => {
  it('gives formats by extension and package type', () => {
    const fmt = (spec: string, parent: string) => resolver.resolveEsm(spec, U(parent)).format;
    expect(fmt('./a.js', 'mod/a.mjs')).toBe('module');
    expect(fmt('./c.cjs', 'mod/a.mjs')).toBe('commonjs');
    expect(fmt('./data.json', 'mod/a.mjs')).toBe('json');
    expect(fmt('./extless', 'mod/a.mjs')).toBe('module');
    expect(fmt('./cjs/k.js', 'mod/a.mjs')).toBe('commonjs');
    expect(fmt('./x.js', 'app/a.mjs')).toBe('commonjs');
    expect(fmt('./feat.mjs', 'app/a.js')).toBe('module');
    expect(fmt('esm-only', 'app/a.mjs')).toBe('module');
    expect(fmt('node:fs', 'app/a.mjs')).toBe('builtin');
    expect(resolver.packageType(F('mod/b.js'))).toBe('module');
    expect(resolver.packageType(F('app/x.js'))).toBe('commonjs');
    expect(resolver.packageType(F('app/node_modules/dep-index/index.js'))).toBe('commonjs');
  });

  it('rejects unknown builtins and extensions', () => {
    expect(outcomeOf(() => ({ ok: resolver.resolveEsm('node:nope', U('app/a.mjs')).url })).code)
      .toBe('ERR_UNKNOWN_BUILTIN_MODULE');
    write('app/q.txt');
    expect(outcomeOf(() => ({ ok: resolver.resolveEsm('./q.txt', U('app/a.mjs')).url })).code)
      .toBe('ERR_UNKNOWN_FILE_EXTENSION');
  });

  it('computes node_modules paths as Module._nodeModulePaths', () => {
    const nmp = (Module as unknown as { _nodeModulePaths(d: string): string[] })._nodeModulePaths;
    for (const dir of ['/', '/a', '/a/b/c', '/a/node_modules/b', '/a/node_modules/@s/b/node_modules/c/lib',
      '/node_modules', '/a/xnode_modules/b', F('app/sub')]) {
      expect(resolver.nodeModulePaths(dir)).toEqual(nmp(dir));
    }
  });

  it('finds the package scope without crossing node_modules', () => {
    expect(resolver.readPackageScope(F('app/sub/deep.js'))).toMatchObject({ path: F('app'), data: { name: 'app' } });
    expect(resolver.readPackageScope(F('app/node_modules/dep-index/index.js'))).toBeUndefined();
  });

  it('resolves for -e (no parent file) against the directory', () => {
    expect(resolver.resolveCjs('./x', undefined, F('app'), [])).toBe(F('app/x.js'));
    expect(resolver.resolveCjs('app/feat', undefined, F('app'), [])).toBe(F('app/feat.cjs'));
    expect(resolver.resolveCjs('#util', undefined, F('app'), [])).toBe(F('app/src/util.js'));
    const e = outcomeOf(() => ({ ok: resolver.resolveCjs('./nope', undefined, F('app'), []) }));
    expect(e).toMatchObject({ code: 'MODULE_NOT_FOUND', message: "Cannot find module './nope'", requireStack: [] });
  });

  it('reads each package.json once per resolver', () => {
    const reads: string[] = [];
    const r = createResolver(hostFs(reads));
    for (let i = 0; i < 3; i++) {
      r.resolveCjs('exp/feature', F('app/a.js'), F('app'), []);
      r.resolveEsm('exp/feature', U('app/a.mjs'));
    }
    const pj = F('app/node_modules/exp/package.json');
    expect(reads.filter((p) => p === pj)).toHaveLength(1);
  });

  it('creates errors with the context constructors and Node properties', () => {
    let caught: unknown;
    try { resolver.resolveCjs('./nope', F('app/a.js'), F('app'), [F('app/a.js'), F('app/b.js')]); } catch (e) { caught = e; }
    expect(caught instanceof Error).toBe(false); // an Error of the guest context, not the host's
    expect(caught).toMatchObject({ code: 'MODULE_NOT_FOUND', requireStack: [F('app/a.js'), F('app/b.js')] });
    expect((caught as Error).message).toBe(`Cannot find module './nope'\nRequire stack:\n- ${F('app/a.js')}\n- ${F('app/b.js')}`);
  });
});
