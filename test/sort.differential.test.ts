import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { CommandContext } from "../src/commands/command.js";
import { mergeBlocks, Slicer, sortBlock } from "../src/commands/sort/cooperative.js";
import { sort } from "../src/commands/sort.js";
import { memoryCommandFs } from "./command-fs.js";
import { corpus, random } from "./sort-corpus.js";
import { cpuMsSince } from "./deadlines.js";

/**
 * The cooperative sort against GNU sort (`LC_ALL=C sort` on this machine) on generated inputs large enough
 * to span many runs, merge passes and blocks; and the properties that make it cooperative.
 */

const gnu = spawnSync("sort", ["--version"], { encoding: "utf8" });
const haveGnuSort = gnu.status === 0 && gnu.stdout.includes("GNU coreutils");

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs our sort with stdin delivered in chunks of `chunk` bytes, as a pipe would; text is latin1. Its
 * temporary files go to `files` (an in-memory file system).
 */
async function ours(
  args: string[],
  stdin: string,
  chunk = 64 * 1024,
  signal = new AbortController().signal,
  files = new Map<string, string>(),
): Promise<Run> {
  const input = Buffer.from(stdin, "latin1");
  let at = 0;
  let stdout = "";
  let stderr = "";
  const text = (d: Uint8Array | string): string =>
    typeof d === "string" ? d : Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString("latin1");
  const ctx: CommandContext = {
    argv: ["sort", ...args],
    env: {},
    cwd: "/",
    readStdin: async () => {
      if (at >= input.length) return null;
      const c = input.subarray(at, at + chunk);
      at += c.length;
      return c;
    },
    readAllStdin: async () => input.subarray(at),
    writeStdout: (d) => void (stdout += text(d)),
    writeStderr: (d) => void (stderr += text(d)),
    fs: memoryCommandFs(files),
    signal,
  };
  const status = await sort(ctx);
  return { status, stdout, stderr };
}

function theirs(args: string[], stdin: string): Run {
  const r = spawnSync("sort", args, {
    input: Buffer.from(stdin, "latin1"),
    env: { LC_ALL: "C", PATH: process.env["PATH"] ?? "/usr/bin:/bin" },
    maxBuffer: 1 << 30,
  });
  return { status: r.status ?? -1, stdout: r.stdout.toString("latin1"), stderr: r.stderr.toString("latin1") };
}

const OPTION_SETS: string[][] = [
  [], ["-r"], ["-u"], ["-ru"], ["-s"],
  ["-n"], ["-nr"], ["-nu"], ["-ns"], ["-nsr"], ["-n", "-k1,1r"],
  ["-f"], ["-fu"], ["-fr"], ["-b"], ["-d"], ["-i"], ["-di"], ["-bf"],
  ["-h"], ["-hr"], ["-M"], ["-Mu"], ["-V"], ["-Vr"], ["-g"],
  ["-k2"], ["-k2,2"], ["-k2,2n"], ["-k2,2nr", "-k1,1"], ["-t,", "-k2,2n", "-k1,1r"], ["-t,", "-k2"],
  ["-s", "-k1,1"], ["-u", "-k1,1"], ["-s", "-k2,2n"], ["-u", "-t,", "-k2,2n"], ["-k1.2,1.3"], ["-k1b,1"],
  ["-k2,2f", "-k1,1d"], ["-t", " ", "-k3,3M", "-k1,1V"], ["-r", "-k1,1"], ["-r", "-s", "-k1,1n"],
];

describe.skipIf(!haveGnuSort)("sort: the same output as GNU sort (LC_ALL=C)", () => {
  const input = corpus(6000, 1);

  it.each(OPTION_SETS.map((args) => [args.join(" ") || "(none)", args]))("%s", async (_name, args) => {
    const expected = theirs(args as string[], input);
    const actual = await ours(args as string[], input);
    expect(actual.stderr).toBe(expected.stderr);
    expect(actual.status).toBe(expected.status);
    // Compared as a whole, but a mismatch is reported at its first differing line.
    if (actual.stdout !== expected.stdout) {
      const a = actual.stdout.split("\n");
      const e = expected.stdout.split("\n");
      const i = a.findIndex((line, j) => line !== e[j]);
      expect({ line: i, ours: a.slice(i, i + 3) }).toEqual({ line: i, ours: e.slice(i, i + 3) });
    }
  });

  it("-z and lines split across stdin chunks of any size", async () => {
    const z = corpus(3000, 2).replaceAll("\n", "\0").replaceAll(",", "\n");
    expect(await ours(["-z"], z, 7)).toEqual(theirs(["-z"], z));
    const text = corpus(3000, 3);
    expect(await ours(["-k2,2n"], text, 1)).toEqual(theirs(["-k2,2n"], text));
    const unterminated = text.slice(0, -1);
    expect(await ours([], unterminated, 13)).toEqual(theirs([], unterminated));
  });

  it("-S, --parallel and --batch-size take what GNU takes, and refuse what it refuses with its words", async () => {
    const cases = [
      ["-S", "x"], ["-S", "1Q"], ["-S", "-1"], ["-S", "K"], ["-S", "1KB"], ["-S", " 5"], ["-S", "+5M"], ["-S", "b"],
      ["-S", "10%"], ["-S", "10%x"], ["-S", "1b"], ["-S", "0"], ["-S", "99999999999999999999"], ["-S", "1", "-S", "2"],
      ["--buffer-size=x"], ["--buffer-size=1Q"], ["--buf=9Y"], ["--parallel=0"], ["--parallel=x"], ["--parallel=3x"],
      ["--parallel=3"], ["--batch-size=1"], ["--batch-size=x"], ["--bat=1"],
      ["--batch-size=2"], ["-T", "/nonexistent"],
    ];
    for (const args of cases) expect(await ours(args, "b\na\n"), args.join(" ")).toEqual(theirs(args, "b\na\n"));
    // GNU's bound is the host's RLIMIT_NOFILE less 3; here the VM's default maxOpenFds less 3.
    expect(await ours(["--batch-size=100000"], "")).toEqual({
      status: 2,
      stdout: "",
      stderr: "sort: --batch-size argument '100000' too large\nsort: maximum --batch-size argument with current rlimit is 1021\n",
    });
  });

  it("-c and -C find the same first disorder", async () => {
    const checks: [check: string[], order: string[]][] = [
      [["-c"], []], [["-cn"], ["-n"]], [["-cu"], ["-u"]], [["-C", "-k2,2"], ["-k2,2"]],
      [["-c", "-t,", "-k2,2n", "-k1,1r"], ["-t,", "-k2,2n", "-k1,1r"]],
    ];
    for (const [check, order] of checks) {
      const sorted = theirs(order, input).stdout;
      expect(await ours(check, input), check.join(" ")).toEqual(theirs(check, input));
      expect(await ours(check, sorted), `${check.join(" ")} on sorted input`).toEqual(theirs(check, sorted));
    }
  });

  // One test per option set, each with its own deadline; the corpus is made once.
  let big: string | undefined;
  it.each([[[]], [["-n"]], [["-u", "-k1,1"]], [["-s", "-k2,2"]], [["-rn"]]] as string[][][])("more lines than one block (several blocks merged k ways): sort %j", async (args) => {
    big ??= corpus(600_000, 4);
    const actual = await ours(args, big);
    const expected = theirs(args, big);
    expect(actual.status, args.join(" ")).toBe(0);
    if (actual.stdout !== expected.stdout) {
      const a = actual.stdout.split("\n");
      const e = expected.stdout.split("\n");
      const i = a.findIndex((line, j) => line !== e[j]);
      expect({ args, line: i, ours: a.slice(i - 2, i + 3) }).toEqual({ args, line: i, ours: e.slice(i - 2, i + 3) });
    }
  });
});

describe("sort: cooperative engine", () => {
  const slicer = new Slicer(new AbortController().signal);
  /** Pairs whose order is by `k` only, so stability shows in `i`. */
  const pairs = (n: number, keys: number, seed: number): { k: number; i: number }[] => {
    const r = random(seed);
    return Array.from({ length: n }, (_, i) => ({ k: Math.floor(r() * keys), i }));
  };
  const byKey = (a: { k: number }, b: { k: number }): number => a.k - b.k;

  it("sortBlock is a stable sort, for any size around the run and merge boundaries", async () => {
    for (const n of [0, 1, 2, 1023, 1024, 1025, 3000, 4096, 10_000]) {
      const items = pairs(n, 50, n);
      const expected = items.slice().sort(byKey);
      expect(await sortBlock(items, byKey, slicer)).toEqual(expected);
    }
    const sorted = pairs(5000, 1, 7); // all ties: input order, and the in-order shortcut
    expect(await sortBlock(sorted.slice(), byKey, slicer)).toEqual(sorted);
  });

  it("mergeBlocks merges stably (the earlier block first on ties) and hands out every item once", async () => {
    const items = pairs(20_000, 30, 9);
    const cuts = [0, 1, 4000, 4001, 9000, 20_000];
    const blocks = cuts.slice(1).map((end, j) => items.slice(cuts[j], end).sort(byKey));
    blocks.splice(2, 0, []); // an empty block
    const out: { k: number; i: number }[] = [];
    await mergeBlocks(blocks, byKey, slicer, (xs, from, to) => out.push(...xs.slice(from, to)));
    expect(out).toEqual(items.slice().sort(byKey));
  });

  it("gives the event loop a turn every few milliseconds while sorting", async () => {
    const input = corpus(200_000, 5);
    let turns = 0;
    let probing = true;
    const probe = (): void => {
      turns++;
      if (probing) setImmediate(probe);
    };
    setImmediate(probe);
    const start = process.cpuUsage();
    const r = await ours(["-k2,2n"], input, 1 << 30); // stdin in one chunk: no pipe reads to yield on
    // CPU time: a machine that runs other work stretches the wall-clock time between two turns, not the work.
    const elapsed = cpuMsSince(start);
    probing = false;
    expect(r.status).toBe(0);
    // At least one turn per 25 ms on average (a slice is 4 ms; a loaded machine or a GC stretches some).
    expect(turns).toBeGreaterThan(elapsed / 25);
  });

  it("stops working when the process is killed", async () => {
    const killed = new AbortController();
    const sorting = ours(["-n"], corpus(200_000, 6), 1 << 30, killed.signal);
    setImmediate(() => killed.abort(new Error("killed")));
    await expect(sorting).rejects.toThrow("killed");
  });

  it("removes its temporary files the moment it is killed", async () => {
    const killed = new AbortController();
    const files = new Map<string, string>();
    const input = Buffer.from(corpus(20_000, 7), "latin1");
    let stdinAsked = 0;
    let asked: () => void = () => {};
    const waiting = new Promise<void>((resolve) => (asked = resolve));
    const ctx: CommandContext = {
      argv: ["sort", "-S", "64K", "-n"],
      env: {},
      cwd: "/",
      // All the input, then a stdin that stays open until the kill (a pipe whose writer goes on).
      readStdin: () => {
        if (stdinAsked++ === 0) return Promise.resolve(input);
        asked();
        return new Promise((_, reject) => killed.signal.addEventListener("abort", () => reject(killed.signal.reason)));
      },
      readAllStdin: async () => input,
      writeStdout: () => {},
      writeStderr: () => {},
      fs: memoryCommandFs(files),
      signal: killed.signal,
    };
    const sorting = sort(ctx);
    await waiting; // it has read and spilled what came, and waits for more
    expect([...files.keys()].length).toBeGreaterThan(2);
    killed.abort(new Error("killed"));
    expect([...files.keys()]).toEqual([]); // before anything else runs: the process's exit comes after
    await expect(sorting).rejects.toThrow("killed");
  });

  it.skipIf(!haveGnuSort)("sorts what does not fit its buffer through temporary files, and removes them", async () => {
    // Few bytes, but each line costs its string, slots and a record of ten keys: many times the 1 MiB buffer.
    const keys = Array.from({ length: 10 }, (_, i) => `-k${i + 1},${i + 1}`);
    const input = corpus(100_000, 8);
    /** The files, and how many were ever created. */
    class Files extends Map<string, string> {
      created = 0;
      override set(name: string, text: string): this {
        if (!this.has(name)) this.created++;
        return super.set(name, text);
      }
    }
    const files = new Files();
    const r = await ours(["-S", "1M", ...keys], input, 1 << 30, undefined, files);
    expect(r).toEqual(theirs(["-S", "1M", ...keys], input));
    expect(files.created).toBeGreaterThan(2);
    expect([...files.keys()]).toEqual([]);
  });
});
