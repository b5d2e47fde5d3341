import { kerr, KernelError } from "../kernel/kernel-error.js";
import type { SocketTable } from "../kernel/socket-table.js";
import { VM_FETCH_IDLE_PER_PORT } from "../limits.js";
import { GuestConnection, type Answer } from "./guest-connection.js";

/** What `vm.fetch` takes as its request: a URL (whose host only names the Host header), a path, or a Request. */
export type VmFetchInput = string | URL | Request;

/** Statuses whose responses have no body (Response refuses one). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
/** Methods that send no Content-Length without a body (as Node's client and fetch). */
const BODILESS = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);

/** `vm.fetch`: HTTP/1.1 to the VM's guests over its loopback network, with WHATWG Request and Response. */
export class VmFetch {
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

  /** Idle keep-alive connections by port, newest last. */
  readonly #idle = new Map<number, GuestConnection[]>();
  /** Every open connection, busy or idle: dispose closes them. */
  readonly #open = new Set<GuestConnection>();
  #disposed: KernelError | undefined;

  async fetch(port: number, url: URL, input: VmFetchInput, init: RequestInit | undefined): Promise<Response> {
    // Request does what global fetch does with the arguments: method and header checks, body encoding
    // (string, bytes, Blob, URLSearchParams, FormData, ReadableStream) and its content type, the signal.
    // A plain GET of a URL needs none of it.
    const plain = init === undefined && !(input instanceof Request);
    const withDuplex = { ...init, duplex: "half" } as RequestInit;
    const request = plain ? undefined : input instanceof Request ? new Request(input, withDuplex) : new Request(url, withDuplex);
    const method = request?.method ?? "GET";
    const signal = request?.signal;
    signal?.throwIfAborted();
    let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\n`;
    let host = false;
    let length = false;
    request?.headers.forEach((value, name) => {
      head += `${name}: ${value}\r\n`;
      if (name === "host") host = true;
      else if (name === "content-length") length = true;
    });
    if (!host) head += `host: ${url.host}\r\n`;
    // A body given whole is sent whole with its length; a stream (or a Request's body) is streamed, chunked
    // unless its length was given.
    let whole: Uint8Array | undefined;
    const body = init?.body;
    let stream: ReadableStream<Uint8Array> | null = request?.body ?? null;
    if (request && stream && body !== undefined && body !== null && !(body instanceof ReadableStream) && !isAsyncIterable(body)) {
      whole = new Uint8Array(await request.arrayBuffer());
      stream = null;
    } else if (!stream && !BODILESS.has(method)) whole = new Uint8Array(0);
    if (whole && !length) head += `content-length: ${whole.length}\r\n`;
    const chunked = stream !== null && !length;
    if (chunked) head += "transfer-encoding: chunked\r\n";
    const bytes = Buffer.from(`${head}\r\n`, "latin1");
    const message = whole ? Buffer.concat([bytes, whole]) : bytes;
    // A pooled connection the guest closed just as it was taken fails before any answer: the request is
    // sent again on a new connection, once, when it can be (its body was not a stream).
    try {
      return await this.#exchange(this.#connection(port, false), method, signal, url, message, stream, chunked);
    } catch (e) {
      if (!(e instanceof Retry) || stream) throw e instanceof Retry ? e.error : e;
      return this.#exchange(this.#connection(port, true), method, signal, url, message, null, false).catch((x: unknown) => {
        throw x instanceof Retry ? x.error : x;
      });
    }
  }

  /** One request and its answer on `conn`: resolves with the Response once the head is in; its body streams after. */
  async #exchange(
    conn: GuestConnection,
    method: string,
    signal: AbortSignal | undefined,
    url: URL,
    message: Uint8Array,
    stream: ReadableStream<Uint8Array> | null,
    chunked: boolean,
  ): Promise<Response> {
    let failed: unknown;
    const fail = (e: unknown): void => {
      failed ??= e;
      this.#drop(conn);
    };
    const onAbort = (): void => fail(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    const done = (): void => signal?.removeEventListener("abort", onAbort);
    // The reason a failed read or write gives: the abort, a body stream's error, dispose, or its own.
    const why = (e: unknown): unknown => failed ?? this.#disposed ?? e;
    let sent = stream === null;
    let answer: Answer;
    try {
      await conn.write(message);
      if (stream) this.#send(conn, stream, chunked).then(() => (sent = true), fail);
      answer = await conn.head(method);
    } catch (e) {
      done();
      this.#drop(conn);
      const error = why(e);
      throw conn.reused && conn.silent && error === e ? new Retry(error) : error;
    }
    const { head } = answer;
    const release = (): void => {
      done();
      this.#release(conn, head.shouldKeepAlive && sent);
    };
    const headers = new Headers();
    const raw = head.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    const init = { status: head.statusCode, statusText: head.statusMessage, headers };
    const empty = method === "HEAD" || NULL_BODY_STATUS.has(head.statusCode);
    let response: Response;
    try {
      if (answer.done) {
        // All of it came with the head (a small answer): the body is given whole, and the connection is free.
        response = new Response(empty ? null : joined(answer.chunks), init);
        release();
      } else {
        const body = new ReadableStream<Uint8Array>({
          pull: async (controller) => {
            try {
              while (answer.chunks.length === 0 && !answer.done) if (!(await conn.more()) && !answer.done) throw kerr("ECONNRESET", { syscall: "read", message: "socket hang up" });
            } catch (e) {
              done();
              this.#drop(conn);
              throw why(e);
            }
            for (const c of answer.chunks.splice(0)) controller.enqueue(new Uint8Array(c.buffer, c.byteOffset, c.byteLength));
            if (answer.done) {
              controller.close();
              release();
            }
          },
          cancel: () => {
            done();
            this.#drop(conn);
          },
        });
        response = new Response(empty ? null : body, init);
        if (empty) void body.cancel();
      }
    } catch (e) {
      done();
      this.#drop(conn);
      throw e;
    }
    Object.defineProperty(response, "url", { value: url.href });
    return response;
  }

  /** Streams a request body; chunked coding unless the request gave its length. */
  async #send(conn: GuestConnection, stream: ReadableStream<Uint8Array>, chunked: boolean): Promise<void> {
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      if (r.value.length === 0) continue;
      await conn.write(chunked ? Buffer.concat([Buffer.from(`${r.value.length.toString(16)}\r\n`), r.value, CRLF]) : r.value);
    }
    if (chunked) await conn.write(LAST_CHUNK);
  }

  /** An idle connection to `port` (unless `fresh`), else a new one; ECONNREFUSED (with the port) when nothing listens. */
  #connection(port: number, fresh: boolean): GuestConnection {
    if (this.#disposed) throw this.#disposed;
    const idle = this.#idle.get(port);
    while (!fresh && idle?.length) {
      const conn = idle.pop()!;
      if (idle.length === 0) this.#idle.delete(port);
      if (conn.closed) continue;
      conn.take();
      return conn;
    }
    let conn: GuestConnection;
    try {
      conn = new GuestConnection(port, this.table.connectHost(port));
    } catch (e) {
      if (e instanceof KernelError) Object.assign(e, { port });
      throw e;
    }
    this.#open.add(conn);
    return conn;
  }

  /** A connection whose answer was read: kept for the next request when it can be, else closed. */
  #release(conn: GuestConnection, reusable: boolean): void {
    const idle = this.#idle.get(conn.port) ?? [];
    if (!reusable || conn.closed || this.#disposed || idle.length >= VM_FETCH_IDLE_PER_PORT) return this.#drop(conn);
    idle.push(conn);
    this.#idle.set(conn.port, idle);
    conn.park(() => {
      const at = idle.indexOf(conn);
      if (at !== -1) idle.splice(at, 1);
      if (idle.length === 0 && this.#idle.get(conn.port) === idle) this.#idle.delete(conn.port);
      this.#drop(conn);
    });
  }

  #drop(conn: GuestConnection): void {
    conn.close();
    this.#open.delete(conn);
  }

  /** The VM is going: every connection is closed, and a request still running fails with EPERM. */
  dispose(): void {
    this.#disposed ??= kerr("EPERM", { syscall: "fetch", message: "VM disposed" });
    for (const conn of [...this.#open]) this.#drop(conn);
    this.#idle.clear();
  }
}

/** A request that failed on a reused connection before any byte of an answer: worth sending again. */
class Retry {
  constructor(readonly error: unknown) {}
}

const CRLF = Buffer.from("\r\n");
const LAST_CHUNK = Buffer.from("0\r\n\r\n");

function joined(chunks: Buffer[]): Uint8Array<ArrayBuffer> {
  return (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)) as Uint8Array<ArrayBuffer>;
}

function urlOf(input: unknown): URL {
  if (input instanceof Request) return new URL(input.url);
  if (input instanceof URL) return input;
  if (typeof input === "string") return new URL(input);
  throw new TypeError(`input must be a URL string, a URL or a Request, got ${typeof input}`);
}

const isAsyncIterable = (v: unknown): boolean => typeof v === "object" && v !== null && Symbol.asyncIterator in v;
