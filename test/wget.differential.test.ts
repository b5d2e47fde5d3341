import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, it } from "vitest";
import { nativeWget } from "../guests/wget.js";
import { AgentOs } from "../src/index.js";
import { HOST_GATEWAY_ADDRESS } from "../src/net/address-class.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import type { Outcome } from "./host-twin.js";
import { onHost, pem, runHttpCase, startTestServers, type TestServers } from "./http-twin.js";

/**
 * The VM's wget (guests/dist/wget.wasm, GNU wget 1.21.3 with OpenSSL) against a native build of the same source
 * with the same configure options (guests/wget.ts nativeWget, built once a machine: guests/c.ts nativeBuild),
 * both talking to servers this test starts on 127.0.0.1. The VM reaches them through its network policy at the
 * host's gateway address (host.agentos.internal, 198.18.0.1), the native wget at 127.0.0.1; each command line
 * runs through a shell in a directory of the same absolute path on both sides, and exit status, stdout bytes
 * and stderr must be identical once the native side's 127.0.0.1 reads 198.18.0.1 and times, rates and
 * durations are blanked.
 * HTTPS: servers with the committed test certificates (test/fixtures/tls), asked for by a name the leaf covers:
 * host.agentos.internal in the VM, localhost natively (wget has no --resolve; `-4` keeps the host's ::1 out),
 * the native side's `localhost` then reading host.agentos.internal. The VM trusts the test CA through
 * `network.ca` (its bundle), the native wget through SSL_CERT_FILE (the test CA alone).
 * Unresolvable names: `.invalid` (RFC 6761) on the host, denied by the VM's policy.
 */

let servers: TestServers;
let vm: AgentOs;
let root: string;

const BODY = "line one\nline two\n".repeat(50);
const BIG = BODY.repeat(200);

function handle(req: IncomingMessage, res: ServerResponse): void {
  res.sendDate = false;
  const chunks: Buffer[] = [];
  req.on("data", (d: Buffer) => chunks.push(d));
  req.on("end", () => {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname;
    if (path === "/missing") return void res.writeHead(404, { "content-type": "text/plain" }).end("not here\n");
    if (path === "/redirect") return void res.writeHead(302, { location: "/text" }).end();
    if (path === "/redirect-out") return void res.writeHead(302, { location: "http://denied.invalid/" }).end();
    if (path === "/loop") return void res.writeHead(302, { location: "/loop" }).end();
    if (path === "/gzip") return void res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" }).end(gzipSync(BODY, { level: 9 }));
    if (path === "/auth") {
      if (req.headers.authorization !== `Basic ${Buffer.from("user:secret").toString("base64")}`)
        return void res.writeHead(401, { "www-authenticate": 'Basic realm="test"', "content-type": "text/plain" }).end("who are you\n");
      return void res.writeHead(200, { "content-type": "text/plain" }).end("welcome\n");
    }
    if (path === "/echo") {
      const body = Buffer.concat(chunks).toString("latin1");
      const shown = ["content-type", "content-length", "authorization", "x-custom", "accept-encoding", "user-agent", "accept", "range"];
      const headers = shown.filter((h) => req.headers[h] !== undefined).map((h) => `${h}: ${String(req.headers[h])}\n`);
      return void res.writeHead(200, { "content-type": "text/plain" }).end(`${req.method} ${req.url}\n${headers.join("")}\n${body}`);
    }
    if (path === "/big") {
      // Ranges, for -c: `bytes=N-` only, as wget asks.
      const from = /^bytes=(\d+)-$/.exec(req.headers.range ?? "")?.[1];
      if (from !== undefined) {
        const start = Number(from);
        if (start >= BIG.length) return void res.writeHead(416, { "content-range": `bytes */${BIG.length}` }).end();
        return void res
          .writeHead(206, { "content-type": "text/plain", "content-range": `bytes ${start}-${BIG.length - 1}/${BIG.length}`, "content-length": BIG.length - start })
          .end(BIG.slice(start));
      }
      return void res.writeHead(200, { "content-type": "text/plain", "content-length": BIG.length, "accept-ranges": "bytes" }).end(BIG);
    }
    const text = `hello from ${path}\n`;
    res.writeHead(200, { "content-type": "text/plain", "content-length": text.length, "x-served-by": "test" }).end(req.method === "HEAD" ? undefined : text);
  });
}

/**
 * Command lines; $URL is the server's base URL, $CLOSED a URL on the port nothing listens on; $GOOD,
 * $WRONG_NAME, $EXPIRED, $UNKNOWN_CA, $SELF_SIGNED are https://NAME:PORT of the servers with those certificates.
 */
const CASES: Record<string, string[]> = {
  "-q -O -": ["wget -q -O - $URL/text"],
  "-q -O file": ["wget -q -O out.txt $URL/text && cat out.txt"],
  "-q, the file named after the URL, then .1": ["wget -q $URL/page.html && wget -q $URL/page.html && cat page.html page.html.1"],
  "-P a directory": ["wget -q -P sub/dir $URL/in-dir.txt && cat sub/dir/in-dir.txt"],
  "-nv": ["wget -nv $URL/text"],
  "the default output (no -q)": ["wget -O got.txt $URL/text; cat got.txt"],
  "--header": ["wget -q -O - --header 'X-Custom: yes' --header 'Accept: text/x-test' $URL/echo"],
  "--post-data": ["wget -q -O - --post-data 'a=1&b=2' $URL/echo"],
  "--post-file and --method": ["printf 'l1\\nl2\\n' > body.txt && wget -q -O - --post-file body.txt $URL/echo", "wget -q -O - --method=PUT --body-data=x=1 $URL/echo"],
  "-S": ["wget -S -q -O /dev/null $URL/text", "wget -S -O /dev/null $URL/text"],
  "--spider": ["wget --spider -nv $URL/text", "wget --spider -q $URL/missing; echo \"exit $?\""],
  "-c continues a partial file": ["head -c 5000 > big.txt < /dev/null; wget -q -O - $URL/big | head -c 5000 > big.txt; wget -q -c $URL/big && md5sum big.txt && wc -c big.txt"],
  "-c on a complete file": ["wget -q $URL/big && wget -nv -c $URL/big; echo \"exit $?\"; wc -c big"],
  "a 404 is exit 8": ["wget -nv $URL/missing"],
  "a 404 with -q: exit 8, nothing said": ["wget -q $URL/missing"],
  "connection refused: exit 4": ["wget -nv --tries=1 $CLOSED/"],
  "--tries=2 against a refused port: exit 4": ["wget -nv --tries=2 --waitretry=0 $CLOSED/"],
  "an unresolvable or denied name: exit 4": ["wget -nv http://nothing.invalid/"],
  "a redirect, followed": ["wget -nv -O - $URL/redirect"],
  "--max-redirect=0": ["wget -nv --max-redirect=0 $URL/redirect"],
  "a redirect loop: exit 8": ["wget -nv $URL/loop"],
  "a redirect to a name that does not resolve (denied in the VM)": ["wget -nv $URL/redirect-out"],
  "basic auth after a 401": ["wget -q -O - --user=user --password=secret $URL/auth", "wget -nv -O - $URL/auth"],
  "gzip: --compression=auto": ["wget -q -O - --compression=auto $URL/gzip | md5sum", "wget -q -O - $URL/gzip | wc -c"],
  "a larger body through a pipe": ["wget -q -O - $URL/big | md5sum"],
  "several URLs, one failing": ["wget -nv -O all.txt $URL/text $URL/missing $URL/echo; echo \"exit $?\"; cat all.txt"],
  "-i a list of URLs": ["printf '%s\\n' $URL/one $URL/two > list.txt && wget -q -i list.txt && cat one two"],
  "https: 200 with the CA trusted": ["wget -4 -q -O - $GOOD/text", "wget -4 -q -O - $GOOD/big | md5sum"],
  "https: unknown issuer is exit 5": ["wget -4 -nv $UNKNOWN_CA/text"],
  "https: self-signed is exit 5": ["wget -4 -nv $SELF_SIGNED/text"],
  "https: a name the certificate does not cover is exit 5": ["wget -4 -nv $WRONG_NAME/text"],
  "https: expired is exit 5": ["wget -4 -nv $EXPIRED/text"],
  "https: --no-check-certificate": ["wget -4 -q -O - --no-check-certificate $UNKNOWN_CA/text $EXPIRED/text"],
  "https: --ca-certificate": ["wget -4 -q -O - --ca-certificate=ca.pem $GOOD/text", "wget -4 -nv --ca-certificate=other-ca.pem $GOOD/text"],
  "--version's features": ["wget --version | sed -n 3,4p"],
};

beforeAll(async () => {
  const wgetBin = await nativeWget();
  servers = await startTestServers(handle);
  root = mkdtempSync(join(tmpdir(), "wget-diff-"));
  mkdirSync(join(root, "bin"));
  symlinkSync(wgetBin, join(root, "bin/wget"));
  writeFileSync(join(root, "ca.pem"), pem("ca.pem"));
  writeFileSync(join(root, "wgetrc"), "");
  vm = await AgentOs.create({ network: { allow: servers.allow, ca: pem("ca.pem").toString() } });
  await vm.mkdir(root, { recursive: true });
  await vm.writeFile(join(root, "wgetrc"), "");
}, SETUP_DEADLINE_MS * 3);

afterAll(async () => {
  await vm?.dispose();
  await servers?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

function urls(step: string, address: string, name: string): string {
  const { port, closedPort, tlsPorts } = servers;
  let out = step.replaceAll("$URL", `http://${address}:${port}`).replaceAll("$CLOSED", `http://${address}:${closedPort}`);
  for (const [label, p] of Object.entries(tlsPorts)) out = out.replaceAll(`$${label}`, `https://${name}:${p}`);
  return out;
}

/** The native wget, with the test CA alone and not the host's /etc/wgetrc: an empty one on both sides. */
const host = (dir: string, step: string): Promise<Outcome> =>
  onHost(
    urls(step, "127.0.0.1", "localhost"),
    `${dir}/w`,
    { PATH: `${root}/bin:${process.env["PATH"] ?? "/usr/bin:/bin"}`, HOME: `${dir}/home`, LANG: "C.UTF-8", SSL_CERT_FILE: `${root}/ca.pem`, SYSTEM_WGETRC: `${root}/wgetrc` },
    // The name asked for, not the self-signed certificate's own (CN=localhost).
    (s) => s.replaceAll("127.0.0.1", HOST_GATEWAY_ADDRESS).replace(/(?<!CN=)localhost/g, "host.agentos.internal"),
  );

async function guest(dir: string, step: string): Promise<Outcome> {
  const r = await vm.exec(urls(step, HOST_GATEWAY_ADDRESS, "host.agentos.internal"), {
    cwd: `${dir}/w`,
    env: { HOME: `${dir}/home`, LANG: "C.UTF-8", SYSTEM_WGETRC: `${root}/wgetrc` },
    timeout: RUN_DEADLINE_MS,
  });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

/**
 * Times and rates are blanked: the date and time of each line (`2026-11-29 10:00:00`, `--2026-11-29 10:00:00--`),
 * the rate in parentheses (`(12.3 MB/s)`) and the time before it, the total wall clock time, and what follows
 * the percentage on a dot progress line (`100% 1.23M=0.001s`, or a rate and an estimate).
 */
const normalised = (s: string): string =>
  s
    .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/g, "DATE")
    .replace(/\(\d+(?:\.\d+)? [KMG]?B\/s\)/g, "(RATE)")
    .replace(/ in \d+(?:\.\d+)?m?s \(RATE\)/g, " in TIME (RATE)")
    .replace(/^Total wall clock time: .*$/gm, "Total wall clock time: TIME")
    .replace(/(\d+%) .*$/gm, "$1 RATE TIME");

const names = Object.keys(CASES);

describe.concurrent(`wget in the VM against a native build of GNU wget 1.21.3 (${names.length} cases)`, () => {
  it.each(names)("%s", async (name) => {
    await runHttpCase({ vm, root, host, guest, normalised }, name, CASES[name]!);
  }, CASE_DEADLINE_MS * 2);
});
