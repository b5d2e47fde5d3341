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

  constructor(
    private readonly context: object,
    private readonly sys: System,
    private readonly dynamicImport: DynamicImport,
    private readonly dispatch: Dispatch,
  ) {}

  urlOf(referrer: object): string | undefined {
    return this.urls.get(referrer);
  }

  /** Loads, links and evaluates the main module; a failure is the guest's uncaught error. */
  runMain(url: string, source?: string): void {
    this.load(url, "module", source)
      .then((m) => this.instantiate(m))
      .catch((e: unknown) => this.dispatch("fatal", e));
  }

  /** `import()`: resolves against `parent` (a file URL or path; the working directory when undefined). */
  async importDynamic(specifier: string, parent: string | undefined): Promise<Module> {
    const resolved = this.resolve(specifier, parent === undefined ? `file://${this.sys.cwd}/[eval]` : parent.startsWith("file:") || parent.startsWith("node:") ? parent : `file://${parent}`);
    const m = await this.load(resolved.url, resolved.format);
    await this.instantiate(m);
    return m;
  }

  private async instantiate(m: Module): Promise<void> {
    if (m.status === "unlinked") await m.link((specifier, referencing) => this.linked(specifier, referencing));
    if (m.status === "linked") await m.evaluate();
    else if (m.status === "evaluating" || m.status === "evaluated") await m.evaluate();
    else if (m.status === "errored") throw m.error;
  }

  private linked(specifier: string, referencing: Module): Promise<Module> {
    const r = this.resolve(specifier, referencing.identifier);
    return this.load(r.url, r.format);
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
        for (const name of list) sm.setExport(name, this.dispatch("exportValue", format, url, name));
      });
    }
    this.modules.set(url, m);
    this.urls.set(m, url);
    return m;
  }
}

export type { SourceTextModule };
