import { execFile, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, normalize } from "node:path";
import { rootCertificates } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { CA_BUNDLE } from "../src/kernel/runtime-image.js";
import { CASE_DEADLINE_MS, RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import type { Outcome } from "./host-twin.js";

/**
 * git over HTTP and HTTPS: the VM's git (guests/dist/git.wasm, git 2.47.3 with libcurl 8.14.1 and OpenSSL
 * 3.0.19) against the host's git, each cloning, fetching, pulling and pushing through servers this test starts
 * on 127.0.0.1: `git http-backend` (the host's) as a CGI program behind a Node HTTP server, and behind an HTTPS
 * one with the committed test certificate (test/fixtures/tls). Each side has servers and repositories of its
 * own, made alike, so that a push by one is not seen by the other; ports read PORT and TLS_PORT in what both
 * print. Both ask for host.agentos.internal: the VM reaches the host there through its network policy, the
 * host's git resolves it to 127.0.0.1 (http.curloptResolve). The VM trusts the test CA through its bundle, the
 * host's git through GIT_SSL_CAINFO. Every step runs in a directory of the same absolute path on both sides, and
 * stdout, stderr and exit status must be identical (no terminal: no progress). A step starting with `@server`
 * runs once per side, in that side's directory of served repositories, and is not compared.
 * Where the host's git (2.39, libcurl 7.88) prints otherwise than git 2.47 with libcurl 8.14, the case records
 * the text the VM prints and says why.
 */

const host = spawnSync("git", ["--version"], { encoding: "utf8" });
const hostVersion = host.status === 0 ? host.stdout.trim() : "";

interface Case {
  steps: string[];
  /** The steps that fail on purpose (every other one must succeed on the host: both sides failing alike is no test). */
  fails?: number[];
  /** Step index → what the VM prints there when the host's older git or libcurl prints otherwise. */
  vm?: Record<number, Partial<Outcome>>;
}

const ENV = {
  GIT_AUTHOR_NAME: "A U Thor",
  GIT_AUTHOR_EMAIL: "author@example.com",
  GIT_AUTHOR_DATE: "1700000000 +0000",
  GIT_COMMITTER_NAME: "C O Mitter",
  GIT_COMMITTER_EMAIL: "committer@example.com",
  GIT_COMMITTER_DATE: "1700000000 +0000",
  GIT_EDITOR: "true",
  // A server asking for a password fails at once, with git's message, instead of waiting for a terminal.
  GIT_TERMINAL_PROMPT: "0",
  LANG: "C.UTF-8",
};
const at = (s: number): string => `GIT_AUTHOR_DATE='${1700000000 + s} +0000' GIT_COMMITTER_DATE='${1700000000 + s} +0000'`;

/** The history every served repository starts with: three commits on main, a branch and a tag. */
const ORIGIN = [
  "git init -q -b main origin && cd origin",
  "printf 'one\\ntwo\\nthree\\n' > a.txt && mkdir -p src && printf 'int main(void) { return 0; }\\n' > src/main.c && echo hello > README",
  "git add . && git commit -q -m 'first commit'",
  `echo four >> a.txt && ${at(60)} git commit -q -am second && git tag -a v1 -m 'version one'`,
  `git checkout -q -b topic && echo t > t.txt && git add t.txt && ${at(120)} git commit -q -m 'on topic' && git checkout -q main`,
  `echo five >> a.txt && ${at(180)} git commit -q -am third`,
].join(" && ");

/** What a clone shows of itself. */
const SHOW = "git log --format='%H %an %ad %s' --date=raw && git rev-parse HEAD && git branch -a && git remote -v && cat a.txt && git status --porcelain=v2 --branch";

/** A new commit on the served repository `$R.git`, made in a working clone of it; `s` seconds after the start. */
const serverCommit = (s: number, file = "a.txt"): string =>
  `@server rm -rf w-$R && git clone -q $R.git w-$R && cd w-$R && echo change-${s} >> ${file} && git add ${file} && ${at(s)} git commit -q -m 'server commit ${s}' && git push -q origin main`;

/** $R: the case's served repository (its name); $HTTP and $HTTPS: the base URLs of the side's servers. */
const CASES: Record<string, Case> = {
  "clone over http": {
    steps: ["git clone $HTTP/$R.git c", `cd c && ${SHOW}`, "cd c && git log --oneline origin/topic && git tag -n", "cd c && git config --get-regexp '^(remote|branch)\\.'"],
  },
  "clone over https": {
    steps: ["git clone -q $HTTPS/$R.git c", `cd c && ${SHOW}`, "git clone -q --branch topic $HTTPS/$R.git t && cd t && git log --oneline"],
  },
  "shallow clone, --depth 1, then --unshallow": {
    steps: [
      "git clone -q --depth 1 $HTTP/$R.git s",
      "cd s && git log --format='%H %s' && git rev-parse --is-shallow-repository && cat .git/shallow && git count-objects -v | grep -v size",
      "cd s && git fetch -q --unshallow && git log --oneline && git rev-parse --is-shallow-repository",
      "git clone -q --depth 1 --branch v1 $HTTPS/$R.git s1 2>&1; cd s1 && git log --oneline",
    ],
  },
  "fetch and pull new commits": {
    steps: [
      "git clone -q $HTTP/$R.git c",
      serverCommit(300),
      "cd c && git fetch",
      "cd c && git log --oneline origin/main && git status -sb",
      "cd c && git pull -q && git log --oneline -2 && cat a.txt",
      serverCommit(400, "README"),
      "cd c && git pull && git log --format='%H %s' -1",
      "cd c && git fetch && echo nothing new",
      "cd c && git fetch origin topic && git rev-parse FETCH_HEAD",
    ],
  },
  "push to the server": {
    steps: [
      "git clone -q $HTTP/$R.git c",
      `cd c && echo pushed >> a.txt && ${at(500)} git commit -q -am 'pushed commit' && git push`,
      "git ls-remote $HTTP/$R.git",
      "cd c && git push origin HEAD:refs/heads/new-branch && git push -q origin v1:refs/tags/v1-copy",
      "cd c && git push --delete origin new-branch",
      `cd c && git reset -q --hard HEAD~2 && echo other > b.txt && git add b.txt && ${at(600)} git commit -q -m 'diverged' && git push`,
      "@server git --git-dir=$R.git log --format='%H %s' main",
      "git clone -q $HTTPS/$R.git again && cd again && git log --oneline -3",
      `cd again && echo tls >> a.txt && ${at(700)} git commit -q -am 'over tls' && git push -q && git ls-remote origin main`,
    ],
    fails: [5],
    vm: {
      // git 2.47 words the hint of a push rejected as non-fast-forward otherwise than 2.39 (builtin/push.c).
      5: {
        stderr: [
          "To http://host.agentos.internal:PORT/push-to-the-server.git",
          " ! [rejected]        main -> main (non-fast-forward)",
          "error: failed to push some refs to 'http://host.agentos.internal:PORT/push-to-the-server.git'",
          "hint: Updates were rejected because the tip of your current branch is behind",
          "hint: its remote counterpart. If you want to integrate the remote changes,",
          "hint: use 'git pull' before pushing again.",
          "hint: See the 'Note about fast-forwards' in 'git push --help' for details.",
          "",
        ].join("\n"),
      },
    },
  },
  "ls-remote": {
    steps: [
      "git ls-remote $HTTP/$R.git",
      "git ls-remote --heads $HTTPS/$R.git",
      "git ls-remote --tags $HTTP/$R.git",
      "git ls-remote --symref $HTTP/$R.git HEAD",
      "git ls-remote --exit-code $HTTP/$R.git refs/heads/none; echo \"exit $?\"",
    ],
  },
  "a repository that is not there, exit 128": {
    steps: ["git clone $HTTP/nothing.git c", "git ls-remote $HTTPS/nothing.git"],
  },
  "a server that asks for a password, exit 128": {
    steps: ["git ls-remote $HTTP/private/$R.git", "git clone $HTTP/private/$R.git c"],
  },
  "a port nothing listens on, exit 128": {
    steps: ["git ls-remote $CLOSED/r.git"],
    vm: {
      // curl 8 words a refused connection "Could not connect to server", the host's libcurl 7.88 "Couldn't".
      0: { stderr: "fatal: unable to access '$CLOSED/r.git/': Failed to connect to host.agentos.internal port $PORT after N ms: Could not connect to server\n" },
    },
  },
  "a name that does not resolve, exit 128": {
    steps: ["git ls-remote http://nothing.invalid/r.git", "git clone https://nothing.invalid/r.git c"],
  },
  "dumb http": {
    steps: ["git clone -q $HTTP/dumb/$R.git d", `cd d && ${SHOW}`, serverCommit(800), "cd d && git pull -q && git log --oneline -1"],
  },
};

interface Side {
  /** The served repositories. */
  srv: string;
  port: number;
  tlsPort: number;
  servers: Server[];
}

let vm: AgentOs;
let root: string;
/** A port nothing listens on (a server opened and closed), allowed by the VM's policy: a refused connection. */
let closedPort: number;
const sides: Record<"host" | "vm", Side> = {} as Record<"host" | "vm", Side>;
const FIXTURES = new URL("fixtures/tls/", import.meta.url);
const pem = (name: string): Buffer => readFileSync(new URL(name, FIXTURES));

/** A 401 with a Basic challenge: what a server that wants a password answers. */
const PRIVATE = /^\/private\//;
/** Files of the served directory as they are, for git's dumb protocol. */
const DUMB = /^\/dumb\//;

/**
 * Serves `srv`: `git http-backend` as a CGI program (RFC 3875) for the smart protocol, the files themselves under
 * /dumb/, and a Basic challenge under /private/.
 */
function handler(srv: string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    res.sendDate = false;
    const url = new URL(req.url ?? "/", "http://x");
    if (PRIVATE.test(url.pathname)) {
      req.resume();
      return void res.writeHead(401, { "www-authenticate": 'Basic realm="test"', "content-type": "text/plain" }).end("no\n");
    }
    if (DUMB.test(url.pathname)) {
      req.resume();
      const file = normalize(join(srv, decodeURIComponent(url.pathname.replace(DUMB, "/"))));
      let body: Buffer | undefined;
      try {
        if (file.startsWith(`${srv}/`) && statSync(file).isFile()) body = readFileSync(file);
      } catch {
        // not there: a 404 as for any other file
      }
      if (!body) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return void res.writeHead(200, { "content-type": "application/octet-stream" }).end(body);
    }
    const env: NodeJS.ProcessEnv = {
      PATH: process.env["PATH"],
      HOME: srv,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_PROJECT_ROOT: srv,
      GIT_HTTP_EXPORT_ALL: "1",
      GATEWAY_INTERFACE: "CGI/1.1",
      REQUEST_METHOD: req.method,
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REMOTE_ADDR: "127.0.0.1",
      REMOTE_USER: "tester",
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      ...(req.headers["content-length"] ? { CONTENT_LENGTH: req.headers["content-length"] } : {}),
      ...(req.headers["content-encoding"] ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] } : {}),
      ...(req.headers["git-protocol"] ? { HTTP_GIT_PROTOCOL: String(req.headers["git-protocol"]) } : {}),
    };
    // Its stderr (a repository that is not there) is not the client's business: the client gets the 404.
    const cgi = spawn("git", ["http-backend"], { env, stdio: ["pipe", "pipe", "ignore"] });
    req.pipe(cgi.stdin);
    cgi.stdin.on("error", () => {});
    const out: Buffer[] = [];
    cgi.stdout.on("data", (d: Buffer) => out.push(d));
    cgi.on("close", () => {
      const all = Buffer.concat(out);
      const end = all.indexOf("\r\n\r\n");
      if (end < 0) return void res.writeHead(500).end();
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of all.subarray(0, end).toString("latin1").split("\r\n")) {
        const colon = line.indexOf(":");
        const [name, value] = [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers).end(all.subarray(end + 4));
    });
  };
}

async function listen(s: Server): Promise<number> {
  s.listen(0, "127.0.0.1");
  await once(s, "listening");
  return (s.address() as AddressInfo).port;
}

function run(cwd: string, script: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile("bash", ["-c", script], { cwd, env, encoding: "utf8", timeout: RUN_DEADLINE_MS }, (err, stdout, stderr) => {
      resolve({ stdout, stderr, exitCode: err ? (typeof err.code === "number" ? err.code : -1) : 0 });
    });
  });
}

const hostEnv = (home: string): NodeJS.ProcessEnv => ({ PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: home, GIT_CONFIG_NOSYSTEM: "1", ...ENV });

beforeAll(async () => {
  if (!hostVersion) return;
  root = mkdtempSync(join(tmpdir(), "git-http-"));
  // The origin every served repository is cloned from.
  mkdirSync(join(root, "home"));
  const made = await run(root, ORIGIN, hostEnv(join(root, "home")));
  if (made.exitCode !== 0) throw new Error(`origin: ${made.stderr}`);
  for (const name of ["host", "vm"] as const) {
    const srv = join(root, `srv-${name}`);
    mkdirSync(srv);
    const plain = createServer(handler(srv));
    const tls = createHttpsServer({ key: pem("leaf-key.pem"), cert: pem("leaf.pem") }, handler(srv));
    sides[name] = { srv, port: await listen(plain), tlsPort: await listen(tls), servers: [plain, tls] };
  }
  const closed = createServer();
  closedPort = await listen(closed);
  await new Promise((r) => closed.close(r));
  const allow = [sides.vm.port, sides.vm.tlsPort, closedPort].map((p) => `host.agentos.internal:${p}`);
  const bundle = `${rootCertificates.join("\n")}\n${pem("ca.pem").toString()}`;
  vm = await AgentOs.create({ network: { allow }, files: { [CA_BUNDLE]: bundle } });
  await vm.mkdir(root, { recursive: true });
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await vm?.dispose();
  for (const s of Object.values(sides).flatMap((side) => side.servers)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

const names = Object.keys(CASES);
const total = Object.values(CASES).reduce((n, c) => n + c.steps.length, 0);

describe.skipIf(!hostVersion).concurrent(`git over http(s) in the VM against the host's ${hostVersion} (${names.length} cases, ${total} command lines)`, () => {
  it.each(names)("%s", async (name) => {
    const c = CASES[name]!;
    const repo = name.replace(/[^a-z0-9]+/gi, "-");
    const dir = join(root, "cases", repo);
    for (const d of ["w", "home"]) {
      mkdirSync(join(dir, d), { recursive: true });
      await vm.mkdir(join(dir, d), { recursive: true });
    }
    for (const side of Object.values(sides)) {
      const made = await run(side.srv, `git clone -q --bare ../origin ${repo}.git && cd ${repo}.git && git config http.receivepack true && git config receive.updateServerInfo true && git update-server-info`, hostEnv(side.srv));
      expect(made.stderr).toBe("");
    }
    const expand = (step: string, side: Side): string =>
      step
        .replaceAll("$CLOSED", `http://host.agentos.internal:${closedPort}`)
        .replaceAll("$HTTPS", `https://host.agentos.internal:${side.tlsPort}`).replaceAll("$HTTP", `http://host.agentos.internal:${side.port}`).replaceAll("$R", repo);
    const norm = (o: Outcome, side: Side): Outcome => {
      const text = (s: string): string =>
        s
          .replaceAll(`:${side.tlsPort}`, ":TLS_PORT")
          .replaceAll(`:${side.port}`, ":PORT")
          .replaceAll(dir, "$DIR")
          .replace(/after \d+ ms/g, "after N ms");
      return { stdout: text(o.stdout), stderr: text(o.stderr), exitCode: o.exitCode };
    };
    const hostConfig = {
      // host.agentos.internal is 127.0.0.1 for the host's git, as the VM's policy makes it the host for the VM's.
      GIT_CONFIG_COUNT: "3",
      GIT_CONFIG_KEY_0: "http.curloptResolve",
      GIT_CONFIG_VALUE_0: `host.agentos.internal:${sides.host.port}:127.0.0.1`,
      GIT_CONFIG_KEY_1: "http.curloptResolve",
      GIT_CONFIG_VALUE_1: `host.agentos.internal:${sides.host.tlsPort}:127.0.0.1`,
      GIT_CONFIG_KEY_2: "http.curloptResolve",
      GIT_CONFIG_VALUE_2: `host.agentos.internal:${closedPort}:127.0.0.1`,
      GIT_SSL_CAINFO: new URL("ca.pem", FIXTURES).pathname,
    };
    let last: Outcome | undefined;
    for (const [i, step] of c.steps.entries()) {
      if (step.startsWith("@server ")) {
        for (const side of Object.values(sides)) {
          const r = await run(side.srv, expand(step.slice("@server ".length), side), hostEnv(side.srv));
          expect(r.exitCode, r.stderr).toBe(0);
        }
        continue;
      }
      const expected = norm(await run(`${dir}/w`, expand(step, sides.host), { ...hostEnv(`${dir}/home`), ...hostConfig }), sides.host);
      const r = await vm.exec(expand(step, sides.vm), { cwd: `${dir}/w`, env: { HOME: `${dir}/home`, ...ENV }, timeout: RUN_DEADLINE_MS });
      const got = norm({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }, sides.vm);
      const vmText = (o: Partial<Outcome>): Partial<Outcome> =>
        Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === "string" ? v.replaceAll("$CLOSED", `http://host.agentos.internal:${closedPort}`).replaceAll("$PORT", String(closedPort)) : v]));
      const override = c.vm?.[i] && vmText(c.vm[i]);
      expect(got, `step ${i}: ${step}`).toEqual(override ? { ...expected, ...override } : expected);
      if (!/ exit \d+$/.test(name) && !c.fails?.includes(i)) expect(expected.exitCode, `host, step ${i}: ${expected.stderr}`).toBe(0);
      last = expected;
    }
    // A case named for its exit status ends with it (both sides failing alike for another reason would not do).
    const status = / exit (\d+)/.exec(name)?.[1];
    if (status !== undefined) expect(last?.exitCode, last?.stderr).toBe(Number(status));
  }, CASE_DEADLINE_MS * 4);
});

describe.skipIf(!hostVersion)("git over http(s): the network policy", () => {
  it("a host the policy does not allow fails with git's message and exit 128", async () => {
    const r = await vm.exec("git ls-remote http://example.com/r.git", { env: { HOME: "/tmp", ...ENV }, timeout: RUN_DEADLINE_MS });
    expect(r).toEqual(expect.objectContaining({ exitCode: 128, stdout: "", stderr: "fatal: unable to access 'http://example.com/r.git/': Could not resolve host: example.com\n" }));
  }, CASE_DEADLINE_MS);
});
