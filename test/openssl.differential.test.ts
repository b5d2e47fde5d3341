import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";

/**
 * The VM's openssl (guests/dist/openssl.wasm, OpenSSL 3.0.19) against the host's openssl: each case is a sequence
 * of command lines run one by one through a shell in a directory of the same absolute path in the VM and on the
 * host, holding the test certificates of test/fixtures/tls, with the same minimal OPENSSL_CONF; every line's
 * stdout, stderr and exit status must be identical. The host's must be 3.0.19 too (Debian 12's), so outputs that
 * name the version compare as they are. Outputs made of random bytes (keys, signatures, IVs) are compared by
 * their properties: what a key's public half verifies, how long a random string is.
 *
 * Normalized in both: the thread id that starts OpenSSL's error lines (the VM's build has no threads) and the
 * source file and line they end with (Debian builds in a subdirectory and patches the sources).
 */

const host = spawnSync("openssl", ["version"], { encoding: "utf8" });
const hostVersion = host.status === 0 ? host.stdout.trim() : "";
const SAME_RELEASE = hostVersion.startsWith("OpenSSL 3.0.19 ");

interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const FIXTURES = join(import.meta.dirname, "fixtures/tls");
const PEMS = Object.fromEntries(
  readdirSync(FIXTURES)
    .filter((f) => f.endsWith(".pem"))
    .map((f) => [f, readFileSync(join(FIXTURES, f), "utf8")]),
);
/** What `req` reads: a distinguished name section, and nothing else of Debian's openssl.cnf. */
const CONF = "[req]\ndistinguished_name = dn\nprompt = no\n\n[dn]\nCN = from the config file\nO = agentos-vm\n";
const DATA = "The quick brown fox jumps over the lazy dog\n";
const KEY = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const IV = "0f0e0d0c0b0a09080706050403020100";
const AES = `openssl enc -aes-256-cbc -K ${KEY} -iv ${IV}`;


const CASES: Record<string, string[]> = {
  "version": ["openssl version", "openssl version -v", "openssl version -d"],
  "dgst from stdin": [
    "printf hello | openssl dgst -sha256",
    "printf hello | openssl dgst -sha1",
    "printf hello | openssl dgst -md5",
    "printf hello | openssl dgst -sha512",
    "printf '' | openssl dgst -sha384 -hex",
    "printf hello | openssl dgst -sha256 -r",
    "printf hello | openssl sha256",
  ],
  "dgst of files": [
    "openssl dgst -sha256 data.txt",
    "openssl dgst -sha1 -r data.txt ca.pem",
    "openssl dgst -md5 data.txt leaf.pem",
    "openssl dgst -sha512 -hex data.txt",
    "openssl dgst -sha3-256 data.txt",
    "openssl dgst -blake2b512 data.txt",
    "openssl dgst -sha256 -binary data.txt | od -An -tx1",
    "openssl dgst -sha256 -hmac secret data.txt",
    "openssl md5 data.txt",
  ],
  "enc -aes-256-cbc with -K and -iv": [
    `${AES} -in data.txt | od -An -tx1`,
    `${AES} -in data.txt -out data.enc && ${AES} -d -in data.enc`,
    `${AES} -base64 -in data.txt`,
    `${AES} -a -in data.txt | ${AES} -d -a`,
    `printf 'no padding!12345' | ${AES} -nopad | od -An -tx1`,
    "printf hello | openssl enc -aes-128-ctr -K 000102030405060708090a0b0c0d0e0f -iv 00000000000000000000000000000000 | od -An -tx1",
    "printf hello | openssl enc -chacha20 -K 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -iv 00000000000000000000000000000000 | od -An -tx1",
  ],
  "enc with a password, -pbkdf2 and a fixed salt": [
    "openssl enc -aes-256-cbc -pbkdf2 -S 0102030405060708 -pass pass:hunter2 -a -in data.txt",
    "openssl enc -aes-256-cbc -pbkdf2 -iter 1000 -S 0102030405060708 -pass pass:hunter2 -P",
    "openssl enc -aes-128-cbc -md sha256 -S a1a2a3a4a5a6a7a8 -pass pass:pw -P",
    "openssl enc -aes-256-cbc -pbkdf2 -S 0102030405060708 -pass pass:hunter2 -in data.txt -out p.enc && openssl enc -d -aes-256-cbc -pbkdf2 -pass pass:hunter2 -in p.enc",
    "openssl enc -d -aes-256-cbc -pbkdf2 -pass pass:wrong -in p.enc > /dev/null; echo status $?",
  ],
  "base64": [
    "openssl base64 -in data.txt",
    "openssl base64 -e < leaf.pem",
    "openssl base64 -in data.txt | openssl base64 -d",
    "printf 'aGVsbG8gd29ybGQ=' | openssl base64 -d -A",
    "head -c 100 ca.pem | openssl base64 -A; echo",
  ],
  "x509 fields": [
    "openssl x509 -in ca.pem -noout -subject -issuer",
    "openssl x509 -in leaf.pem -noout -subject -issuer -dates -serial",
    "openssl x509 -in leaf.pem -noout -fingerprint",
    "openssl x509 -in leaf.pem -noout -fingerprint -sha256",
    "openssl x509 -in leaf.pem -noout -ext subjectAltName,basicConstraints",
    "openssl x509 -in expired.pem -noout -enddate -checkend 0; echo status $?",
    "openssl x509 -in leaf.pem -noout -pubkey",
    "openssl x509 -in leaf.pem -outform DER | openssl x509 -inform DER -noout -subject -nameopt RFC2253",
    "openssl x509 -in wrong-name.pem -noout -subject -hash -issuer_hash",
  ],
  "x509 -text": ["openssl x509 -in ca.pem -noout -text", "openssl x509 -in leaf.pem -noout -text", "openssl x509 -in self-signed.pem -text"],
  "verify": [
    "openssl verify -CAfile ca.pem leaf.pem",
    "openssl verify -CAfile ca.pem leaf.pem wrong-name.pem",
    "openssl verify -CAfile ca.pem expired.pem",
    "openssl verify -CAfile ca.pem unknown-ca-leaf.pem",
    "openssl verify -CAfile other-ca.pem unknown-ca-leaf.pem",
    "openssl verify -CAfile ca.pem self-signed.pem",
    "openssl verify -CAfile ca.pem -verify_hostname localhost leaf.pem",
    "openssl verify -CAfile ca.pem -verify_hostname nope.example leaf.pem",
  ],
  "req -new -x509 with a fixed key": [
    "openssl req -new -x509 -key leaf-key.pem -subj '/CN=made here/O=agentos-vm' -days 30 -out made.pem && openssl x509 -in made.pem -noout -subject -issuer",
    "openssl req -new -x509 -key leaf-key.pem -subj '/CN=made here' -days 30 -out made.pem && openssl pkey -in leaf-key.pem -pubout -out key.pub && openssl x509 -in made.pem -noout -pubkey | cmp - key.pub && echo same key",
    "openssl req -new -x509 -key leaf-key.pem -days 30 -out conf.pem && openssl x509 -in conf.pem -noout -subject",
    "openssl req -new -key leaf-key.pem -subj /CN=request -out r.csr && openssl req -in r.csr -noout -verify -subject",
    "openssl req -new -x509 -key leaf-key.pem -subj /CN=ca -days 1 -out self.pem && openssl verify -CAfile self.pem self.pem",
  ],
  "keys: the committed key": [
    "openssl pkey -in leaf-key.pem -pubout",
    "openssl pkey -in leaf-key.pem -noout -text",
    "openssl ec -in leaf-key.pem -pubout 2>&1",
    "openssl pkcs8 -topk8 -nocrypt -in leaf-key.pem",
    "openssl dgst -sha256 -sign leaf-key.pem -out s.sig data.txt && openssl x509 -in leaf.pem -pubkey -noout > pub.pem && openssl dgst -sha256 -verify pub.pem -signature s.sig data.txt",
  ],
  "keys: genpkey and pkey -pubout": [
    "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec.pem && head -1 ec.pem && openssl pkey -in ec.pem -noout -text | grep -E '^(Private|ASN1|NIST)'",
    "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec.pem && openssl pkey -in ec.pem -pubout -out ecpub.pem && openssl dgst -sha256 -sign ec.pem -out ec.sig data.txt && openssl dgst -sha256 -verify ecpub.pem -signature ec.sig data.txt",
    "openssl genpkey -algorithm ED25519 | openssl pkey -pubout | openssl pkey -pubin -noout -text | head -1",
    "openssl genpkey -algorithm X25519 -out x.pem && openssl pkey -in x.pem -pubout | wc -l",
    "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out rsa.pem 2>/dev/null && openssl pkey -in rsa.pem -noout -text | head -1 && openssl rsa -in rsa.pem -check -noout",
  ],
  "rand": ["openssl rand -hex 16 | wc -c", "openssl rand 48 | wc -c", "openssl rand -base64 30 | wc -c"],
  "other deterministic commands": [
    "openssl prime 97 561",
    "openssl errstr 0A00010B 0A000086",
    "openssl asn1parse -in ca.pem",
    "openssl passwd -6 -salt saltsalt secret",
    "openssl passwd -1 -salt abc secret",
    "openssl ciphers -v 'ECDHE-ECDSA-AES128-GCM-SHA256:TLS_AES_128_GCM_SHA256'",
    "openssl crl2pkcs7 -nocrl -certfile ca.pem | openssl pkcs7 -print_certs -noout",
    "openssl mac -digest SHA256 -macopt key:secret -in data.txt HMAC",
    "openssl kdf -keylen 16 -kdfopt digest:SHA256 -kdfopt pass:pw -kdfopt salt:salt -kdfopt iter:10 PBKDF2",
  ],
  "errors": [
    "openssl dgst -sha256 missing.txt",
    "openssl x509 -in missing.pem -noout",
    "openssl dgst -nosuchoption data.txt",
    "openssl x509 -nosuchflag",
    "openssl nosuchcmd",
    "openssl enc -aes-256-cbc -K 00 -iv 00 -in data.txt | wc -c",
    "openssl x509 -in data.txt -noout",
    "openssl base64 -d -in missing.b64",
  ],
};

let vm: AgentOs;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "openssl-diff-"));
  vm = await AgentOs.create();
  await vm.mkdir(root, { recursive: true });
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
});

const env = (dir: string): Record<string, string> => ({ HOME: `${dir}/home`, LANG: "C.UTF-8", OPENSSL_CONF: `${dir}/home/openssl.cnf` });

function onHost(dir: string, step: string): Outcome {
  const r = spawnSync("bash", ["-c", step], {
    cwd: `${dir}/w`,
    env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", ...env(dir) },
    encoding: "utf8",
    timeout: RUN_DEADLINE_MS,
  });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? -1 };
}

async function inVm(dir: string, step: string): Promise<Outcome> {
  const r = await vm.exec(step, { cwd: `${dir}/w`, env: env(dir), timeout: RUN_DEADLINE_MS });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

/** OpenSSL's error lines: `<thread id>:error:<code>:<library>:<function>:<reason>:<file>:<line>:<data>`. */
const errorLine = (text: string): string => text.replace(/^[0-9A-F]+:error:([^:\n]*:[^:\n]*:[^:\n]*:[^:\n]*):[^:\n]*\.c:\d+:/gm, "<thread>:error:$1:<file>:<line>:");
/**
 * A "system library" error's code is 0x80000000 | errno, and the VM's errno numbers are WASI's: ENOENT is 44
 * there, 2 on Linux (the reason text, strerror's, is the same).
 */
const linuxErrno = (text: string): string => text.replaceAll(":error:8000002C:system library:", ":error:80000002:system library:");

const names = Object.keys(CASES);
const total = Object.values(CASES).reduce((n, c) => n + c.length, 0);

describe.skipIf(!SAME_RELEASE).concurrent(`openssl in the VM against the host's ${hostVersion.split(" ").slice(0, 2).join(" ")} (${names.length} cases, ${total} command lines)`, () => {
  it.each(names)("%s", async (name) => {
    const dir = join(root, name.replace(/[^a-z0-9]+/gi, "-"));
    for (const d of ["w", "home"]) {
      mkdirSync(join(dir, d), { recursive: true });
      await vm.mkdir(join(dir, d), { recursive: true });
    }
    const files: Record<string, string> = { ...Object.fromEntries(Object.entries(PEMS).map(([f, text]) => [`w/${f}`, text])), "w/data.txt": DATA, "home/openssl.cnf": CONF };
    for (const [f, text] of Object.entries(files)) {
      writeFileSync(join(dir, f), text);
      await vm.writeFile(join(dir, f), text);
    }
    const norm = (o: Outcome): Outcome => ({ stdout: o.stdout.replaceAll(dir, "$DIR"), stderr: errorLine(o.stderr.replaceAll(dir, "$DIR")), exitCode: o.exitCode });
    for (const [i, step] of CASES[name]!.entries()) {
      const expected = norm(onHost(dir, step));
      const got = norm(await inVm(dir, step));
      got.stderr = linuxErrno(got.stderr);
      expect(got, `step ${i}: ${step}`).toEqual(expected);
    }
  }, CASE_DEADLINE_MS * 4);
});

// What the VM's openssl says it is, whatever the host has.
describe("openssl version", () => {
  it("names OpenSSL 3.0.19", async () => {
    const vm1 = await AgentOs.create();
    try {
      const r = await vm1.exec("openssl version", { timeout: RUN_DEADLINE_MS });
      expect(r).toMatchObject({ exitCode: 0, stderr: "", stdout: "OpenSSL 3.0.19 27 Jan 2026 (Library: OpenSSL 3.0.19 27 Jan 2026)\n" });
    } finally {
      await vm1.dispose();
    }
  }, CASE_DEADLINE_MS);
});

// The VM's /usr/lib/ssl/openssl.cnf (Debian 12's, guests/openssl/openssl.cnf): `req` works with no OPENSSL_CONF
// and takes its v3_ca extensions from there, as on Debian.
describe("the default openssl.cnf", () => {
  it("lets openssl req make a self-signed CA without OPENSSL_CONF", async () => {
    const vm1 = await AgentOs.create();
    try {
      const req = "openssl req -new -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=test -days 2 -keyout k.pem -out c.pem 2>/dev/null";
      const r = await vm1.exec(`cd /tmp && ${req} && openssl x509 -in c.pem -noout -subject -issuer -ext basicConstraints`, { timeout: RUN_DEADLINE_MS });
      expect(r).toMatchObject({ exitCode: 0, stderr: "", stdout: "subject=CN = test\nissuer=CN = test\nX509v3 Basic Constraints: critical\n    CA:TRUE\n" });
      expect(await vm1.readFile("/usr/lib/ssl/openssl.cnf", "utf8")).toBe(readFileSync(new URL("../guests/openssl/openssl.cnf", import.meta.url), "utf8"));
    } finally {
      await vm1.dispose();
    }
  }, CASE_DEADLINE_MS);
});
