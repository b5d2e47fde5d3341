import http from "node:http";
import { Readable, type Duplex } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { hostSocketDuplex } from "../kernel/host-socket-duplex.js";
import { kerr, KernelError } from "../kernel/kernel-error.js";
import type { SocketTable } from "../kernel/socket-table.js";

/** What `vm.fetch` takes as its request: a URL (whose host only names the Host header), a path, or a Request. */
export type VmFetchInput = string | URL | Request;

/** Statuses whose responses have no body (Response refuses one). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The members of net.Socket that http's client and Agent call on a connection. Nothing here holds the
 * host's event loop (a host end waits on promises only), so ref/unref have nothing to do.
 */
function socketLike(d: Duplex): Duplex {
  return Object.assign(d, {
    setKeepAlive: () => d,
    setNoDelay: () => d,
    ref: () => d,
    unref: () => d,
    // Only the Agent calls this (with 0: no idle timeout, which is what it records).
    setTimeout(ms: number) {
      (d as Duplex & { timeout?: number }).timeout = ms;
      return d;
    },
  });
}

/**
 * The VM's keep-alive Agent: each connection is a host end of the VM's socket table (never a host socket,
 * never a DNS lookup: `createConnection` replaces both, which is why this is an Agent and not `agent: false`).
 */
class VmAgent extends http.Agent {
  readonly #open = new Set<Duplex>();

  constructor(private readonly table: SocketTable) {
    super({ keepAlive: true });
  }

  override createConnection(options: http.ClientRequestArgs, done?: (err: Error | null, stream: Duplex) => void): Duplex | undefined {
    const port = Number(options.port);
    let socket: Duplex;
    try {
      socket = socketLike(hostSocketDuplex(this.table.connectHost(port), { allowHalfOpen: false }));
    } catch (e) {
      if (e instanceof KernelError) Object.assign(e, { port });
      done?.(e as Error, undefined as never);
      return undefined;
    }
    this.#open.add(socket);
    socket.once("close", () => this.#open.delete(socket));
    return socket;
  }

  /** Destroys every connection, busy or idle; a request still running fails with `reason`. */
  close(reason: Error): void {
    for (const s of [...this.#open]) s.destroy(reason);
    this.destroy();
  }
}

/** `vm.fetch`: HTTP/1.1 to the VM's guests over its loopback network, with WHATWG Request and Response. */
export class VmFetch {
  #agent: VmAgent | undefined;

  constructor(private readonly table: SocketTable) {}

  /**
   * Arguments as `vm.fetch` takes them: `(port, input?, init?)` or `(url, init?)` where url is
   * `http://localhost:PORT/…` (127.0.0.1 and [::1] too; no port is 80). TypeError for anything else.
   */
  static target(args: unknown[]): { port: number; url: URL; input: VmFetchInput; init: RequestInit | undefined } {
    let [first, input, init] = args;
    let port: number;
    let url: URL;
    if (typeof first === "number") {
      if (!Number.isInteger(first) || first < 1 || first > 65535) throw new TypeError(`port must be an integer in 1-65535, got ${first}`);
      port = first;
      input ??= "/";
      if (typeof input === "string" && input.startsWith("/")) url = new URL(input, `http://localhost:${port}`);
      else url = urlOf(input);
    } else {
      init = input;
      input = first;
      url = urlOf(input);
      if (!LOOPBACK_HOSTS.has(url.hostname))
        throw new TypeError(`vm.fetch(url) needs a URL of the VM's loopback (http://localhost:PORT/…), got ${url.href}; use vm.fetch(port, url)`);
      port = url.port === "" ? 80 : Number(url.port);
    }
    if (url.protocol !== "http:") throw new TypeError(`vm.fetch speaks plain HTTP to the guest, got ${url.protocol} URL`);
    if (init !== undefined && (typeof init !== "object" || init === null)) throw new TypeError("init must be an object");
    return { port, url, input: input as VmFetchInput, init: init as RequestInit | undefined };
  }

  async fetch(port: number, url: URL, input: VmFetchInput, init: RequestInit | undefined): Promise<Response> {
    // Request does what global fetch does with the arguments: method and header checks, body encoding
    // (string, bytes, Blob, URLSearchParams, FormData, ReadableStream) and its content type, the signal.
    const withDuplex = { ...init, duplex: "half" } as RequestInit;
    const request = input instanceof Request ? new Request(input, withDuplex) : new Request(url, withDuplex);
    const signal = request.signal;
    signal.throwIfAborted();
    const headers: Record<string, string | string[]> = {};
    request.headers.forEach((value, name) => {
      const had = headers[name];
      headers[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
    });
    headers.host ??= url.host;
    // A body given whole is sent whole with its length; a stream (or a Request's body) is streamed, chunked.
    let whole: Uint8Array | undefined;
    const body = init?.body;
    if (request.body && body !== undefined && body !== null && !(body instanceof ReadableStream) && !isAsyncIterable(body)) {
      whole = new Uint8Array(await request.arrayBuffer());
      headers["content-length"] = String(whole.length);
    }
    const agent = (this.#agent ??= new VmAgent(this.table));
    return new Promise<Response>((resolve, reject) => {
      const req = http.request({ agent, host: "localhost", port, method: request.method, path: url.pathname + url.search, headers });
      let res: http.IncomingMessage | undefined;
      const onAbort = (): void => {
        req.destroy(signal.reason as Error);
        res?.destroy(signal.reason as Error);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const done = (): void => signal.removeEventListener("abort", onAbort);
      // Errors after the response go to its body (res emits them); before it, they reject.
      req.on("error", (e) => {
        done();
        reject(e);
      });
      req.once("response", (r) => {
        res = r;
        r.once("close", done);
        try {
          resolve(toResponse(r, url, request.method));
        } catch (e) {
          r.destroy();
          reject(e);
        }
      });
      if (whole) req.end(whole);
      else if (request.body) pipeline(Readable.fromWeb(request.body as NodeReadableStream), req).catch((e: unknown) => req.destroy(e as Error));
      else req.end();
    });
  }

  /** The VM is going: every connection is destroyed, and a request still running fails with EPERM. */
  dispose(): void {
    this.#agent?.close(kerr("EPERM", { syscall: "fetch", message: "VM disposed" }));
  }
}

function urlOf(input: unknown): URL {
  if (input instanceof Request) return new URL(input.url);
  if (input instanceof URL) return input;
  if (typeof input === "string") return new URL(input);
  throw new TypeError(`input must be a URL string, a URL or a Request, got ${typeof input}`);
}

const isAsyncIterable = (v: unknown): boolean => typeof v === "object" && v !== null && Symbol.asyncIterator in v;

/** The answer as a Response: its body streams from the connection; repeated headers (set-cookie) are kept. */
function toResponse(res: http.IncomingMessage, url: URL, method: string): Response {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const status = res.statusCode ?? 0;
  const empty = method === "HEAD" || NULL_BODY_STATUS.has(status);
  if (empty) res.resume();
  const body = empty ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
  const response = new Response(body, { status, statusText: res.statusMessage ?? "", headers });
  Object.defineProperty(response, "url", { value: url.href });
  return response;
}
