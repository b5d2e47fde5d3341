// vm.fetch: HTTP from the host to a guest over the VM's loopback network, never a host socket. The server
// is a fake guest process making the real socket system calls (test/fixtures/guest-http-server.ts), so each
// case controls exactly what the guest does; the client is the VmFetch that `vm.fetch` uses. Guest `node`
// servers behind vm.fetch are in test/node/http.test.ts.
import { execFile } from "node:child_process";
import type http from "node:http";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { KernelError } from "../src/index.js";
import type { Kernel } from "../src/kernel/kernel.js";
import { VM_FETCH_IDLE_PER_PORT } from "../src/limits.js";
import { VmFetch, type VmFetchInput } from "../src/net/vm-fetch.js";
import { guestHttpServer, type GuestHttpServer } from "./fixtures/guest-http-server.js";
import { createVm } from "./helpers.js";
import { kernel } from "./net-harness.js";
import { RUN_DEADLINE_MS } from "./deadlines.js";

const run = promisify(execFile);

/** Resolvers made by the test, to hold a handler until the test says so. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function bodyOf(req: http.IncomingMessage): Promise<string> {
  let s = "";
  for await (const chunk of req) s += String(chunk);
  return s;
}

/** Echoes what it got as JSON, with status 201. */
const echo: http.RequestListener = (req, res) => {
  void bodyOf(req).then((body) => {
    res.writeHead(201, "Made", { "content-type": "application/json" });
    res.end(JSON.stringify({ method: req.method, url: req.url, body, headers: req.headers }));
  });
};

const servers: GuestHttpServer[] = [];
const fetchers: VmFetch[] = [];

/** A kernel with a guest serving `handler` on `port`, and the VmFetch of that kernel. */
function vmWith(port: number, handler: http.RequestListener): { k: Kernel; guest: GuestHttpServer; fetch: (i?: VmFetchInput, init?: RequestInit) => Promise<Response>; vf: VmFetch } {
  const k = kernel();
  const guest = guestHttpServer(k, port, handler);
  servers.push(guest);
  const vf = new VmFetch(k.sockets);
  fetchers.push(vf);
  const fetch = (input?: VmFetchInput, init?: RequestInit): Promise<Response> => {
    const t = VmFetch.target([port, input, init]);
    return vf.fetch(t.port, t.url, t.input, t.init);
  };
  return { k, guest, fetch, vf };
}

afterEach(() => {
  for (const f of fetchers.splice(0)) f.dispose();
  for (const s of servers.splice(0)) s.exit();
});

describe("vm.fetch through the kernel", () => {
  it("POSTs a Request and gets status, status text, headers and body (doc test 27)", async () => {
    const { fetch } = vmWith(3000, echo);
    const res = await fetch(new Request("http://localhost/api?x=1", { method: "POST", body: "hi" }));
    expect(res.status).toBe(201);
    expect(res.statusText).toBe("Made");
    expect(res.ok).toBe(true);
    expect(res.url).toBe("http://localhost/api?x=1");
    expect(res.headers.get("content-type")).toBe("application/json");
    const got = (await res.json()) as { method: string; url: string; body: string; headers: Record<string, string> };
    expect({ method: got.method, url: got.url, body: got.body }).toEqual({ method: "POST", url: "/api?x=1", body: "hi" });
    expect(got.headers.host).toBe("localhost");
  });

  it("GET by path, and bodies given as a string, bytes, URLSearchParams, FormData and a stream", async () => {
    const { fetch } = vmWith(3000, echo);
    const get = (await (await fetch("/p?q=2", { headers: { "x-a": "1" } })).json()) as { method: string; url: string; headers: Record<string, string> };
    expect(get).toMatchObject({ method: "GET", url: "/p?q=2", headers: { "x-a": "1", host: "localhost:3000" } });

    const post = async (body: RequestInit["body"], extra: RequestInit = {}): Promise<{ body: string; headers: Record<string, string> }> =>
      (await (await fetch("/in", { method: "POST", body, ...extra })).json()) as { body: string; headers: Record<string, string> };
    const s = await post("héllo");
    expect(s.body).toBe("héllo");
    expect(s.headers["content-length"]).toBe(String(Buffer.byteLength("héllo")));
    expect((await post(new Uint8Array([104, 105]))).body).toBe("hi");
    const form = await post(new URLSearchParams({ a: "1", b: "x y" }));
    expect(form.body).toBe("a=1&b=x+y");
    expect(form.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    const fd = new FormData();
    fd.append("f", "v");
    const multi = await post(fd);
    expect(multi.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(multi.body).toContain('name="f"');

    const chunks = ["one,", "two,", "three"];
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        const next = chunks.shift();
        if (next === undefined) c.close();
        else c.enqueue(new TextEncoder().encode(next));
      },
    });
    const streamed = await post(stream);
    expect(streamed.body).toBe("one,two,three");
    expect(streamed.headers["transfer-encoding"]).toBe("chunked");
  });

  it("a chunked response written in 3 writes arrives whole", async () => {
    const { fetch } = vmWith(3000, (_req, res) => {
      res.write("a");
      res.write("bb");
      res.end("ccc");
    });
    const res = await fetch();
    expect(res.headers.get("transfer-encoding")).toBe("chunked");
    expect(await res.text()).toBe("abbccc");
  });

  it("a streamed response is read as it comes", async () => {
    const gate = deferred();
    const { fetch } = vmWith(3000, (_req, res) => {
      res.write("first");
      void gate.promise.then(() => res.end("second"));
    });
    const res = await fetch();
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("first");
    gate.resolve(); // the rest is written only now that the first part was read
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe("second");
  });

  it("repeated headers are kept: two set-cookie lines give getSetCookie() both", async () => {
    const { fetch } = vmWith(3000, (_req, res) => {
      res.setHeader("set-cookie", ["a=1; Path=/", "b=2"]);
      res.setHeader("x-many", ["1", "2"]);
      res.end();
    });
    const res = await fetch();
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2"]);
    expect(res.headers.get("x-many")).toBe("1, 2");
  });

  it("HEAD and 204 answers have no body", async () => {
    const { fetch } = vmWith(3000, (req, res) => {
      res.writeHead(req.method === "HEAD" ? 200 : 204, { "x-m": req.method });
      res.end();
    });
    const head = await fetch("/", { method: "HEAD" });
    expect([head.status, head.body, head.headers.get("x-m")]).toEqual([200, null, "HEAD"]);
    const none = await fetch("/", { method: "DELETE" });
    expect([none.status, none.body]).toEqual([204, null]);
  });

  it("keeps the connection alive: two fetches, one accepted connection", async () => {
    const { fetch, guest } = vmWith(3000, (req, res) => res.end(req.url));
    expect(await (await fetch("/1")).text()).toBe("/1");
    expect(await (await fetch("/2")).text()).toBe("/2");
    expect(guest.accepted).toHaveLength(1);
  });

  it("a keep-alive connection the guest closes while idle is let go at once, and the next fetch opens another", async () => {
    const { fetch, guest, k } = vmWith(3000, (req, res) => res.end(req.url));
    expect(await (await fetch("/1")).text()).toBe("/1");
    const pooled = k.sockets.size;
    const closed = new Promise<void>((resolve) => guest.accepted[0]!.once("close", resolve));
    guest.accepted[0]!.destroy();
    await closed;
    // Both ends are gone: the guest's closed it, and the host's pending read saw end of file.
    await vi.waitFor(() => expect(k.sockets.size).toBe(pooled - 2));
    expect(await (await fetch("/2")).text()).toBe("/2");
    expect(guest.accepted).toHaveLength(2);
  });

  it("a request the guest drops on a reused connection without answering is sent again once on a new one; a streamed one is not", async () => {
    const seen: string[] = [];
    const served = new WeakMap<object, number>();
    const { fetch, guest } = vmWith(3000, (req, res) => {
      seen.push(req.url!);
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      // The second request on any connection is dropped unanswered, as a guest closing an idle connection just as it is reused.
      if (n === 2) req.socket.destroy();
      else res.end(`${req.url} ${n}`);
    });
    expect(await (await fetch("/a")).text()).toBe("/a 1");
    expect(await (await fetch("/b")).text()).toBe("/b 1");
    expect(seen).toEqual(["/a", "/b", "/b"]);
    expect(guest.accepted).toHaveLength(2);
    const body = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode("x"));
        c.close();
      },
    });
    await expect(fetch("/c", { method: "POST", body })).rejects.toMatchObject({ code: "ECONNRESET", message: expect.stringContaining("socket hang up") });
    expect(seen).toEqual(["/a", "/b", "/b", "/c"]);
  });

  it("a guest that ends the connection before answering, or answers what is not HTTP, fails the fetch with Node's codes", async () => {
    const { fetch } = vmWith(3000, (req, res) => {
      if (req.url === "/drop") req.socket.destroy();
      else if (req.url === "/garbage") req.socket.end("SMTP ready\r\n\r\n");
      else if (req.url === "/huge-head") {
        res.setHeader("x-big", "v".repeat(20_000));
        res.end();
      } else res.end("fine");
    });
    await expect(fetch("/drop")).rejects.toMatchObject({ code: "ECONNRESET" });
    await expect(fetch("/garbage")).rejects.toMatchObject({ code: "HPE_INVALID_CONSTANT" });
    await expect(fetch("/huge-head")).rejects.toMatchObject({ code: "HPE_HEADER_OVERFLOW" });
    expect(await (await fetch("/")).text()).toBe("fine");
  });

  it("a body that runs until the guest closes (no length, Connection: close) is read to its end, and that connection is not kept", async () => {
    const { fetch, guest } = vmWith(3000, (req, res) => {
      if (req.url === "/eof") {
        res.socket!.end("HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nuntil the end");
        return;
      }
      res.end("next");
    });
    expect(await (await fetch("/eof")).text()).toBe("until the end");
    expect(await (await fetch("/")).text()).toBe("next");
    expect(guest.accepted).toHaveLength(2);
  });

  it(`keeps at most ${VM_FETCH_IDLE_PER_PORT} idle connections per port and closes the rest`, async () => {
    const gate = deferred();
    const { fetch, guest, k } = vmWith(3000, (_req, res) => void gate.promise.then(() => res.end("ok")));
    const before = k.sockets.size;
    const many = Array.from({ length: VM_FETCH_IDLE_PER_PORT + 4 }, () => fetch());
    await vi.waitFor(() => expect(guest.accepted).toHaveLength(VM_FETCH_IDLE_PER_PORT + 4));
    gate.resolve();
    for (const r of await Promise.all(many)) expect(await r.text()).toBe("ok");
    // Each kept connection is two sockets (the host's end and the guest's); the 4 others closed on both sides.
    await vi.waitFor(() => expect(k.sockets.size).toBe(before + 2 * VM_FETCH_IDLE_PER_PORT));
  });

  it("nothing listening: rejects with the KernelError ECONNREFUSED, syscall connect, port", async () => {
    const { fetch } = vmWith(3000, echo);
    const vf = new VmFetch(kernel().sockets);
    fetchers.push(vf);
    const e = await vf.fetch(3001, new URL("http://localhost:3001/"), "/", undefined).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(KernelError);
    expect(e).toMatchObject({ code: "ECONNREFUSED", syscall: "connect", port: 3001 });
    // The same VM still serves its listener.
    expect((await fetch()).status).toBe(201);
  });

  it("two VMs both listen on 3000 and each fetch reaches its own, while the host listens on 3000 too (doc test 28)", async () => {
    const host = net.createServer((s) => s.destroy());
    let hostPort = 3000;
    await new Promise<void>((resolve, reject) => {
      host.once("error", (e: NodeJS.ErrnoException) => {
        if (e.code !== "EADDRINUSE") return reject(e);
        hostPort = 0; // 3000 is taken on this machine: any host port shows the same
        host.listen(0, "127.0.0.1", resolve);
      });
      host.listen(3000, "127.0.0.1", resolve);
    });
    try {
      const a = vmWith(3000, (_req, res) => res.end("A"));
      const b = vmWith(3000, (_req, res) => res.end("B"));
      expect(await (await a.fetch()).text()).toBe("A");
      expect(await (await b.fetch()).text()).toBe("B");
      expect(await (await a.fetch()).text()).toBe("A");
      expect(host.listening).toBe(true);
      if (hostPort === 3000) expect((host.address() as net.AddressInfo).port).toBe(3000);
    } finally {
      await new Promise((resolve) => host.close(resolve));
    }
  });

  it("aborting rejects with the signal's reason, before the answer and while reading the body", async () => {
    const gate = deferred();
    const connectionOf = new Map<string, unknown>();
    const { fetch } = vmWith(3000, (req, res) => {
      connectionOf.set(req.url!, req.socket);
      if (req.url === "/slow") res.write("part");
      void gate.promise.then(() => res.end());
    });
    const early = new AbortController();
    const pending = fetch("/never", { signal: early.signal });
    early.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await expect(fetch("/", { signal: AbortSignal.abort(new Error("stop")) })).rejects.toThrow("stop");

    const late = new AbortController();
    const res = await fetch("/slow", { signal: late.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("part");
    late.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
    // An aborted connection is not reused: the next fetch is answered on another one.
    gate.resolve();
    expect((await fetch("/after")).status).toBe(200);
    expect(connectionOf.get("/after")).toBeDefined();
    expect(connectionOf.get("/after")).not.toBe(connectionOf.get("/slow"));
  });

  it("dispose destroys the connections: a running request fails with EPERM, idle ones close", async () => {
    const gate = deferred();
    const { fetch, vf, guest, k } = vmWith(3000, (req, res) => {
      if (req.url === "/hang") void gate.promise.then(() => res.end());
      else res.end("ok");
    });
    const hanging = fetch("/hang");
    await new Promise<void>((resolve) => guest.server.once("request", () => resolve()));
    expect(await (await fetch("/")).text()).toBe("ok"); // a second connection, left idle in the keep-alive pool
    const opened = k.sockets.size;
    const closes = guest.accepted.map((c) => new Promise<void>((resolve) => c.once("close", resolve)));
    expect(closes).toHaveLength(2);
    vf.dispose();
    await expect(hanging).rejects.toMatchObject({ code: "EPERM" });
    await Promise.all(closes); // the guest read end of file on both and closed
    expect(k.sockets.size).toBe(opened - 4); // both host ends, both guest ends; the listener stays
    gate.resolve();
  });

  it("a program that fetches and forgets dispose() exits by itself", async () => {
    const fixture = fileURLToPath(new URL("./fixtures/fetch-forgets-dispose.ts", import.meta.url));
    const { stdout } = await run(process.execPath, ["--import", "tsx", fixture], { timeout: RUN_DEADLINE_MS });
    expect(stdout).toBe("200 hello /a\n200 hello /b\nECONNREFUSED\n");
  });
});

describe("vm.fetch and vm.waitForListener on the public API", () => {
  it("checks its arguments, is refused with nothing listening, and is EPERM once disposed", async () => {
    const vm = await createVm();
    await expect(vm.fetch(0)).rejects.toThrow(TypeError);
    await expect(vm.fetch(70000, "/")).rejects.toThrow(TypeError);
    await expect(vm.fetch("http://example.com/")).rejects.toThrow(TypeError);
    await expect(vm.fetch(3000, "https://localhost/")).rejects.toThrow(TypeError);
    await expect(vm.fetch("not a url")).rejects.toThrow(TypeError);
    for (const call of [vm.fetch(3000), vm.fetch("http://localhost:3000/x"), vm.fetch(new Request("http://127.0.0.1:3000/"))])
      await expect(call).rejects.toMatchObject({ name: "KernelError", code: "ECONNREFUSED", syscall: "connect", port: 3000 });
    await expect(vm.fetch("http://localhost/")).rejects.toMatchObject({ code: "ECONNREFUSED", port: 80 });
    await vm.dispose();
    await expect(vm.fetch(3000)).rejects.toMatchObject({ code: "EPERM" });
  });

  it("waitForListener times out with ETIMEDOUT, ends with EPERM on dispose, and checks its arguments", async () => {
    const vm = await createVm();
    await expect(vm.waitForListener(3000, { timeout: 20 })).rejects.toMatchObject({ code: "ETIMEDOUT" });
    await expect(vm.waitForListener(0)).rejects.toThrow(TypeError);
    await expect(vm.waitForListener(3000, { timeout: -1 })).rejects.toThrow(TypeError);
    const forever = vm.waitForListener(3000, { timeout: Infinity }).catch((e: unknown) => e);
    await vm.dispose();
    expect(await forever).toMatchObject({ code: "EPERM" });
  });

  it("waitForListener resolves once a guest listens (through the kernel)", async () => {
    const k = kernel();
    const waiting = k.sockets.waitForListener(3000, Infinity);
    const guest = guestHttpServer(k, 3000, echo);
    servers.push(guest);
    expect(await waiting).toMatchObject({ proto: "tcp", port: 3000, pid: guest.guest.p.pid });
  });
});
