import type { HostOp, HostState } from "./host-ops.js";

/**
 * What the host-assisted builtins (crypto-ops.ts, zlib-ops.ts) share: handles to host objects a guest process
 * owns, and the conventions of their operations. The membrane's rules hold (shared/docs/guest-js.md §2.4): only
 * primitives come in and go out, bytes travel through the scratch buffer or put/take, nothing throws.
 *
 * Arguments the guest gives Node's API are described by a layout string, one letter per argument:
 * `p` the primitive itself (Node validates it, so its errors are Node's own), `b` bytes of that length taken in
 * order from the pending input, `s` bytes of that length at the scratch's start, `o` an object the guest could
 * not send, named by its constructor (Node's validation then reports "Received an instance of <name>").
 *
 * A failure is "\0E" + code + "\0" + JSON [name, message, stack-has-code, own primitive properties]: the guest
 * rebuilds the same error in its realm.
 */

/** The bulk channel of host-ops.ts: the pending input (sys.put) and the output read with take. */
export interface Bulk {
  input(): Buffer;
  output(bytes: Buffer): void;
}

/** Live handles per process and table: past it a coded error, so a leaking guest is bounded. */
export const MAX_HANDLES = 256;

/** Integer ids (never reused) for host objects a guest process owns. */
export class HandleTable<T> {
  private readonly live = new Map<number, T>();
  private next = 1;
  constructor(private readonly what: string) {}
  /** The cap is checked before `make` runs, so a guest past it costs nothing. */
  add(make: () => T): number {
    if (this.live.size >= MAX_HANDLES) throw relayable(`EMFILE: too many open ${this.what} handles (limit ${MAX_HANDLES} per process)`, { errno: -24, code: "EMFILE" });
    const value = make();
    const id = this.next++;
    this.live.set(id, value);
    return id;
  }
  get(id: unknown): T {
    const v = typeof id === "number" ? this.live.get(id) : undefined;
    if (v === undefined) throw relayable(`Invalid ${this.what} handle`, { code: "ERR_INVALID_STATE" });
    return v;
  }
  delete(id: unknown): T | undefined {
    if (typeof id !== "number") return undefined;
    const v = this.live.get(id);
    this.live.delete(id);
    return v;
  }
  get size(): number {
    return this.live.size;
  }
}

function relayable(message: string, props: Record<string, string | number>): Error {
  return Object.assign(new Error(message), props);
}

type Prop = [string, string | number | boolean | null | string[]];

/** A host error as the guest rebuilds it (see the header). Only primitives of the host's own error are read. */
export function relayError(e: unknown): string {
  if (!(e instanceof Error)) return "\0EEIO";
  const props: Prop[] = [];
  for (const key of Object.keys(e)) {
    const v = (e as unknown as Record<string, unknown>)[key];
    if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") props.push([key, v]);
    else if (Array.isArray(v) && v.every((x) => typeof x === "string")) props.push([key, v.slice()]);
  }
  const name = e instanceof RangeError ? "RangeError" : e instanceof TypeError ? "TypeError" : "Error";
  const raw = (e as { code?: unknown }).code;
  const code = typeof raw === "string" ? raw : "EIO";
  const coded = typeof e.stack === "string" && e.stack.startsWith(`${e.name} [`);
  return `\0E${code}\0${JSON.stringify([name, e.message, coded, props])}`;
}

/** Runs `f`, answering its failure the relay's way (host-ops.ts's callOp would flatten it to EIO). */
export function relaying<A extends unknown[]>(f: (...args: A) => unknown): HostOp {
  return (...args) => {
    try {
      return f(...(args as A));
    } catch (e) {
      return relayError(e);
    }
  };
}

/** A stand-in for a guest object, so Node's validation names it as it would the original. */
function standIn(name: unknown): object {
  const o = Object.create(null) as Record<string, unknown>;
  o["constructor"] = { name: typeof name === "string" ? name : "Object" };
  return o;
}

/** The arguments a layout describes (see the header); bytes are sliced from the whole pending input. */
export function unpack(state: HostState, bulk: Bulk, layout: unknown, args: unknown[]): unknown[] {
  if (typeof layout !== "string" || layout.length > args.length) throw new TypeError("bad layout");
  const input = layout.includes("b") ? bulk.input() : Buffer.alloc(0);
  let off = 0;
  const out: unknown[] = [];
  for (let i = 0; i < layout.length; i++) {
    const a = args[i];
    if (layout[i] === "b") {
      if (typeof a !== "number" || !Number.isInteger(a) || a < 0 || off + a > input.length) throw new TypeError("bad length");
      out.push(input.subarray(off, off + a));
      off += a;
    } else if (layout[i] === "s") {
      // Bytes already in the scratch (one argument that fits): no put needed.
      if (typeof a !== "number" || !Number.isInteger(a) || a < 0 || a > state.scratch.length) throw new TypeError("bad length");
      out.push(state.scratch.subarray(0, a));
    } else if (layout[i] === "o") out.push(standIn(a));
    else out.push(a);
  }
  return out;
}

/** Options given as JSON [[name, type, value as text], …] (n number, s string, b boolean, z null, i bigint, o object): a plain host object. */
export function decodeOptions(text: unknown): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  if (typeof text !== "string") throw new TypeError("bad options");
  // Null prototypes: a guest's key ("__proto__") is only ever an own property.
  const o = Object.create(null) as Record<string, unknown>;
  for (const entry of JSON.parse(text) as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 3 || !entry.every((x) => typeof x === "string")) throw new TypeError("bad options");
    const [key, type, value] = entry as [string, string, string];
    const v = type === "n" ? Number(value) : type === "s" ? value : type === "b" ? value === "true" : type === "z" ? null : type === "i" ? BigInt(value) : standIn(value);
    const dot = key.indexOf(".");
    if (dot > 0) {
      const outer = key.slice(0, dot);
      const inner = (o[outer] ??= Object.create(null)) as Record<string, unknown>;
      inner[key.slice(dot + 1)] = v;
    } else o[key] = v;
  }
  return o;
}

/** Output bytes for the guest: copied into the scratch when they fit, kept for take otherwise; answers the length. */
export function answer(state: HostState, bulk: Bulk, bytes: Buffer): number {
  if (bytes.length <= state.scratch.length) state.scratch.set(bytes);
  bulk.output(bytes);
  return bytes.length;
}

/** One input: the scratch's first `length` bytes, or (length -1) the whole pending input. */
export function inputOf(state: HostState, bulk: Bulk, length: unknown): Buffer {
  if (length === -1) return bulk.input();
  if (typeof length !== "number" || !Number.isInteger(length) || length < 0 || length > state.scratch.length) throw new TypeError("bad length");
  return state.scratch.subarray(0, length);
}
