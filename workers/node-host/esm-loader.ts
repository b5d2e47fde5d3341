import { fileURLToPath } from "node:url";
import type { System } from "../system.js";
import { sourceTextModule, syncLinkable, syncLinking, syntheticModule, type Module, type SourceTextModule } from "./compile.js";

type Dispatch = (...args: unknown[]) => unknown;

/**
 * ES modules of the guest, as `vm.SourceTextModule`s in its context (live bindings, cycles, top-level
 * await, import.meta). Resolution is the guest's own (workers/node-guest/internal/resolve.js, asked through
 * `dispatch`); builtins, CommonJS and JSON become synthetic modules whose values the guest's loader gives.
 * Guest values pass through here untouched: this code never reads a property of one. Failures reach the
 * guest as errors made in its realm.
 */
export class EsmLoader {
  private readonly modules = new Map<string, Module>();
  /** Each module's link-and-evaluate, shared by every import of it (two `import()`s may race). */
  private readonly ready = new WeakMap<Module, Promise<void>>();
  /** Linked synchronously: the modules given for each source text module's requests. */
  private readonly deps = new WeakMap<Module, Module[]>();
  /** What `require()` gives for a module with a default export and no `__esModule` (requiredNamespace). */
  private readonly facades = new WeakMap<Module, Module>();

  constructor(
    private readonly context: object,
    private readonly sys: System,
    private readonly dispatch: Dispatch,
    /** Whether a value is of the worker's realm (an error of Node's vm machinery): it must not reach the guest. */
    private readonly isHostValue: (v: unknown) => boolean,
  ) {}

  /** Loads, links and evaluates the main module; a failure is the guest's uncaught error. */
  runMain(url: string, source?: string): void {
    this.load(url, "module", source)
      .then((m) => this.instantiate(m))
      .catch((e: unknown) => this.dispatch("fatal", this.guestError(e)));
  }

  /**
   * `import()`: resolves against `parent` (a file URL or path; the working directory when undefined) and
   * settles the guest's promise through its resolving functions, with the module's namespace or a value of
   * the guest's realm. As in Node, a namespace that exports `then` is a thenable to them. `attributes` are the
   * import attributes as "key\0value" pairs, which the guest checks against the module's format.
   */
  importDynamic(specifier: string, parent: string | undefined, attributes: string, resolve: Function, reject: Function): void {
    this.namespaceOf(specifier, parent, attributes).then(
      (ns) => resolve(ns),
      (e: unknown) => reject(this.guestError(e)),
    );
  }

  private async namespaceOf(specifier: string, parent: string | undefined, attributes: string): Promise<unknown> {
    const base = parent === undefined ? `file://${this.sys.cwd}/[eval]` : parent.startsWith("file:") ? parent : `file://${parent}`;
    const resolved = this.resolve(specifier, base, attributes);
    const m = await this.load(resolved.url, resolved.format);
    await this.instantiate(m);
    return m.namespace;
  }

  /**
   * `require()` of the ES module at `url`, as Node ≥ 20.19 / 22.12 does it: the graph is loaded, linked and
   * evaluated before this returns, in the same module map as `import` (a module is never evaluated twice).
   * Answers the namespace `require` gives (the guest applies the 'module.exports' export), or a marker:
   * "\0UNSUPPORTED" (this Node cannot link synchronously), "\0ASYNC" (top-level await in the graph),
   * "\0CYCLE" (part of the graph is still being evaluated), "\0THREW" after handing the guest what was thrown
   * (dispatch "requireError"; a value of its realm).
   */
  requireModule(url: string): unknown {
    if (!syncLinking) return "\0UNSUPPORTED";
    try {
      const m = this.loadSync(url, "module");
      this.linkSync(m);
      if (syncLinkable(m).hasAsyncGraph()) return "\0ASYNC";
      if (this.evaluating(m, new Set())) return "\0CYCLE";
      this.evaluateSync(m);
      if (m.status === "errored") throw m.error;
      return this.requiredNamespace(m);
    } catch (e) {
      this.dispatch("requireError", this.guestError(e));
      return "\0THREW";
    }
  }

  /** Whether a module of `m`'s graph is being evaluated (a `require` from inside its own import). */
  private evaluating(m: Module, seen: Set<Module>): boolean {
    if (seen.has(m)) return false;
    seen.add(m);
    if (m.status === "evaluating") return true;
    for (const d of this.deps.get(m) ?? []) if (this.evaluating(d, seen)) return true;
    return false;
  }

  /** Evaluates a linked graph without top-level await: done when evaluate() returns (its promise is not needed). */
  private evaluateSync(m: Module): void {
    if (m.status === "evaluated" || m.status === "errored") return;
    // A rejection left unhandled would reach the worker's unhandledRejection with a promise of its realm.
    m.evaluate().catch(() => {});
  }

  /**
   * As Node: a module with a default export and no `__esModule` export is required as a namespace that adds
   * `__esModule: true` (a module re-exporting it, with live bindings); any other as its own namespace.
   */
  private requiredNamespace(m: Module): unknown {
    const ns = m.namespace as object;
    const has = (name: string): boolean => Object.prototype.hasOwnProperty.call(ns, name);
    if (has("module.exports") || !has("default") || has("__esModule")) return ns;
    let facade = this.facades.get(m);
    if (!facade) {
      const source = "export * from 'original'; export { default } from 'original'; export const __esModule = true;";
      facade = sourceTextModule(this.context, source, m.identifier, () => {});
      const linking = syncLinkable(facade);
      linking.linkRequests([m]);
      linking.instantiate();
      this.evaluateSync(facade);
      this.facades.set(m, facade);
    }
    return facade.namespace;
  }

  /**
   * Links `root`'s graph without waiting (syncLinking): each source text module not yet linked gets the
   * modules of its requests, then the graph is instantiated. A module whose instantiation failed (a missing
   * export) keeps its requests and fails again the same way.
   */
  private linkSync(root: Module): void {
    const visit = (m: Module): void => {
      if (m.status !== "unlinked" || this.deps.has(m)) return;
      const linking = syncLinkable(m);
      const requests = linking.moduleRequests;
      const modules = requests.map((request) => {
        const r = this.resolve(request.specifier, m.identifier, attributePairs((request as { attributes?: unknown }).attributes));
        const d = this.loadSync(r.url, r.format);
        // A module that failed to evaluate fails its importers with its own error, as Node's loader does.
        if (d.status === "errored") throw d.error;
        return d;
      });
      linking.linkRequests(modules);
      this.deps.set(m, modules);
      for (const d of modules) visit(d);
    };
    visit(root);
    if (root.status === "unlinked") syncLinkable(root).instantiate();
  }

  private guestError(e: unknown): unknown {
    if (!this.isHostValue(e)) return e;
    const { code, message, name } = e as { code?: unknown; message?: unknown; name?: unknown };
    const text = typeof message === "string" ? message : "module error";
    if (name === "SyntaxError") return this.dispatch("makeError", "SyntaxError", undefined, text);
    return this.dispatch("makeError", "Error", typeof code === "string" ? code : "ERR_VM_MODULE", text);
  }

  private instantiate(m: Module): Promise<void> {
    let p = this.ready.get(m);
    if (!p) {
      p = (async () => {
        if (syncLinking) this.linkSync(m);
        else if (m.status === "unlinked") await m.link((specifier, referencing, extra) => this.linked(specifier, referencing, attributePairs((extra as { attributes?: unknown } | undefined)?.attributes)));
        await m.evaluate();
      })();
      this.ready.set(m, p);
    }
    return p;
  }

  private async linked(specifier: string, referencing: Module, attributes: string): Promise<Module> {
    const r = this.resolve(specifier, referencing.identifier, attributes);
    const m = await this.load(r.url, r.format);
    // A module that failed to evaluate fails its importers with its own error, as Node's loader does.
    if (m.status === "errored") throw m.error;
    return m;
  }

  private resolve(specifier: string, parentUrl: string, attributes: string): { url: string; format: string } {
    const r = this.dispatch("resolveEsm", specifier, parentUrl, attributes);
    if (typeof r !== "string") throw r; // the guest's own error (ERR_MODULE_NOT_FOUND, …)
    const nul = r.indexOf("\0");
    return { format: r.slice(0, nul), url: r.slice(nul + 1) };
  }

  private async load(url: string, format: string, given?: string): Promise<Module> {
    return this.loadSync(url, format, given);
  }

  private loadSync(url: string, format: string, given?: string): Module {
    const cached = this.modules.get(url);
    if (cached) return cached;
    let m: Module;
    if (format === "module") {
      let source: string;
      try {
        source = given ?? new TextDecoder().decode(this.sys.readFile(fileURLToPath(url)));
      } catch {
        throw this.dispatch("makeError", "Error", "ERR_MODULE_NOT_FOUND", `Cannot find module '${fileURLToPath(url)}'`);
      }
      m = sourceTextModule(this.context, source.startsWith("#!") ? `//${source}` : source, url, (meta, module) => void this.dispatch("initMeta", meta, module.identifier));
    } else {
      const names = this.dispatch("exportNames", format, url);
      if (typeof names !== "string") throw names;
      const list = names === "" ? [] : names.split("\0");
      m = syntheticModule(this.context, list, url, (sm) => {
        for (const name of list) {
          const value = this.dispatch("exportValue", format, url, name);
          if (value === "\0EXPORT_FAILED") throw this.dispatch("takeExportError");
          sm.setExport(name, value);
        }
      });
    }
    this.modules.set(url, m);
    return m;
  }
}

/** A static import's attributes (an object Node made, of string values) as the guest's "key\0value" pairs. */
function attributePairs(attributes: unknown): string {
  if (attributes === null || typeof attributes !== "object") return "";
  return Object.entries(attributes)
    .map(([key, value]) => `${key}\0${String(value)}`)
    .join("\0");
}

export type { SourceTextModule };
