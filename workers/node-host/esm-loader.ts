import { fileURLToPath } from "node:url";
import type { System } from "../system.js";
import { sourceTextModule, syntheticModule, type DynamicImport, type Module, type SourceTextModule } from "./compile.js";

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
  private readonly urls = new WeakMap<object, string>();
  /** Each module's link-and-evaluate, shared by every import of it (two `import()`s may race). */
  private readonly ready = new WeakMap<Module, Promise<void>>();
  /** What `import()` hands back for a module that exports `then` (see importDynamic). */
  private readonly withoutThen = new WeakMap<Module, Module>();

  constructor(
    private readonly context: object,
    private readonly sys: System,
    private readonly dynamicImport: DynamicImport,
    private readonly dispatch: Dispatch,
    /** Whether a value is of the worker's realm (an error of Node's vm machinery): it must not reach the guest. */
    private readonly isHostValue: (v: unknown) => boolean,
  ) {}

  urlOf(referrer: object): string | undefined {
    return this.urls.get(referrer);
  }

  /** Loads, links and evaluates the main module; a failure is the guest's uncaught error. */
  runMain(url: string, source?: string): void {
    this.load(url, "module", source)
      .then((m) => this.instantiate(m))
      .catch((e: unknown) => this.dispatch("fatal", this.guestError(e)));
  }

  /**
   * `import()`: resolves against `parent` (a file URL or path; the working directory when undefined). It
   * rejects only with values of the guest's realm. Node's wrapper resolves a promise of the worker's realm
   * with the module's namespace, which would call an exported `then` with resolving functions of the
   * worker's realm: such a module is handed back as a copy without `then`.
   */
  async importDynamic(specifier: string, parent: string | undefined): Promise<Module> {
    try {
      const base = parent === undefined ? `file://${this.sys.cwd}/[eval]` : parent.startsWith("file:") || parent.startsWith("node:") ? parent : `file://${parent}`;
      const resolved = this.resolve(specifier, base);
      const m = await this.load(resolved.url, resolved.format);
      await this.instantiate(m);
      return await this.thenless(m);
    } catch (e) {
      throw this.guestError(e);
    }
  }

  private guestError(e: unknown): unknown {
    if (!this.isHostValue(e)) return e;
    const { code, message } = e as { code?: unknown; message?: unknown };
    return this.dispatch("makeError", "Error", typeof code === "string" ? code : "ERR_VM_MODULE", typeof message === "string" ? message : "module error");
  }

  private async thenless(m: Module): Promise<Module> {
    const ns = m.namespace as Record<string, unknown>;
    if (!Object.prototype.hasOwnProperty.call(ns, "then")) return m;
    let copy = this.withoutThen.get(m);
    if (!copy) {
      const names = Object.keys(ns).filter((n) => n !== "then");
      copy = syntheticModule(this.context, names, m.identifier, (sm) => {
        for (const name of names) sm.setExport(name, ns[name]);
      });
      this.withoutThen.set(m, copy);
    }
    await this.instantiate(copy);
    return copy;
  }

  private instantiate(m: Module): Promise<void> {
    let p = this.ready.get(m);
    if (!p) {
      p = (async () => {
        if (m.status === "unlinked") await m.link((specifier, referencing) => this.linked(specifier, referencing));
        await m.evaluate();
      })();
      this.ready.set(m, p);
    }
    return p;
  }

  private async linked(specifier: string, referencing: Module): Promise<Module> {
    const r = this.resolve(specifier, referencing.identifier);
    const m = await this.load(r.url, r.format);
    // A module that failed to evaluate fails its importers with its own error, as Node's loader does.
    if (m.status === "errored") throw m.error;
    return m;
  }

  private resolve(specifier: string, parentUrl: string): { url: string; format: string } {
    const r = this.dispatch("resolveEsm", specifier, parentUrl);
    if (typeof r !== "string") throw r; // the guest's own error (ERR_MODULE_NOT_FOUND, …)
    const nul = r.indexOf("\0");
    return { format: r.slice(0, nul), url: r.slice(nul + 1) };
  }

  private async load(url: string, format: string, given?: string): Promise<Module> {
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
      m = sourceTextModule(this.context, source.startsWith("#!") ? `//${source}` : source, url, {
        dynamicImport: this.dynamicImport,
        initMeta: (meta, module) => void this.dispatch("initMeta", meta, module.identifier),
      });
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
    this.urls.set(m, url);
    return m;
  }
}

export type { SourceTextModule };
