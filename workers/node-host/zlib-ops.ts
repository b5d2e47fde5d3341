import { constants as bufferConstants } from "node:buffer";
import * as zlib from "node:zlib";
import { answer, type Bulk, decodeOptions, HandleTable, inputOf, relaying, unpack } from "./host-assist.js";
import type { HostOp, HostState } from "./host-ops.js";
import { roomBytes } from "./memory-budget.js";

/**
 * Host operations behind the guest's `zlib` (workers/node-guest/builtins/zlib.js): one-shot transforms, and
 * incremental engines for the stream classes. Conventions as in host-assist.ts (layouts, options strings, relayed
 * errors, output through the scratch or take).
 *
 * An engine is a zlib stream of the worker's node:zlib used only for its native handle, driven synchronously
 * the way Node's own processChunkSync drives it, without closing it after each chunk: the guest's stream pushes
 * what each write produces. Errors the native side reports are caught on the handle, so the worker's stream
 * never emits an event.
 */

const CLASSES: Record<string, string> = {
  deflate: "Deflate", inflate: "Inflate", gzip: "Gzip", gunzip: "Gunzip", deflateRaw: "DeflateRaw",
  inflateRaw: "InflateRaw", unzip: "Unzip", brotliCompress: "BrotliCompress", brotliDecompress: "BrotliDecompress",
};

interface NativeHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number): void;
  params(level: number, strategy: number): void;
  reset(): void;
  close(): void;
  onerror: (message: string, errno: number, code?: string) => void;
}

interface Engine {
  stream: zlib.Zlib & { destroy(): void };
  handle: NativeHandle;
  /** [availOutAfter, availInAfter], written by the handle. */
  state: Uint32Array;
  /** Reused output space; what a write produced is copied out of it. */
  out: Buffer;
  error?: Error;
}

const zlibError = (message: string, errno: number, code: string | undefined): Error => Object.assign(new Error(message), { errno, code });

const MAX_LENGTH = bufferConstants.MAX_LENGTH;

/** Node's error for output past `limit` (what its zlib throws past maxOutputLength). */
const tooLarge = (limit: number): Error => Object.assign(new RangeError(`Cannot create a Buffer larger than ${limit} bytes`), { code: "ERR_BUFFER_TOO_LARGE" });

/**
 * maxOutputLength for a one-shot transform: the guest's own, within what its process may still hold
 * (memory-budget.ts). An invalid one of the guest's is left for Node to refuse.
 */
export function boundedOutput(opts: Record<string, unknown> | undefined): Record<string, unknown> {
  const o = opts ?? (Object.create(null) as Record<string, unknown>);
  const room = Math.min(roomBytes(), MAX_LENGTH);
  const own = o["maxOutputLength"];
  if (own === undefined || (typeof own === "number" && own > room)) o["maxOutputLength"] = room;
  return o;
}

/** Feeds `chunk` with `flush` and answers what came out, and whether input was left over (the stream ended early). */
function writeEngine(e: Engine, chunk: Uint8Array, flush: number): { out: Buffer; ended: boolean } {
  if (e.error) throw e.error;
  // What one write produces is held at once (the guest's stream pushes it): no more than the process may still hold.
  const limit = roomBytes();
  let total = 0;
  const buffers: Buffer[] = [];
  let inOff = 0;
  let availIn = chunk.byteLength;
  let ended = false;
  for (;;) {
    e.handle.writeSync(flush, chunk, inOff, availIn, e.out, 0, e.out.length);
    if (e.error) throw e.error;
    const [availOutAfter, availInAfter] = [e.state[0]!, e.state[1]!];
    const have = e.out.length - availOutAfter;
    total += have;
    if (total > limit) throw tooLarge(limit);
    if (have > 0) buffers.push(Buffer.from(e.out.subarray(0, have)));
    inOff += availIn - availInAfter;
    availIn = availInAfter;
    if (availOutAfter !== 0) {
      // Output space left but input not taken: the compressed stream ended before the input (as Node's processCallback).
      ended = availInAfter > 0;
      break;
    }
  }
  return { out: buffers.length === 1 ? buffers[0]! : Buffer.concat(buffers), ended };
}

function closeEngine(e: Engine): void {
  try {
    e.stream.destroy();
  } catch {
    // already closed
  }
}

export function zlibOps(state: HostState, bulk: Bulk): Record<string, HostOp> {
  const engines = new HandleTable<Engine>("zlib");
  const methodOf = (m: unknown): string => {
    if (typeof m !== "string" || !Object.hasOwn(CLASSES, m)) throw new TypeError("bad method");
    return m;
  };
  return {
    /** A one-shot transform: pending input = the dictionary (dictLength bytes, -1 none) then the data (its layout). */
    zlibSync: relaying((method: unknown, options: unknown, dictLength: unknown, layout: unknown, data: unknown) => {
      const name = methodOf(method);
      const [dict, input] = unpack(state, bulk, `${typeof dictLength === "number" && dictLength >= 0 ? "b" : "p"}${typeof layout === "string" ? layout : ""}`, [dictLength, data]);
      const opts = boundedOutput(decodeOptions(options));
      if (typeof dictLength === "number" && dictLength >= 0) opts["dictionary"] = dict;
      const fn = (zlib as unknown as Record<string, (b: unknown, o?: unknown) => Buffer>)[`${name}Sync`]!;
      const result = fn(input, opts);
      return answer(state, bulk, result);
    }),
    /** A stream engine; the dictionary, if any, is the pending input. Answers its id. */
    zlibNew: relaying((method: unknown, options: unknown, dictLength: unknown) => {
      const name = methodOf(method);
      const opts = decodeOptions(options) ?? {};
      if (typeof dictLength === "number" && dictLength >= 0) opts["dictionary"] = unpack(state, bulk, "b", [dictLength])[0];
      return engines.add(() => {
        const make = (zlib as unknown as Record<string, (o: unknown) => Engine["stream"]>)[`create${CLASSES[name]}`]!;
        const stream = make(opts);
        const inner = stream as unknown as { _handle: NativeHandle; _writeState: Uint32Array; _chunkSize: number };
        // The guest splits output by its chunkSize; a larger buffer here only saves native calls.
        const e: Engine = { stream, handle: inner._handle, state: inner._writeState, out: Buffer.allocUnsafe(Math.max(inner._chunkSize, 64 * 1024)) };
        e.handle.onerror = (message, errno, code) => {
          e.error = zlibError(message, errno, code);
        };
        return e;
      });
    }),
    /**
     * Writes `length` bytes (scratch, or -1: the pending input) with `flush`. Answers the output's length, negated
     * minus one when the stream ended with input left. A failed engine is released.
     */
    zlibWrite: relaying((id: unknown, length: unknown, flush: unknown) => {
      const e = engines.get(id);
      if (typeof flush !== "number" || !Number.isInteger(flush)) throw new TypeError("bad flush");
      const input = inputOf(state, bulk, length);
      try {
        const { out, ended } = writeEngine(e, input, flush);
        const n = answer(state, bulk, out);
        return ended ? -n - 1 : n;
      } catch (err) {
        engines.delete(id);
        closeEngine(e);
        throw err;
      }
    }),
    zlibParams: relaying((id: unknown, level: unknown, strategy: unknown) => {
      if (typeof level !== "number" || typeof strategy !== "number") throw new TypeError("bad params");
      const e = engines.get(id);
      e.handle.params(level, strategy);
      if (e.error) throw e.error;
    }),
    zlibReset: relaying((id: unknown) => {
      const e = engines.get(id);
      e.handle.reset();
      e.error = undefined;
    }),
    zlibFree: (id) => {
      const e = engines.delete(id);
      if (e) closeEngine(e);
    },
    zlibCount: () => engines.size,
    /** This Node's zlib.constants as JSON entries (Infinity as null). */
    zlibConstants: () => JSON.stringify(Object.entries(zlib.constants)),
    /** crc32(data, value) where this Node has it; otherwise a failure, and the guest's zlib has no crc32. */
    zlibCrc32: relaying((layout: unknown, data: unknown, value: unknown) => {
      const crc32 = (zlib as unknown as { crc32?: (d: unknown, v?: unknown) => number }).crc32;
      if (typeof crc32 !== "function") return "\0EENOSYS";
      const [d, v] = unpack(state, bulk, layout, [data, value]);
      return crc32(d, v);
    }),
  };
}
