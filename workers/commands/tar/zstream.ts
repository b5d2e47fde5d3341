import zlib from "node:zlib";

/**
 * Streaming deflate and inflate with node:zlib, synchronously: a zlib stream object's native handle is
 * driven as zlib's own one-shot functions drive it (processChunkSync), without closing it after the first
 * chunk, so that a script keeps only a bounded window of the data in memory.
 */

interface NativeHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
}
interface ZlibInternals {
  _handle: NativeHandle | null;
  _writeState: Uint32Array;
  destroyed: boolean;
  close(): void;
}

/** Corrupt compressed data (zlib's message). */
export class ZDataError extends Error {}

const OUT = 64 * 1024;

export class ZStream {
  private readonly z: ZlibInternals;
  private readonly out = Buffer.alloc(OUT);
  /** Set once the deflate stream's end has been seen (inflate). */
  ended = false;

  private constructor(z: unknown) {
    this.z = z as ZlibInternals;
  }

  static deflateRaw(level: number): ZStream {
    return new ZStream(zlib.createDeflateRaw({ level, memLevel: 8, windowBits: 15 }));
  }

  static inflateRaw(): ZStream {
    return new ZStream(zlib.createInflateRaw());
  }

  /**
   * Feeds `input`; each piece of output goes to `emit` as it is made (a copy). Answers how many input bytes
   * were consumed: all of them unless the stream ended (inflate), when the rest is what follows it.
   */
  push(input: Uint8Array, flush: number, emit: (chunk: Uint8Array) => void): number {
    if (this.ended) return 0;
    const h = this.z._handle;
    if (!h) throw new ZDataError("stream closed");
    const state = this.z._writeState;
    let inOff = 0;
    let inLen = input.length;
    for (;;) {
      h.writeSync(flush, input, inOff, inLen, this.out, 0, OUT);
      if (this.z.destroyed || !this.z._handle) {
        this.ended = true;
        throw new ZDataError("invalid compressed data--format violated");
      }
      const availOut = state[0]!;
      const availIn = state[1]!;
      const have = OUT - availOut;
      if (have > 0) emit(Buffer.from(this.out.subarray(0, have)));
      inOff += inLen - availIn;
      inLen = availIn;
      if (availOut !== 0) {
        // A full output buffer means more may come; otherwise zlib took what it could. Input left over
        // while output had room: the end of the deflate stream.
        // (A stream that ends exactly at the end of `input` is seen on the next push, which consumes nothing.)
        if (inLen > 0) this.ended = true;
        return inOff;
      }
    }
  }

  close(): void {
    try {
      this.z.close();
    } catch {
      /* closed already */
    }
  }
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** CRC-32 of `data` continuing from `crc`. */
export function crc32(data: Uint8Array, crc = 0): number {
  const native = (zlib as unknown as { crc32?: (d: Uint8Array, v: number) => number }).crc32;
  if (native) return native(data, crc) >>> 0;
  let c = ~crc;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

export interface GzipHeaderInfo {
  method: number;
  flags: number;
  mtime: number;
  xfl: number;
  os: number;
  name?: string;
  /** Bytes of the header. */
  length: number;
}

export const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** The header at the start of `b`; undefined when more bytes are needed; throws on a wrong magic. */
export function parseGzipHeader(b: Uint8Array, atEof: boolean): GzipHeaderInfo | "bad-magic" | "bad-method" | undefined {
  if (b.length < 10) {
    if (atEof) return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b ? undefined : "bad-magic";
    if (b.length >= 1 && b[0] !== 0x1f) return "bad-magic";
    if (b.length >= 2 && b[1] !== 0x8b) return "bad-magic";
    return undefined;
  }
  if (b[0] !== 0x1f || b[1] !== 0x8b) return "bad-magic";
  if (b[2] !== 8) return "bad-method";
  const flags = b[3]!;
  const mtime = (b[4]! | (b[5]! << 8) | (b[6]! << 16) | (b[7]! << 24)) >>> 0;
  let off = 10;
  if (flags & 4) {
    if (b.length < off + 2) return undefined;
    off += 2 + (b[off]! | (b[off + 1]! << 8));
    if (b.length < off) return undefined;
  }
  let name: string | undefined;
  if (flags & 8) {
    const end = b.indexOf(0, off);
    if (end < 0) return undefined;
    name = Buffer.from(b.subarray(off, end)).toString("latin1");
    off = end + 1;
  }
  if (flags & 16) {
    const end = b.indexOf(0, off);
    if (end < 0) return undefined;
    off = end + 1;
  }
  if (flags & 2) off += 2;
  if (b.length < off) return undefined;
  return { method: 8, flags, mtime, xfl: b[8]!, os: b[9]!, name, length: off };
}

/** A gzip header as GNU gzip writes it. */
export function gzipHeader(mtime: number, level: number, name: string | undefined): Uint8Array {
  const nameBytes = name === undefined ? undefined : Buffer.from(name, "latin1");
  const h = Buffer.alloc(10 + (nameBytes ? nameBytes.length + 1 : 0));
  h[0] = 0x1f;
  h[1] = 0x8b;
  h[2] = 8;
  h[3] = nameBytes ? 8 : 0;
  h.writeUInt32LE(mtime >>> 0, 4);
  h[8] = level === 9 ? 2 : level === 1 ? 4 : 0;
  h[9] = 3;
  if (nameBytes) nameBytes.copy(h, 10);
  return h;
}

/** Errors of a gzip stream, as GNU gzip names them. */
export type GunzipError = "not-gzip" | "unknown-method" | "invalid" | "crc" | "length" | "eof";

/**
 * A pull decoder of gzip data (all its members) from `read` (chunks; empty at end). `next` answers the next
 * piece of decompressed data, or undefined at the end. Trailing zeros after a member are ignored; other
 * trailing bytes set `trailingGarbage`.
 */
export class Gunzip {
  private buf: Uint8Array = new Uint8Array(0);
  private eof = false;
  private z: ZStream | undefined;
  private state: "header" | "body" | "trailer" | "done" = "header";
  private crc = 0;
  private size = 0;
  private pending: Uint8Array[] = [];
  members = 0;
  trailingGarbage = false;
  /** The first member's header. */
  first: GzipHeaderInfo | undefined;
  /** Compressed bytes read so far. */
  bytesIn = 0;

  constructor(private readonly read: () => Uint8Array) {}

  private fill(): boolean {
    if (this.eof) return false;
    const c = this.read();
    if (c.length === 0) {
      this.eof = true;
      return false;
    }
    this.bytesIn += c.length;
    this.buf = this.buf.length === 0 ? c : Buffer.concat([this.buf, c]);
    return true;
  }

  /** Throws a GunzipError string (as an Error whose message is the kind). */
  next(): Uint8Array | undefined {
    for (;;) {
      if (this.pending.length > 0) return this.pending.shift();
      if (this.state === "done") return undefined;
      if (this.state === "header") {
        if (this.buf.length === 0 && !this.fill()) {
          if (this.members === 0) throw new GzipFormatError("eof");
          this.state = "done";
          continue;
        }
        const h = parseGzipHeader(this.buf, this.eof);
        if (h === undefined) {
          if (!this.fill()) {
            if (this.members === 0) throw new GzipFormatError(this.buf.length < 2 ? "not-gzip" : "eof");
            this.trailing();
          }
          continue;
        }
        if (h === "bad-magic") {
          if (this.members === 0) throw new GzipFormatError("not-gzip");
          this.trailing();
          continue;
        }
        if (h === "bad-method") throw new GzipFormatError("unknown-method");
        this.first ??= h;
        this.buf = this.buf.subarray(h.length);
        this.z = ZStream.inflateRaw();
        this.crc = 0;
        this.size = 0;
        this.state = "body";
        continue;
      }
      if (this.state === "body") {
        if (this.buf.length === 0 && !this.fill()) throw new GzipFormatError("eof");
        const z = this.z!;
        const piece = this.buf.subarray(0, 16 * 1024);
        let used: number;
        try {
          used = z.push(piece, zlib.constants.Z_SYNC_FLUSH, (c) => {
            this.crc = crc32(c, this.crc);
            this.size = (this.size + c.length) >>> 0;
            this.pending.push(c);
          });
        } catch (e) {
          if (e instanceof ZDataError) throw new GzipFormatError("invalid");
          throw e;
        }
        this.buf = this.buf.subarray(used);
        if (z.ended) {
          z.close();
          this.state = "trailer";
        }
        continue;
      }
      // trailer
      if (this.buf.length < 8) {
        if (!this.fill()) throw new GzipFormatError("eof");
        continue;
      }
      const v = new DataView(this.buf.buffer, this.buf.byteOffset, 8);
      if (v.getUint32(0, true) !== this.crc) throw new GzipFormatError("crc");
      if (v.getUint32(4, true) !== this.size) throw new GzipFormatError("length");
      this.buf = this.buf.subarray(8);
      this.members++;
      this.state = "header";
    }
  }

  /** After a member: zeros are ignored, anything else is trailing garbage. */
  private trailing(): void {
    for (;;) {
      if (this.buf.some((b) => b !== 0)) this.trailingGarbage = true;
      this.buf = new Uint8Array(0);
      if (this.trailingGarbage || !this.fill()) break;
    }
    this.state = "done";
  }
}

export class GzipFormatError extends Error {
  constructor(readonly kind: GunzipError) {
    super(kind);
  }
}

/**
 * A gzip encoder: `write` data, `end` once; the compressed bytes go to `emit`. Level 1–9; `name` and
 * `mtime` go in the header (GNU gzip: the file's base name and its modification time; none and 0 for -n
 * or standard input).
 */
export class GzipEncoder {
  private readonly z: ZStream;
  private crc = 0;
  private size = 0;
  bytesIn = 0;
  bytesOut = 0;
  readonly headerBytes: number;

  constructor(
    level: number,
    mtime: number,
    name: string | undefined,
    private readonly emit: (chunk: Uint8Array) => void,
  ) {
    this.z = ZStream.deflateRaw(level);
    const h = gzipHeader(mtime, level, name);
    this.headerBytes = h.length + 8;
    this.out(h);
  }

  private out(c: Uint8Array): void {
    this.bytesOut += c.length;
    this.emit(c);
  }

  write(data: Uint8Array): void {
    this.crc = crc32(data, this.crc);
    this.size = (this.size + data.length) >>> 0;
    this.bytesIn += data.length;
    for (let off = 0; off < data.length; off += 64 * 1024) {
      this.z.push(data.subarray(off, off + 64 * 1024), zlib.constants.Z_NO_FLUSH, (c) => this.out(c));
    }
  }

  end(): void {
    this.z.push(new Uint8Array(0), zlib.constants.Z_FINISH, (c) => this.out(c));
    this.z.close();
    const t = Buffer.alloc(8);
    t.writeUInt32LE(this.crc, 0);
    t.writeUInt32LE(this.size, 4);
    this.out(t);
  }
}
