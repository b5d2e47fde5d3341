import { execFile } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nativeCurl } from "../guests/c.js";
import { AgentOs } from "../src/index.js";
import { HOST_GATEWAY_ADDRESS } from "../src/net/address-class.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";

/**
 * The VM's curl (guests/dist/curl.wasm, curl 8.14.1) against a native build of the same source with the same
 * configure options (guests/c.ts nativeCurl, built once into guests/curl/target/native), both talking to HTTP
 * servers this test starts on 127.0.0.1. The VM reaches them through its network policy at the host's gateway
 * address (host.agentos.internal, 198.18.0.1), the native curl at 127.0.0.1; each command line runs through a
 * shell in a directory of the same absolute path on both sides, and exit status, stdout bytes and stderr must
 * be identical once the native side's 127.0.0.1 reads 198.18.0.1 and durations ("after 3 ms") are blanked (and
 * one racy line of -v, below).
 * Unresolvable names: `.invalid` (RFC 6761) on the host, denied by the VM's policy.
 */

let server: Server;
let port: number;
/** A port nothing listens on (a server opened and closed), allowed by the VM's policy: a refused connection. */
let closedPort: number;
let curlBin = "";
let vm: AgentOs;
let root: string;

const BODY = "line one\nline two\n".repeat(50);

function handle(req: IncomingMessage, res: ServerResponse): void {
  res.sendDate = false;
  const chunks: Buffer[] = [];
  req.on("data", (d: Buffer) => chunks.push(d));
  req.on("end", () => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/slow") {
      // Headers promised, the body never sent: a client's --max-time ends it (the server closes at the end of the test).
      res.writeHead(200, { "content-type": "text/plain" });
      res.flushHeaders();
      return;
    }
    if (url.pathname === "/missing") return void res.writeHead(404, { "content-type": "text/plain" }).end("not here\n");
    if (url.pathname === "/redirect") return void res.writeHead(302, { location: "/text" }).end();
    if (url.pathname === "/redirect-out") return void res.writeHead(302, { location: "http://denied.invalid/" }).end();
    if (url.pathname === "/gzip") return void res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" }).end(gzipSync(BODY, { level: 9 }));
    if (url.pathname === "/cookie") return void res.writeHead(200, { "set-cookie": ["session=abc123; Path=/", "theme=dark; Path=/; HttpOnly"] }).end("cookies set\n");
    if (url.pathname === "/echo") {
      let body = Buffer.concat(chunks).toString("latin1");
      // multipart's boundary is random: the server shows it as BOUNDARY.
      const boundary = /boundary=(.+)$/.exec(req.headers["content-type"] ?? "")?.[1];
      if (boundary) body = body.replaceAll(boundary, "BOUNDARY");
      const shown = ["content-type", "content-length", "authorization", "cookie", "x-custom", "accept-encoding", "user-agent", "accept"];
      const headers = shown.filter((h) => req.headers[h] !== undefined).map((h) => `${h}: ${String(req.headers[h]).replace(boundary ?? "\0", "BOUNDARY")}\n`);
      return void res.writeHead(200, { "content-type": "text/plain" }).end(`${req.method} ${req.url}\n${headers.join("")}\n${body}`);
    }
    res.writeHead(200, { "content-type": "text/plain", "x-served-by": "test" }).end(url.pathname === "/big" ? BODY.repeat(200) : `hello from ${url.pathname}\n`);
  });
}

interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Command lines; $URL is the server's base URL, $CLOSED a URL on the port nothing listens on. */
const CASES: Record<string, string[]> = {
  "a plain GET, -s": ["curl -s $URL/text"],
  "-sS, a 404 without -f": ["curl -sS $URL/missing; echo \"exit $?\""],
  "-f: 404 is exit 22 with curl's message": ["curl -sSf $URL/missing"],
  "-f -s: exit 22, nothing said": ["curl -sf $URL/missing"],
  "a redirect, not followed and followed (-L)": ["curl -sS $URL/redirect", "curl -sSL $URL/redirect"],
  "-o and -O": ["curl -sS -o out.txt $URL/text && cat out.txt", "curl -sS -O $URL/page.html && cat page.html"],
  "-X PUT and -H": ["curl -sS -X PUT -H 'X-Custom: yes' $URL/echo"],
  "-d form data": ["curl -sS -d 'a=1&b=2' -d c=3 $URL/echo"],
  "--data-binary from a file": ["printf 'l1\\nl2\\n\\001\\n' > body.bin && curl -sS --data-binary @body.bin $URL/echo | od -c"],
  "--data-urlencode": ["curl -sS --data-urlencode 'q=hello world & more' --data-urlencode 'x=ä/ö' $URL/echo"],
  "-G with -d": ["curl -sS -G -d a=1 -d 'b=two words' $URL/echo"],
  "-F multipart, a field and a file": ["printf 'file body\\n' > up.txt && curl -sS -F field=value -F 'file=@up.txt;type=text/plain' $URL/echo"],
  "-u basic auth": ["curl -sS -u 'user:secret pass' $URL/echo"],
  "-w '%{http_code}'": ["curl -sS -o /dev/null -w '%{http_code} %{content_type} %{size_download}\\n' $URL/missing", "curl -s -w '%{http_code}\\n' $URL/text"],
  "-I and -i": ["curl -sS -I $URL/text", "curl -sS -i $URL/text"],
  "-v, normalised": ["curl -sS -v $URL/text"],
  "-b and -c cookies": ["curl -sS -c jar.txt $URL/cookie && cat jar.txt", "curl -sS -b 'a=1; b=2' $URL/echo"],
  "--compressed": ["curl -sS --compressed $URL/gzip | md5sum", "curl -sS $URL/gzip | wc -c"],
  "a larger body through a pipe": ["curl -sS $URL/big | md5sum"],
  "--max-time: exit 28": ["curl -sS --max-time 1 $URL/slow"],
  "connection refused: exit 7, with --retry 0": ["curl -sS --retry 0 $CLOSED/"],
  "an unresolvable name: exit 6": ["curl -sS http://nothing.invalid/"],
  "a redirect to a name that does not resolve (denied in the VM)": ["curl -sSL $URL/redirect-out"],
  "several URLs, one failing": ["curl -sS $URL/text $URL/missing -f $URL/echo; echo \"exit $?\""],
};

beforeAll(async () => {
  curlBin = await nativeCurl();
  server = createServer(handle);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
  const closed = createServer().listen(0, "127.0.0.1");
  await once(closed, "listening");
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  root = mkdtempSync(join(tmpdir(), "curl-diff-"));
  mkdirSync(join(root, "bin"));
  symlinkSync(curlBin, join(root, "bin/curl"));
  vm = await AgentOs.create({ network: { allow: [`host.agentos.internal:${port}`, `host.agentos.internal:${closedPort}`] } });
  await vm.mkdir(root, { recursive: true });
}, SETUP_DEADLINE_MS * 2);

afterAll(async () => {
  await vm?.dispose();
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  if (root) rmSync(root, { recursive: true, force: true });
});

const urls = (step: string, address: string): string => step.replaceAll("$URL", `http://${address}:${port}`).replaceAll("$CLOSED", `http://${address}:${closedPort}`);

/** The native curl through bash, asynchronously: the servers answer from this process's event loop. */
function onHost(dir: string, step: string): Promise<Outcome> {
  const back = (s: string): string => s.replaceAll("127.0.0.1", HOST_GATEWAY_ADDRESS);
  return new Promise((resolve) => {
    execFile(
      "bash",
      ["-c", urls(step, "127.0.0.1")],
      {
        cwd: `${dir}/w`,
        env: { PATH: `${root}/bin:${process.env["PATH"] ?? "/usr/bin:/bin"}`, HOME: `${dir}/home`, LANG: "C.UTF-8" },
        encoding: "utf8",
        timeout: RUN_DEADLINE_MS,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : -1) : 0;
        resolve({ stdout: back(stdout), stderr: back(stderr), exitCode: code });
      },
    );
  });
}

async function inVm(dir: string, step: string): Promise<Outcome> {
  const r = await vm.exec(urls(step, HOST_GATEWAY_ADDRESS), { cwd: `${dir}/w`, env: { HOME: `${dir}/home`, LANG: "C.UTF-8" }, timeout: RUN_DEADLINE_MS });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

/**
 * Durations are blanked ("after 3 ms", "after 1001 milliseconds"), and one line of -v whose presence is a race:
 * curl says "Request completely sent off" only when it notes the sent request before the response has been read
 * whole (lib/request.c req_set_upload_done), which depends on how fast the server answers, on any system.
 */
const normalised = (s: string): string =>
  s
    .replace(/after \d+ ms/g, "after N ms")
    .replace(/after \d+ milliseconds/g, "after N milliseconds")
    .replace(/^\* Request completely sent off\n/m, "");

const names = Object.keys(CASES);

describe.concurrent(`curl in the VM against a native build of curl 8.14.1 (${names.length} cases)`, () => {
  it.each(names)("%s", async (name) => {
    const dir = join(root, name.replace(/[^a-z0-9]+/gi, "-"));
    for (const d of ["w", "home"]) {
      mkdirSync(join(dir, d), { recursive: true });
      await vm.mkdir(join(dir, d), { recursive: true });
    }
    for (const [i, step] of CASES[name]!.entries()) {
      const expected = await onHost(dir, step);
      const got = await inVm(dir, step);
      expect({ ...got, stderr: normalised(got.stderr) }, `step ${i}: ${step}`).toEqual({ ...expected, stderr: normalised(expected.stderr) });
    }
  }, CASE_DEADLINE_MS * 2);
});
