import { duplexPair, type Duplex } from "node:stream";
import {
  connect as tlsConnect,
  createSecureContext,
  rootCertificates,
  type ConnectionOptions,
  type SecureContext,
  type SecureContextOptions,
  type TLSSocket,
} from "node:tls";
import { HandleTable, relayError, relaying } from "./host-assist.js";
import type { HostOp, HostState } from "./host-ops.js";

/**
 * The TLS client engine of guest `node`'s `tls` (workers/node-guest/builtins/tls.js): this worker's own
 * node:tls over an in-memory duplex pair, never over a socket. The guest carries the ciphertext through its own
 * kernel socket (which the network policy allowed); the engine is given no host, port or lookup, so it cannot
 * dial anything. Keys and plaintext stay in this worker, which runs only this guest process.
 *
 * Operations take primitives: options as JSON of known fields (checked one by one), bytes through the scratch.
 * What the engine produces is queued and taken in order with `tlsTake`: "c"+n ciphertext to send (n bytes in the
 * scratch), "p"+n plaintext, "s" the handshake is done, "x" the peer's end of the TLS stream, "w" the engine
 * has nothing more to send (end the socket), a relayed error, or "" when nothing is queued. `notify(id)` tells
 * the guest (once per batch) that something is queued.
 */

interface Engine {
  tls: TLSSocket;
  wire: Duplex;
  queue: { kind: string; bytes?: Buffer }[];
  notified: boolean;
}

/** The fields of tls.connect's options the guest may set, with their types. */
const FIELDS: Record<string, "string" | "boolean" | "strings"> = {
  servername: "string",
  rejectUnauthorized: "boolean",
  ALPNProtocols: "strings",
  ca: "strings",
  extraCa: "string",
  skipIdentity: "boolean",
  minVersion: "string",
  maxVersion: "string",
  ciphers: "string",
  ecdhCurve: "string",
};

/**
 * Secure contexts by what makes them (CAs, versions, ciphers): parsing Node's 144 roots takes milliseconds, so a
 * process's connections share one, as Node's default context is shared. A few kinds per process at most.
 */
const contexts = new Map<string, SecureContext>();
const MAX_CONTEXTS = 16;

function contextFor(options: Record<string, unknown>): SecureContext {
  const made: Record<string, unknown> = {};
  for (const key of ["ca", "minVersion", "maxVersion", "ciphers", "ecdhCurve"]) if (options[key] !== undefined) made[key] = options[key];
  const key = JSON.stringify(made);
  let context = contexts.get(key);
  if (!context) {
    context = createSecureContext(made as SecureContextOptions);
    if (contexts.size >= MAX_CONTEXTS) contexts.delete(contexts.keys().next().value!);
    contexts.set(key, context);
  }
  return context;
}

function parseOptions(text: unknown): ConnectionOptions {
  if (typeof text !== "string" || text.length > 16 * 1024 * 1024) throw new TypeError("bad tls options");
  const raw = JSON.parse(text) as unknown;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new TypeError("bad tls options");
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(raw)) {
    const type = FIELDS[key];
    if (!type) throw new TypeError(`bad tls option ${key}`);
    const ok = type === "strings" ? Array.isArray(value) && value.every((v) => typeof v === "string") : typeof value === type;
    if (!ok) throw new TypeError(`bad tls option ${key}`);
    out[key] = type === "strings" ? (value as string[]).slice() : value;
  }
  const extra = out["extraCa"] as string | undefined;
  delete out["extraCa"];
  // The guest runs its own checkServerIdentity after the handshake; the chain is still verified here.
  if (out["skipIdentity"] === true) out["checkServerIdentity"] = () => undefined;
  delete out["skipIdentity"];
  // The VM's trust: Node's bundled roots (what tls.rootCertificates lists) plus NODE_EXTRA_CA_CERTS as the guest read it.
  if (out["ca"] === undefined) out["ca"] = extra ? [...rootCertificates, extra] : [...rootCertificates];
  const secureContext = contextFor(out);
  for (const key of ["ca", "minVersion", "maxVersion", "ciphers", "ecdhCurve"]) delete out[key];
  out["secureContext"] = secureContext;
  return out as ConnectionOptions;
}

export function tlsOps(state: HostState, notify: (id: number) => void): Record<string, HostOp> {
  const engines = new HandleTable<Engine>("tls");
  const push = (id: number, e: Engine, kind: string, bytes?: Buffer): void => {
    e.queue.push(bytes ? { kind, bytes } : { kind });
    if (e.notified) return;
    e.notified = true;
    setImmediate(() => {
      e.notified = false;
      if (engines.size > 0) notify(id);
    });
  };
  const bytesIn = (length: unknown): Buffer => {
    if (typeof length !== "number" || !Number.isInteger(length) || length < 0 || length > state.scratch.length) throw new TypeError("bad length");
    return Buffer.from(state.scratch.subarray(0, length));
  };
  return {
    tlsOpen: relaying((options: unknown) => {
      const opts = parseOptions(options);
      let id = 0;
      id = engines.add(() => {
        const [inner, wire] = duplexPair();
        const tls = tlsConnect({ ...opts, socket: inner });
        const e: Engine = { tls, wire, queue: [], notified: false };
        wire.on("data", (b: Buffer) => push(id, e, "c", b));
        wire.on("end", () => push(id, e, "w"));
        wire.on("error", () => {});
        tls.on("secureConnect", () => push(id, e, "s"));
        tls.on("data", (b: Buffer) => push(id, e, "p", b));
        tls.on("end", () => push(id, e, "x"));
        tls.on("error", (err) => push(id, e, relayError(err)));
        return e;
      });
      return id;
    }),
    /** Ciphertext the socket received (the scratch's first `length` bytes); 0 length: the socket ended. */
    tlsFeed: relaying((id: unknown, length: unknown) => {
      const e = engines.get(id);
      if (length === 0) e.wire.end();
      else e.wire.write(bytesIn(length));
    }),
    /** Plaintext to send. */
    tlsWrite: relaying((id: unknown, length: unknown) => {
      engines.get(id).tls.write(bytesIn(length));
    }),
    tlsEnd: relaying((id: unknown) => void engines.get(id).tls.end()),
    tlsTake: relaying((id: unknown) => {
      const e = engines.get(id);
      const item = e.queue[0];
      if (!item) return "";
      if (!item.bytes) {
        e.queue.shift();
        return item.kind;
      }
      const n = Math.min(item.bytes.length, state.scratch.length);
      state.scratch.set(item.bytes.subarray(0, n));
      if (n === item.bytes.length) e.queue.shift();
      else item.bytes = item.bytes.subarray(n);
      return `${item.kind}${n}`;
    }),
    /** What the guest's TLSSocket reports: JSON of primitives. */
    tlsInfo: relaying((id: unknown) => {
      const { tls } = engines.get(id);
      const cert = tls.getPeerCertificate(false) as unknown as Record<string, unknown> | null;
      const peer = Object.create(null) as Record<string, unknown>;
      if (cert && typeof cert === "object")
        for (const key of ["subject", "issuer", "subjectaltname", "valid_from", "valid_to", "fingerprint", "fingerprint256", "fingerprint512", "serialNumber", "bits", "exponent", "modulus", "asn1Curve", "nistCurve", "ca"]) {
          const v = cert[key];
          if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") peer[key] = v;
          else if (v && typeof v === "object") peer[key] = Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === "string" || (Array.isArray(x) && x.every((y) => typeof y === "string"))));
        }
      const cipher = tls.getCipher() as { name?: string; standardName?: string; version?: string } | undefined;
      return JSON.stringify({
        authorized: tls.authorized === true,
        authorizationError: tls.authorizationError === undefined || tls.authorizationError === null ? null : String(tls.authorizationError),
        alpnProtocol: typeof tls.alpnProtocol === "string" ? tls.alpnProtocol : false,
        protocol: tls.getProtocol() ?? null,
        cipher: cipher ? { name: String(cipher.name), standardName: String(cipher.standardName), version: String(cipher.version) } : null,
        peer,
      });
    }),
    tlsClose: relaying((id: unknown) => {
      const e = engines.delete(id);
      if (!e) return;
      e.queue.length = 0;
      e.tls.destroy();
      e.wire.destroy();
    }),
  };
}
