/**
 * Rewrites a WebAssembly module so that its linear memory is imported instead of defined, so that the
 * runtime creates the memory itself and can give it a maximum (Limits.maxProcessMemoryBytes): a guest
 * that grows past it sees memory.grow fail, inside the guest, instead of growing the host.
 *
 * The published binaries define one memory without a maximum and import none (guest-abi §1). The memory
 * section (id 5) is dropped and `(import "agentos" "memory" (memory <min>))` is appended to the import
 * section (id 2), which is created if absent. Imported memories come first in the memory index space and
 * the module imports none, so the new import is memory 0 like the definition was: the `memory` export and
 * the data segments stay valid without being touched. Only section headers and the two sections are
 * parsed; function bodies are copied as they are.
 *
 * Binary format: https://webassembly.github.io/spec/core/binary/modules.html
 */

import { GUEST_MEMORY_IMPORT } from "../abi/process-task.js";

export interface MemoryImportModule {
  /** The rewritten module (a fresh buffer, as WebAssembly.compile wants). */
  bytes: Uint8Array<ArrayBuffer>;
  /** The memory's minimum, in pages: the imported memory must start at least this large. */
  minimumPages: number;
  /** The maximum the module declared for itself, in pages, if any (the published binaries declare none). */
  maximumPages: number | undefined;
}

const SECTION_IMPORT = 2;
const SECTION_MEMORY = 5;
const IMPORT_KIND_MEMORY = 0x02;
const LIMITS_MIN = 0x00;
const LIMITS_MIN_MAX = 0x01;
const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]; // "\0asm", version 1

/**
 * Where each known section must come (the order is not the order of ids: tag 13 sits after memory,
 * data count 12 before code). Custom sections (id 0) may appear anywhere and have no rank.
 */
const SECTION_RANK: Record<number, number> = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 13: 6, 6: 7, 7: 8, 8: 9, 9: 10, 12: 11, 10: 12, 11: 13 };

/** Thrown for a module this rewrite does not handle; the module would not have run here anyway. */
export class MemoryImportError extends Error {
  override name = "MemoryImportError";
}

/** Reads unsigned LEB128 values (u32 at most) from `bytes`, advancing `pos`. */
class Reader {
  pos: number;
  constructor(
    readonly bytes: Uint8Array,
    pos = 0,
  ) {
    this.pos = pos;
  }
  byte(): number {
    if (this.pos >= this.bytes.length) throw new MemoryImportError("unexpected end of module");
    return this.bytes[this.pos++]!;
  }
  u32(): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift; // multiplication, not <<, so bit 31 does not turn the value negative
      if ((b & 0x80) === 0) return result;
    }
    throw new MemoryImportError("LEB128 value longer than 5 bytes");
  }
  /** Skips a name (a length-prefixed UTF-8 vector). */
  skipName(): void {
    const length = this.u32(); // read first: `pos += u32()` would add to the position before the length
    this.pos += length;
  }
}

/** Unsigned LEB128 encoding of `n` (shortest form). */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

function name(s: string): number[] {
  const utf8 = new TextEncoder().encode(s);
  return [...leb(utf8.length), ...utf8];
}

interface Section {
  id: number;
  /** Where the section's id byte is. */
  header: number;
  /** Start of the section's contents (after id and size). */
  start: number;
  end: number;
}

function sections(bytes: Uint8Array): Section[] {
  if (bytes.length < HEADER.length || HEADER.some((b, i) => bytes[i] !== b))
    throw new MemoryImportError("not a WebAssembly module (version 1)");
  const out: Section[] = [];
  const r = new Reader(bytes, HEADER.length);
  while (r.pos < bytes.length) {
    const header = r.pos;
    const id = r.byte();
    const size = r.u32();
    const start = r.pos;
    if (start + size > bytes.length) throw new MemoryImportError(`section ${id} runs past the end of the module`);
    out.push({ id, header, start, end: start + size });
    r.pos = start + size;
  }
  return out;
}

/** The limits of the module's one memory definition. */
function readMemorySection(bytes: Uint8Array, s: Section): { min: number; max: number | undefined } {
  const r = new Reader(bytes, s.start);
  if (r.u32() !== 1) throw new MemoryImportError("the module must define exactly one memory");
  const flags = r.byte();
  // 0x02/0x03 (shared memory) and 0x04 and up (memory64) are not ours to rewrite: the binaries use neither.
  if (flags !== LIMITS_MIN && flags !== LIMITS_MIN_MAX) throw new MemoryImportError(`unsupported memory limits flags 0x${flags.toString(16)}`);
  const min = r.u32();
  const max = flags === LIMITS_MIN_MAX ? r.u32() : undefined;
  if (r.pos !== s.end) throw new MemoryImportError("malformed memory section");
  return { min, max };
}

/**
 * The import section's entry count and where its entries start (the count may be padded LEB128, so its
 * length is read, not computed). Checks that no memory is imported already: that one would be index 0.
 */
function readImports(bytes: Uint8Array, s: Section): { count: number; entriesStart: number } {
  const r = new Reader(bytes, s.start);
  const count = r.u32();
  const entriesStart = r.pos;
  for (let i = 0; i < count; i++) {
    r.skipName();
    r.skipName();
    const kind = r.byte();
    switch (kind) {
      case 0x00: // function: type index
        r.u32();
        break;
      case 0x01: // table: reference type, limits
        r.byte();
        if (r.byte() & 0x01) r.u32();
        r.u32();
        break;
      case 0x03: // global: value type, mutability
        r.byte();
        r.byte();
        break;
      case 0x04: // tag: attribute, type index
        r.byte();
        r.u32();
        break;
      default:
        throw new MemoryImportError(kind === IMPORT_KIND_MEMORY ? "the module already imports a memory" : `unknown import kind ${kind}`);
    }
  }
  if (r.pos !== s.end) throw new MemoryImportError("malformed import section");
  return { count, entriesStart };
}

/** Returns `module` with its memory definition turned into the import `agentos.memory`. */
export function importMemory(module: Uint8Array): MemoryImportModule {
  const all = sections(module);
  const memories = all.filter((s) => s.id === SECTION_MEMORY);
  if (memories.length !== 1) throw new MemoryImportError("the module must have one memory section");
  const { min, max } = readMemorySection(module, memories[0]!);
  const imports = all.find((s) => s.id === SECTION_IMPORT);
  const { count, entriesStart } = imports ? readImports(module, imports) : { count: 0, entriesStart: 0 };

  // The existing imports' bytes (after their count) are kept; only the count changes and one entry is added.
  const entries = imports ? module.subarray(entriesStart, imports.end) : new Uint8Array();
  const entry = [...name(GUEST_MEMORY_IMPORT.module), ...name(GUEST_MEMORY_IMPORT.name), IMPORT_KIND_MEMORY, LIMITS_MIN, ...leb(min)];
  const body = [...leb(count + 1), ...entries, ...entry];
  const importSection = Uint8Array.from([SECTION_IMPORT, ...leb(body.length), ...body]);

  const out: Uint8Array[] = [Uint8Array.from(HEADER)];
  let placed = false;
  for (const s of all) {
    // A module without imports gets the new section before the first section that must follow it.
    if (!placed && !imports && s.id !== 0 && SECTION_RANK[s.id]! > SECTION_RANK[SECTION_IMPORT]!) {
      out.push(importSection);
      placed = true;
    }
    if (s.id === SECTION_MEMORY) continue;
    if (s.id === SECTION_IMPORT) {
      out.push(importSection);
      placed = true;
      continue;
    }
    out.push(module.subarray(s.header, s.end));
  }
  if (!placed) out.push(importSection);
  return { bytes: concat(out), minimumPages: min, maximumPages: max };
}

function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
