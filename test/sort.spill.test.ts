import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";
import { shellQuote } from "../src/exec/shell-quote.js";
import { RUN_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { createVm } from "./helpers.js";
import { corpus } from "./sort-corpus.js";

/**
 * sort in a VM with a small buffer (-S 64K), so that it sorts through temporary files, against GNU sort
 * (`LC_ALL=C sort`) on this host with the same buffer: the same output byte for byte, the same errors, and
 * no temporary file left behind.
 */

const gnu = spawnSync("sort", ["--version"], { encoding: "utf8" });
const haveGnuSort = gnu.status === 0 && gnu.stdout.includes("GNU coreutils");

/** The input: 20,000 lines, about 200 KB, many times the buffer; and 20 pieces of it for -m. */
const TEXT = corpus(20_000, 11);
const PIECES = 20;

function gnuSort(args: string[], cwd: string, env: Record<string, string> = {}): { exitCode: number; stdout: Buffer; stderr: string } {
  const r = spawnSync("sort", args, { cwd, env: { LC_ALL: "C", PATH: process.env["PATH"] ?? "/usr/bin:/bin", ...env }, maxBuffer: 1 << 30 });
  return { exitCode: r.status ?? -1, stdout: r.stdout, stderr: r.stderr.toString("latin1") };
}

/** Compares two outputs; a mismatch is reported at its first differing line. */
function expectSameOutput(ours: Buffer, theirs: Buffer, what: string): void {
  if (ours.equals(theirs)) return;
  const a = ours.toString("latin1").split("\n");
  const e = theirs.toString("latin1").split("\n");
  const i = a.findIndex((line, j) => line !== e[j]);
  expect({ what, line: i, ours: a.slice(i, i + 3) }).toEqual({ what, line: i, ours: e.slice(i, i + 3) });
}

/** The names in /tmp of the VM (where sort puts its temporary files without -T). */
async function tmpFiles(vm: AgentOs): Promise<string[]> {
  return vm.readdir("/tmp");
}

const OPTION_SETS: string[][] = [
  [], ["-r"], ["-u"], ["-s"], ["-n"], ["-nr"], ["-nu"], ["-ns"], ["-f"], ["-fu"], ["-b"], ["-d"], ["-h"], ["-M"],
  ["-V"], ["-g"], ["-k2"], ["-k2,2n"], ["-k2,2nr", "-k1,1"], ["-t,", "-k2,2n", "-k1,1r"], ["-s", "-k1,1"],
  ["-u", "-k1,1"], ["-s", "-k2,2n"], ["-u", "-t,", "-k2,2n"], ["-r", "-s", "-k1,1n"], ["--batch-size=2"],
  ["--batch-size=2", "-u", "-k2,2"], ["--parallel=4", "-n"],
];

describe.skipIf(!haveGnuSort)("sort through temporary files (-S 64K) against GNU sort", () => {
  let vm: AgentOs;
  let host: string;

  beforeAll(async () => {
    vm = await AgentOs.create();
    host = mkdtempSync(join(tmpdir(), "sort-spill-"));
    const files: Record<string, string> = { in: TEXT, "in.z": TEXT.replaceAll("\n", "\0").replaceAll(",", "\n") };
    const lines = TEXT.split("\n").slice(0, -1);
    for (let p = 0; p < PIECES; p++) files[`piece${p}`] = lines.filter((_, i) => i % PIECES === p).join("\n") + "\n";
    await vm.mkdir("/data", { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(host, name), text, "latin1");
      await vm.writeFile(`/data/${name}`, Buffer.from(text, "latin1"));
    }
  }, SETUP_DEADLINE_MS);

  afterAll(async () => {
    rmSync(host, { recursive: true, force: true });
    await vm.dispose();
  });

  /**
   * Runs `sort -S 64K ARGS FILES` in /data of both, with output and errors into files (bytes, not UTF-8: a
   * disorder's line may be any bytes); the VM's /tmp must be empty after.
   */
  async function compare(args: string[], files: string[], env: Record<string, string> = {}): Promise<void> {
    const argv = ["-S", "64K", ...args, ...files];
    const r = await vm.exec(`sort ${argv.map(shellQuote).join(" ")} > out 2> err`, { cwd: "/data", env });
    const stderr = Buffer.from(await vm.readFile("/data/err")).toString("latin1");
    const expected = gnuSort(argv, host, env);
    expect({ args: argv, exitCode: r.exitCode, stderr }).toEqual({ args: argv, exitCode: expected.exitCode, stderr: expected.stderr });
    expectSameOutput(Buffer.from(await vm.readFile("/data/out")), expected.stdout, argv.join(" "));
    expect(await tmpFiles(vm)).toEqual([]);
  }

  // -V: GNU coreutils 9.1 cuts a name that is all suffix (`.xN`) whole; this corpus has such lines.
  it.each(OPTION_SETS.map((args) => [args.join(" ") || "(none)", args]))("sort -S 64K %s", async (_name, args) => {
    await compare(args as string[], ["in"]);
  });

  it("-z", async () => {
    await compare(["-z"], ["in.z"]);
    await compare(["-z", "-k1,1", "-u"], ["in.z"]);
  });

  it("-m merges 20 sorted inputs (more than --batch-size 16: merges of merges), and unsorted ones as GNU does", async () => {
    const pieces = Array.from({ length: PIECES }, (_, p) => `piece${p}`);
    for (const args of [[], ["-n"], ["-u", "-k1,1"], ["-t,", "-k2,2n", "-s"]]) {
      // Each piece sorted with the same options first, by GNU sort, on both sides.
      for (const p of pieces) {
        const sorted = gnuSort([...args, p], host).stdout;
        writeFileSync(join(host, `${p}.sorted`), sorted);
        await vm.writeFile(`/data/${p}.sorted`, sorted);
      }
      await compare(["-m", ...args], pieces.map((p) => `${p}.sorted`));
      await compare(["-m", ...args], pieces);
    }
  });

  it("-c and -C check a buffer at a time, to the end or the first disorder", async () => {
    for (const args of [[], ["-n"], ["-u", "-k1,1"]]) {
      const sorted = gnuSort([...args, "in"], host).stdout.toString("latin1").split("\n").slice(0, -1);
      const late = [...sorted.slice(0, -2), sorted.at(-1)!, sorted.at(-2)!]; // a disorder on the last line
      for (const [name, lines] of [["sorted", sorted], ["late", late]] as const) {
        const text = lines.join("\n") + "\n";
        writeFileSync(join(host, name), text, "latin1");
        await vm.writeFile(`/data/${name}`, Buffer.from(text, "latin1"));
        await compare(["-c", ...args], [name]);
        await compare(["-C", ...args], [name]);
      }
    }
  });

  it("-o may name an input, also with -m", async () => {
    for (const args of [["-n"], ["-m"]]) {
      writeFileSync(join(host, "same"), TEXT, "latin1");
      await vm.writeFile("/data/same", Buffer.from(TEXT, "latin1"));
      const argv = ["-S", "64K", ...args, "-o", "same", "same", "piece0"];
      const r = await vm.exec(`sort ${argv.join(" ")}`, { cwd: "/data" });
      expect(r).toEqual({ exitCode: 0, stdout: "", stderr: "" });
      expect(gnuSort(argv, host).exitCode).toBe(0);
      expectSameOutput(Buffer.from(await vm.readFile("/data/same")), readFileSync(join(host, "same")), argv.join(" "));
      expect(await tmpFiles(vm)).toEqual([]);
    }
  });

  it("-T and TMPDIR name where the temporary files go; a directory that is not there is GNU's error", async () => {
    await vm.mkdir("/data/t1");
    await vm.mkdir("/data/t2");
    mkdirSync(join(host, "t1"));
    mkdirSync(join(host, "t2"));
    await compare(["-T", "t1", "-T", "t2", "-n"], ["in"]);
    await compare(["-n"], ["in"], { TMPDIR: "t1" });
    expect(await vm.readdir("/data/t1")).toEqual([]);
    expect(await vm.readdir("/data/t2")).toEqual([]);
    // The host has no /nonexistent either.
    await compare(["-T", "/nonexistent"], ["in"]);
    await compare([], ["in"], { TMPDIR: "/nonexistent" });
  });
});

describe("sort's temporary files and output count against the file system", () => {
  it("a full file system while spilling is GNU's write error, and the temporary files are removed", async () => {
    const vm = await createVm({ limits: { maxFsBytes: 64 * 1024 } });
    const r = await vm.exec("seq 1 100000 | sort -S 64K | tail -1");
    expect(r.exitCode).toBe(0); // tail's status: the pipeline's last command
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^sort: write failed: \/tmp\/sort[A-Za-z0-9]{6}: No space left on device\n$/);
    expect(await tmpFiles(vm)).toEqual([]);
    expect((await vm.exec("seq 1 100000 | sort -S 64K; echo $?")).stdout).toBe("2\n");
  });

  it("a full file system for the output is GNU's write error, not a silent loss", async () => {
    const vm = await createVm({ limits: { maxFsBytes: 256 * 1024 } });
    const r = await vm.exec("seq 1 100000 | sort > /tmp/out");
    // As GNU sort writing to /dev/full: its own message, then close_stdout's.
    expect(r).toEqual({ exitCode: 2, stdout: "", stderr: "sort: write failed: 'standard output': No space left on device\nsort: write error\n" });
    const o = await vm.exec("rm /tmp/out; seq 1 100000 | sort -o /tmp/out");
    expect(o).toEqual({ exitCode: 2, stdout: "", stderr: "sort: write failed: /tmp/out: No space left on device\nsort: write error\n" });
  });

  it("a short write of its last piece is an error too (it was lost without a word, status 0)", async () => {
    const vm = await createVm({ limits: { maxFsBytes: 64 * 1024 } });
    // Room for 3 bytes of the 4 sort writes: the write takes what fits and the rest fails.
    const fill = 'free=$(df -B1 / | awk "NR==2{print \\$4}"); head -c $((free - 3)) /dev/zero > /tmp/fill';
    const r = await vm.exec(`${fill}; printf 'b\\na\\n' | sort > /tmp/out; echo "s=$? $(wc -c < /tmp/out)"`);
    // As GNU sort's, whose last piece is written by fflush as it exits (`sort > /dev/full`).
    expect(r).toEqual({ exitCode: 0, stdout: "s=2 3\n", stderr: "sort: fflush failed: 'standard output': No space left on device\nsort: write error\n" });
  });
});

describe("a killed sort", () => {
  it("says nothing, has the signal's status, and leaves no temporary file", async () => {
    const vm = await createVm();
    let stderr = "";
    const p = vm.spawn("sort", ["-S", "64K"], { onStderr: (d) => void (stderr += Buffer.from(d).toString()) });
    p.writeStdin(Buffer.from(corpus(20_000, 3), "latin1"));
    p.kill("SIGTERM");
    expect(await p.wait()).toBe(143);
    expect(stderr).toBe("");
    expect(await tmpFiles(vm)).toEqual([]);
  });
});

describe("sort's inputs are opened as files", () => {
  it("reads a process substitution and /dev/fd/0, and refuses a file it may not read or a stdin that is a directory", async () => {
    const vm = await createVm();
    expect(await vm.exec("sort <(printf 'b\\na\\n') /dev/fd/0 <<< c")).toEqual({ exitCode: 0, stdout: "a\nb\nc\n", stderr: "" });
    expect(await vm.exec("echo a > f; chmod 000 f; sort f")).toEqual({ exitCode: 2, stdout: "", stderr: "sort: cannot read: f: Permission denied\n" });
    // GNU's words for a stdin that cannot be read (it was an exception: `sort: EISDIR: illegal operation…`, status 1).
    expect(await vm.exec("sort < /")).toEqual({ exitCode: 2, stdout: "", stderr: "sort: read failed: -: Is a directory\n" });
  });
});

describe("sort of more than its default buffer", () => {
  // 169 MB through a pipe: about 1.5 GB of lines held, sorted in runs of the default buffer and merged.
  it("seq 1 20000000 | sort | tail -1", async () => {
    const vm = await createVm();
    expect(await vm.exec("seq 1 20000000 | sort | tail -1; ls /tmp")).toEqual({ exitCode: 0, stdout: "9999999\n", stderr: "" });
  }, 5 * RUN_DEADLINE_MS);
});
