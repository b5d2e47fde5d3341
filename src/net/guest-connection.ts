import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { kerr } from "../kernel/kernel-error.js";
import type { HostSocket } from "../kernel/host-socket.js";
import { PACKAGE_DIR } from "../util/package-dir.js";

/** A response's head as the parser gives it. */
export interface ResponseHead {
  statusCode: number;
  statusMessage: string;
  /** Names and values, alternating, as they came (repeated headers kept). */
  rawHeaders: string[];
  shouldKeepAlive: boolean;
}

interface Parser {
  execute(buf: Buffer): number;
  finish(): Error | null;
}
interface ParserHandlers {
  onHeaders(head: ResponseHead): boolean;
  onBody(chunk: Buffer): void;
  onComplete(): void;
}

type ParserClass = new (kind: "response", handlers: ParserHandlers) => Parser;
let HTTPParser: ParserClass | undefined;

/**
 * The guest's own HTTP/1.1 parser (a CommonJS module of the guest's whose only dependencies are `buffer` and the
 * runtime's `internal/primordials` and `internal/buffer-primordials`): one parser for both ends of the VM's
 * loopback, with llhttp's limits and HPE_* error codes. Loaded on first use; here its primordials are this
 * realm's, made by the same files (Buffer's being this process's).
 */
function parserClass(): ParserClass {
  if (HTTPParser) return HTTPParser;
  const primordials = runtimeModule("internal/primordials", () => undefined);
  const deps = (name: string): unknown => (name === "buffer" ? { Buffer } : name === "internal/primordials" ? primordials : undefined);
  const bufferPrimordials = runtimeModule("internal/buffer-primordials", deps);
  const parser = runtimeModule("internal/http-parser", (name) => (name === "internal/buffer-primordials" ? bufferPrimordials : deps(name)));
  return (HTTPParser = (parser as { HTTPParser: ParserClass }).HTTPParser);
}

/**
 * A file of the guest runtime (workers/node-guest/), evaluated as the CommonJS it is (its .js is ESM to Node
 * here); node:vm stays the guest runtime's alone (test/node/escape.test.ts).
 */
function runtimeModule(id: string, require: (name: string) => unknown): unknown {
  const file = pathToFileURL(join(PACKAGE_DIR, `workers/node-guest/${id}.js`));
  const module = { exports: {} };
  const load = new Function("require", "module", `${readFileSync(file, "utf8")}\n//# sourceURL=${file.href}`) as (require: (name: string) => unknown, module: object) => void;
  load(require, module);
  return module.exports;
}

/** An answer: its head, and its body so far (`done` when it is all there). */
export interface Answer {
  head: ResponseHead;
  /** Body bytes read and not yet taken. */
  chunks: Buffer[];
  done: boolean;
}

/**
 * One keep-alive HTTP/1.1 connection from the host to a guest's port, over a host end of the VM's socket
 * table. Between requests it waits in the pool with a read already posted, so a guest that closes the
 * connection (its keep-alive timeout) is noticed at once and its socket released, without any timer.
 */
export class GuestConnection {
  /** A read posted while idle; the next request's first read. */
  #ahead: Promise<Uint8Array | null> | undefined;
  #idle = false;
  /** The answer being read, and what its parser feeds. */
  #answer: Answer | undefined;
  readonly #parser: Parser;
  /** Whether any byte of the current answer arrived: a reused connection that ends before one was closed by the guest meanwhile. */
  #heard = false;
  /** The method of the request being answered: the answer to a HEAD has no body whatever its head says. */
  #method = "GET";
  /** Whether it served a request before (so the guest may have closed it just as it was taken). */
  reused = false;

  constructor(
    readonly port: number,
    private readonly end: HostSocket,
  ) {
    this.#parser = new (parserClass())("response", {
      onHeaders: (head) => {
        // An interim answer (100 Continue, 103 Early Hints) is followed by the real one.
        if (head.statusCode >= 100 && head.statusCode < 200 && head.statusCode !== 101) return false;
        this.#answer = { head, chunks: [], done: false };
        return this.#method === "HEAD";
      },
      onBody: (chunk) => this.#answer!.chunks.push(chunk),
      onComplete: () => {
        if (this.#answer) this.#answer.done = true;
      },
    });
  }

  get closed(): boolean {
    return this.end.closed;
  }

  /** Sends bytes of the request; resolves once the guest's receive buffer holds them. */
  write(data: Uint8Array): Promise<void> {
    return this.end.write(data);
  }

  /**
   * Reads until the answer's head has come (with whatever of its body came along). A guest that ends the
   * connection first gives ECONNRESET ("socket hang up"), as Node's client says.
   */
  async head(method: string): Promise<Answer> {
    this.#method = method;
    this.#answer = undefined;
    this.#heard = false;
    while (this.#answer === undefined) if (!(await this.more())) throw hangUp(this.port);
    return this.#answer;
  }

  /** Reads more of the answer; false at the end of the connection's input. */
  async more(): Promise<boolean> {
    const ahead = this.#ahead;
    this.#ahead = undefined;
    const chunk = await (ahead ?? this.end.read());
    if (chunk === null) {
      const error = this.#parser.finish();
      if (error) throw error;
      return false;
    }
    this.#heard = true;
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // Bytes past the end of the answer are a guest error (nothing was asked for them): the connection is not reused.
    if (this.#parser.execute(buf) < buf.length && this.#answer?.done) this.#answer.head.shouldKeepAlive = false;
    return true;
  }

  /** Whether the connection ended before any byte of the answer came. */
  get silent(): boolean {
    return !this.#heard;
  }

  /** Into the pool: `onGone` runs if the guest sends or closes before the connection is taken again. */
  park(onGone: () => void): void {
    this.#idle = true;
    this.reused = true;
    const ahead = this.end.read();
    this.#ahead = ahead;
    const settled = (): void => {
      if (this.#idle && this.#ahead === ahead) onGone();
    };
    ahead.then(settled, settled);
  }

  /** Out of the pool, for a request. */
  take(): void {
    this.#idle = false;
  }

  close(): void {
    this.#idle = false;
    this.end.close();
  }
}

function hangUp(port: number): Error {
  return Object.assign(kerr("ECONNRESET", { syscall: "read", message: "socket hang up" }), { port });
}
