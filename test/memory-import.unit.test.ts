import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import common from "@rivet-dev/agent-os-common";
import { describe, expect, it } from "vitest";
import { importMemory, MemoryImportError } from "../src/modules/memory-import.js";

const MEMORY_IMPORT = { module: "agentos", name: "memory", kind: "memory" };

/**
 * Every distinct binary the VM runs (guests/dist) and of the published coreutils package that the guest ABI
 * was first written for (guest-abi §1), by content hash: name → bytes.
 */
function publishedBinaries(): Map<string, Uint8Array<ArrayBuffer>> {
  const byHash = new Map<string, [string, Uint8Array<ArrayBuffer>]>();
  const dist = new URL("../guests/dist/", import.meta.url).pathname;
  const paths = readdirSync(dist).filter((f) => f.endsWith(".wasm")).map((f) => join(dist, f));
  for (const pkg of common as { commandDir: string }[]) {
    for (const file of readdirSync(pkg.commandDir)) paths.push(join(pkg.commandDir, file));
  }
  for (const path of paths) {
    const bytes = new Uint8Array(readFileSync(path));
    const hash = createHash("sha256").update(bytes).digest("hex");
    if (!byHash.has(hash)) byHash.set(hash, [basename(path), bytes]);
  }
  return new Map(byHash.values());
}

/** A stub for every function import, so that a module can be instantiated without running it. */
function stubImports(module: WebAssembly.Module, memory: WebAssembly.Memory): WebAssembly.Imports {
  const imports: Record<string, Record<string, WebAssembly.ImportValue>> = {};
  for (const i of WebAssembly.Module.imports(module)) {
    imports[i.module] ??= {};
    imports[i.module]![i.name] = i.kind === "memory" ? memory : () => 0;
  }
  return imports;
}

// ---- hand-built modules, to reach the corners the published binaries do not ----

const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const str = (s: string): number[] => [s.length, ...Buffer.from(s)];
const section = (id: number, body: number[]): number[] => [id, body.length, ...body];
/** type 0: () -> () */
const TYPES = section(1, [1, 0x60, 0, 0]);
const FUNC_IMPORT = [...str("env"), ...str("f"), 0x00, 0];
/** Exports memory 0 as "memory". */
const EXPORT_MEMORY = section(7, [1, ...str("memory"), 0x02, 0]);
/** One active data segment writing "hi" at offset 65536 + 10: valid only if memory 0 has 2 pages. */
const DATA = section(11, [1, 0x00, 0x41, 0x8a, 0x80, 0x04, 0x0b, 2, 0x68, 0x69]);
const build = (...sections: number[][]): Uint8Array => Uint8Array.from([...HEADER, ...sections.flat()]);

describe("importMemory", () => {
  it("rewrites every binary: one memory import more, the same exports, and it still compiles and links", () => {
    const binaries = publishedBinaries();
    expect(binaries.size).toBeGreaterThan(50);
    for (const [name, bytes] of binaries) {
      const original = new WebAssembly.Module(bytes);
      const { bytes: rewritten, minimumPages, maximumPages } = importMemory(bytes);
      const module = new WebAssembly.Module(rewritten);
      expect(WebAssembly.Module.imports(module), name).toEqual([...WebAssembly.Module.imports(original), MEMORY_IMPORT]);
      expect(WebAssembly.Module.exports(module), name).toEqual(WebAssembly.Module.exports(original));
      // No maximum (guest-abi §1 for the published ones: 17–37 initial pages; Go's start with more).
      expect(minimumPages, name).toBeGreaterThanOrEqual(17);
      expect(maximumPages, name).toBeUndefined();
      // Linking checks the minimum and the data segments (they must land in the imported memory 0).
      const memory = new WebAssembly.Memory({ initial: minimumPages, maximum: minimumPages + 1 });
      const instance = new WebAssembly.Instance(module, stubImports(module, memory));
      expect(instance.exports.memory, name).toBe(memory);
      const small = new WebAssembly.Memory({ initial: minimumPages - 1 });
      expect(() => new WebAssembly.Instance(module, stubImports(module, small)), name).toThrow(WebAssembly.LinkError);
    }
  });

  it("creates the import section when there is none, in the right place, and keeps the data in memory 0", () => {
    const custom = section(0, [...str("note"), 1, 2, 3]);
    const input = build(custom, TYPES, section(5, [1, 0x00, 2]), EXPORT_MEMORY, DATA);
    const { bytes, minimumPages, maximumPages } = importMemory(input);
    expect([minimumPages, maximumPages]).toEqual([2, undefined]);
    expect(bytes).toEqual(
      build(custom, TYPES, section(2, [1, ...str("agentos"), ...str("memory"), 0x02, 0x00, 2]), EXPORT_MEMORY, DATA),
    );
    const memory = new WebAssembly.Memory({ initial: 2 });
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { agentos: { memory } });
    expect(instance.exports.memory).toBe(memory);
    expect(Buffer.from(memory.buffer, 65536 + 10, 2).toString()).toBe("hi");
  });

  it("appends to an existing import section whose count and size are padded LEB128, and reports a declared maximum", () => {
    // Section size 0x8b 0x80 0x80 0x80 0x00 and count 0x81 0x80 0x00: the same values as 11 and 1, padded.
    const imports = [2, 0x8b, 0x80, 0x80, 0x80, 0x00, 0x81, 0x80, 0x00, ...FUNC_IMPORT];
    const memory = section(5, [1, 0x01, 0x80, 0x01, 0x90, 0x03]); // min 128, max 400: LEB of more than one byte
    const { bytes, minimumPages, maximumPages } = importMemory(build(TYPES, imports, memory, EXPORT_MEMORY));
    expect([minimumPages, maximumPages]).toEqual([128, 400]);
    const entry = [...str("agentos"), ...str("memory"), 0x02, 0x00, 0x80, 0x01];
    expect(bytes).toEqual(build(TYPES, section(2, [2, ...FUNC_IMPORT, ...entry]), EXPORT_MEMORY));
    expect(WebAssembly.Module.imports(new WebAssembly.Module(bytes))).toEqual([
      { module: "env", name: "f", kind: "function" },
      MEMORY_IMPORT,
    ]);
  });

  it("refuses what it cannot rewrite", () => {
    const cases: Array<[Uint8Array, string]> = [
      [Uint8Array.from([1, 2, 3]), "not a WebAssembly module (version 1)"],
      [build(TYPES), "the module must have one memory section"],
      [build(section(5, [0])), "the module must define exactly one memory"],
      [build(section(5, [2, 0, 1, 0, 1])), "the module must define exactly one memory"],
      [build(section(5, [1, 0x03, 1, 2])), "unsupported memory limits flags 0x3"],
      [build(section(2, [1, ...str("env"), ...str("m"), 0x02, 0x00, 1]), section(5, [1, 0, 1])), "the module already imports a memory"],
      [Uint8Array.from([...HEADER, 5, 9, 1, 0, 1]), "section 5 runs past the end of the module"],
    ];
    for (const [input, message] of cases) {
      expect(() => importMemory(input)).toThrow(MemoryImportError);
      expect(() => importMemory(input)).toThrow(message);
    }
  });
});
