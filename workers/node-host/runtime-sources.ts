import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The host files the guest's runtime is made of: the only host files a worker ever reads for a guest (the
 * guest's own files come from the kernel). The guest's realm names them by id, and each id is checked here
 * against a list fixed at boot, so a request from that realm, whatever it says, reads nothing else.
 */

/** The runtime's own files (workers/node-guest/{internal,builtins}/…/NAME.js) as ids "internal/NAME". */
export function listRuntimeFiles(guestDir: URL): ReadonlySet<string> {
  const ids = new Set<string>();
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(join(fileURLToPath(guestDir), dir), { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else if (entry.name.endsWith(".js")) ids.add(`${prefix}${entry.name.slice(0, -3)}`);
    }
  };
  for (const top of ["internal", "builtins"]) walk(top, `${top}/`);
  return ids;
}

/**
 * The polyfills' files: JavaScript files, by real path, inside the packages the runtime takes polyfills from
 * or inside the packages those depend on (their package.json `dependencies`, transitively). Resolution is
 * Node's own (`require.resolve` from the requiring file); its answer is kept only when it is such a file.
 *
 * Finding the packages and resolving the files a boot loads takes Node's resolver a good part of a worker's
 * boot (real paths, package.json reads), with the same answers in every worker of a host process. So the first
 * worker's answers, made while it booted and before any guest code ran, are given to the next ones
 * (`snapshot()`, src/pool/node-workers.ts), as its code caches are.
 */
export class PolyfillFiles {
  private readonly roots: string[] = [];
  private readonly files = new Set<string>();
  /** `from\0request` → the real path it resolves to, "" for none. */
  private readonly resolved = new Map<string, string>();

  /** `entries` are the polyfills' entry requests ("readable-stream/lib/ours/index.js", "cjs-module-lexer"). */
  constructor(entries: readonly string[], private readonly require: NodeJS.Require, known?: PolyfillSnapshot) {
    if (known) {
      this.roots.push(...known.roots);
      for (const [key, real] of known.resolved) this.resolved.set(key, real);
      return;
    }
    const pending: [string, NodeJS.Require][] = entries.map((e) => [e, require]);
    for (let next = pending.pop(); next; next = pending.pop()) {
      const [request, from] = next;
      const root = packageRoot(resolveOrUndefined(from, request) ?? resolveOrUndefined(from, `${packageName(request)}/package.json`));
      if (root === undefined || this.roots.includes(root)) continue;
      this.roots.push(root);
      const deps = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { dependencies?: Record<string, string> }).dependencies ?? {};
      const fromRoot = createRequire(join(root, "package.json"));
      for (const dep of Object.keys(deps)) pending.push([dep, fromRoot]);
    }
  }

  /** The real path of `request` as required from the allowed file `from` (from the runtime when undefined), if allowed. */
  resolve(request: string, from: string | undefined): string | undefined {
    if (from !== undefined && !this.files.has(from)) return undefined;
    const key = `${from ?? ""}\0${request}`;
    let real = this.resolved.get(key);
    if (real === undefined) this.resolved.set(key, (real = this.lookUp(request, from)));
    if (real === "") return undefined;
    this.files.add(real);
    return real;
  }

  /** What this worker found, for the next workers: taken before any guest code has run. */
  snapshot(): PolyfillSnapshot {
    return { roots: [...this.roots], resolved: [...this.resolved] };
  }

  private lookUp(request: string, from: string | undefined): string {
    const file = resolveOrUndefined(from === undefined ? this.require : createRequire(from), request);
    if (file === undefined || !isAbsolute(file)) return "";
    const real = realpathSync(file);
    return /\.c?js$/.test(real) && this.roots.some((root) => real.startsWith(root + sep)) ? real : "";
  }

  /** `file` when it is a polyfill file resolved before, else undefined. */
  allowed(file: string): string | undefined {
    return this.files.has(file) ? file : undefined;
  }
}

/** The packages found and the resolutions made by a worker's boot (PolyfillFiles.snapshot). */
export interface PolyfillSnapshot {
  roots: string[];
  resolved: [string, string][];
}

function resolveOrUndefined(require: NodeJS.Require, request: string): string | undefined {
  try {
    return require.resolve(request);
  } catch {
    return undefined;
  }
}

/** "readable-stream/lib/x.js" → "readable-stream"; "@scope/name/x" → "@scope/name". */
function packageName(request: string): string {
  const parts = request.split("/");
  return parts.slice(0, request.startsWith("@") ? 2 : 1).join("/");
}

/** The real directory of the package a file belongs to: the nearest package.json that has a name. */
function packageRoot(file: string | undefined): string | undefined {
  if (file === undefined || !isAbsolute(file)) return undefined;
  for (let dir = dirname(realpathSync(file)); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      if (typeof (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown }).name === "string") return dir;
    } catch {
      // no package.json here, or not one that names a package
    }
  }
  return undefined;
}
