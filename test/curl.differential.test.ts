import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { rootCertificates } from "node:tls";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, it } from "vitest";
import { nativeCurl } from "../guests/c.js";
import { AgentOs } from "../src/index.js";
import { CA_BUNDLE } from "../src/kernel/runtime-image.js";
import { HOST_GATEWAY_ADDRESS } from "../src/net/address-class.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import type { Outcome } from "./host-twin.js";
import { gatewayAddress, onHost, pem, runHttpCase, startTestServers, type TestServers } from "./http-twin.js";

/**
 * The VM's curl (guests/dist/curl.wasm, curl 8.14.1) against a native build of the same source with the same
 * configure options (guests/c.ts nativeCurl, built once a machine: nativeBuild), both talking to HTTP
 * servers this test starts on 127.0.0.1. The VM reaches them through its network policy at the host's gateway
 * address (host.agentos.internal, 198.18.0.1), the native curl at 127.0.0.1; each command line runs through a
 * shell in a directory of the same absolute path on both sides, and exit status, stdout bytes and stderr must
 * be identical once the native side's 127.0.0.1 reads 198.18.0.1 and durations ("after 3 ms") are blanked (and
 * one racy line of -v, below).
 * Unresolvable names: `.invalid` (RFC 6761) on the host, denied by the VM's policy.
 * HTTPS: servers with the committed test certificates (test/fixtures/tls), asked for as host.agentos.internal on
 * both sides (`--resolve` gives the name its address, 127.0.0.1 natively, 198.18.0.1 in the VM, so that the
 * leaf's names are checked alike). The VM trusts the test CA through its bundle (/etc/ssl/certs/
 * ca-certificates.crt: Node's roots and the test CA, given as a file of the VM), the native curl through
 * SSL_CERT_FILE (the test CA alone); `-v` cases name the CA file with `--cacert`, the same relative path on both
 * sides.
 */

let servers: TestServers;
let port: number;
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
    if (url.pathname === "/to-http") return void res.writeHead(302, { location: `http://host.agentos.internal:${port}/text` }).end();
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

/**
 * Command lines; $URL is the server's base URL, $CLOSED a URL on the port nothing listens on. HTTPS: $RESOLVE
 * gives host.agentos.internal its address for every port, $GOOD, $WRONG_NAME, $EXPIRED, $UNKNOWN_CA,
 * $SELF_SIGNED are https://host.agentos.internal:PORT of the servers with those certificates, $PLAIN_HTTPS the
 * plain HTTP server's port asked for with https://.
 */
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
  "https: 200 with the CA trusted": ["curl -sS $RESOLVE $GOOD/text", "curl -sS -i $RESOLVE $GOOD/big | md5sum"],
  "https: POST and -w over TLS": ["curl -sS $RESOLVE -d 'a=1&b=2' -w '%{http_code} %{scheme} %{ssl_verify_result}\\n' $GOOD/echo"],
  "https: unknown issuer is exit 60": ["curl -sS $RESOLVE $UNKNOWN_CA/text"],
  "https: self-signed is exit 60": ["curl -sS $RESOLVE $SELF_SIGNED/text"],
  "https: a name the certificate does not cover is exit 60": ["curl -sS $RESOLVE $WRONG_NAME/text"],
  "https: expired is exit 60": ["curl -sS $RESOLVE $EXPIRED/text"],
  "https: -k accepts them": ["curl -sSk $RESOLVE $UNKNOWN_CA/text $WRONG_NAME/text $EXPIRED/text"],
  "https: --cacert": ["curl -sS --cacert ca.pem $RESOLVE $GOOD/text", "curl -sS --cacert other-ca.pem $RESOLVE $GOOD/text"],
  "https: a plain HTTP server is exit 35": ["curl -sS $RESOLVE $PLAIN_HTTPS/text"],
  "https: a redirect to http": ["curl -sS $RESOLVE $GOOD/to-http", "curl -sSL $RESOLVE $GOOD/to-http"],
  "https: -v, normalised": ["curl -sS -v --cacert ca.pem $RESOLVE $GOOD/text"],
};

beforeAll(async () => {
  const curlBin = await nativeCurl();
  servers = await startTestServers(handle);
  port = servers.port;
  root = mkdtempSync(join(tmpdir(), "curl-diff-"));
  mkdirSync(join(root, "bin"));
  symlinkSync(curlBin, join(root, "bin/curl"));
  writeFileSync(join(root, "ca.pem"), pem("ca.pem"));
  const bundle = `${rootCertificates.join("\n")}\n${pem("ca.pem").toString()}`;
  vm = await AgentOs.create({ network: { allow: servers.allow }, files: { [CA_BUNDLE]: bundle } });
  await vm.mkdir(root, { recursive: true });
}, SETUP_DEADLINE_MS * 2);

afterAll(async () => {
  await vm?.dispose();
  await servers?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

function urls(step: string, address: string): string {
  const { closedPort, tlsPorts } = servers;
  const resolve = [port, ...Object.values(tlsPorts)].map((p) => `--resolve host.agentos.internal:${p}:${address}`).join(" ");
  let out = step.replaceAll("$URL", `http://${address}:${port}`).replaceAll("$CLOSED", `http://${address}:${closedPort}`).replaceAll("$RESOLVE", resolve);
  out = out.replaceAll("$PLAIN_HTTPS", `https://host.agentos.internal:${port}`);
  for (const [name, p] of Object.entries(tlsPorts)) out = out.replaceAll(`$${name}`, `https://host.agentos.internal:${p}`);
  return out;
}

/** The native curl, with the test CA alone. */
const host = (dir: string, step: string): Promise<Outcome> =>
  onHost(urls(step, "127.0.0.1"), `${dir}/w`, { PATH: `${root}/bin:${process.env["PATH"] ?? "/usr/bin:/bin"}`, HOME: `${dir}/home`, LANG: "C.UTF-8", SSL_CERT_FILE: `${root}/ca.pem` }, gatewayAddress);

async function guest(dir: string, step: string): Promise<Outcome> {
  const r = await vm.exec(urls(step, HOST_GATEWAY_ADDRESS), { cwd: `${dir}/w`, env: { HOME: `${dir}/home`, LANG: "C.UTF-8" }, timeout: RUN_DEADLINE_MS });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

/**
 * Durations are blanked ("after 3 ms", "after 1001 milliseconds"), and one line of -v whose presence is a race:
 * curl says "Request completely sent off" only when it notes the sent request before the response has been read
 * whole (lib/request.c req_set_upload_done), which depends on how fast the server answers, on any system. Over
 * TLS, the size of the server's CertificateVerify message: an ECDSA signature's DER length varies from one
 * handshake to the next (70 to 72 bytes); and the trace of the record header just before the status line
 * (`{ [5 bytes data]`), which comes and goes with timing: lib/vtls/openssl.c ossl_trace writes only while a
 * transfer is current on the connection, and the record may be read with the session tickets before it is.
 */
const normalised = (s: string): string =>
  s
    .replace(/after \d+ ms/g, "after N ms")
    .replace(/after \d+ milliseconds/g, "after N milliseconds")
    .replace(/^\* Request completely sent off\n/m, "")
    .replace(/(TLS handshake, CERT verify \(15\):\n\{ \[)\d+( bytes data\])/, "$1N$2")
    .replace(/^\{ \[5 bytes data\]\n(?=< HTTP\/)/m, "");

const names = Object.keys(CASES);

describe.concurrent(`curl in the VM against a native build of curl 8.14.1 (${names.length} cases)`, () => {
  it.each(names)("%s", async (name) => {
    await runHttpCase({ vm, root, host, guest, normalised }, name, CASES[name]!);
  }, CASE_DEADLINE_MS * 2);
});
