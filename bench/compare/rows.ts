import { readFileSync } from "node:fs";
import type { PeerInstance } from "./peer.js";

/**
 * The rows of the peer comparison. Every peer gets the same fixtures, written through its own API under
 * its root, and runs the same commands there. A row's result is its output; the host's output is the
 * reference every other peer must match (rows with a `check` accept any output that passes it).
 */
export type Group = "latency" | "api" | "ecosystem" | "filesystem" | "memory" | "network";

export interface CompareRow {
  name: string;
  group: Group;
  /** Fresh instance per run (cold rows): created before and disposed after each timed run. */
  cold?: boolean;
  /** Runs once; returns the output that is compared with the host's. */
  run(vm: PeerInstance, root: string): Promise<string>;
  /** For outputs that legitimately differ between peers (a path): what every output must satisfy. */
  check?: (output: string) => boolean;
  /**
   * A row that times itself (the networking rows): after `run` (whose output is checked), this gives the
   * timing of its operation, start-up excluded, instead of timing `run`.
   */
  timing?: (vm: PeerInstance, output: string) => Promise<SelfTiming>;
}

export interface SelfTiming {
  p50_ms: number;
  p95_ms: number;
  n: number;
  /** How the timing was taken when it is not the program's own p50/p95. */
  note?: string;
}

const lines = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => `${f(i + 1)}\n`).join("");
/** ~`bytes` of text, one line in ten containing "needle". */
const text = (bytes: number): string => {
  const line = (i: number): string => `line ${String(i).padStart(7, "0")} ${i % 10 === 0 ? "needle" : "hay   "} lorem ipsum dolor sit amet`;
  return lines(Math.ceil(bytes / (line(1).length + 1)), line);
};

const KIB = 1024;
const MIB = 1024 * KIB;

/** Relative path → content, written under the peer's root before any row runs. */
export function fixtures(): Record<string, string> {
  const files: Record<string, string> = {
    "one/only.txt": "x\n",
    "small.txt": "x".repeat(99) + "\n",
    "k1.txt": text(KIB),
    "m1.txt": text(MIB),
    "m10.txt": text(10 * MIB),
    "n100k.txt": lines(100_000, (i) => String(i)),
    "a1000.txt": lines(1000, (i) => `row ${i}`),
    "b1000.txt": lines(1000, (i) => (i % 100 === 0 ? `changed ${i}` : `row ${i}`)),
    // The networking rows' program, as bench:net runs it (bench/guest/net-rows.js).
    "net-rows.js": readFileSync(new URL("../guest/net-rows.js", import.meta.url), "utf8"),
    "data.json": JSON.stringify({ items: Array.from({ length: 500 }, (_, i) => ({ id: i, name: `item-${i}`, tags: ["a", "b"] })) }),
  };
  for (let i = 0; i < 100; i++) files[`d100/f${String(i).padStart(3, "0")}.txt`] = `file ${i} ${i % 7 === 0 ? "needle" : ""}\n`;
  for (let d = 0; d < 10; d++)
    for (let i = 0; i < 100; i++) files[`tree/d${d}/f${String(i).padStart(3, "0")}.txt`] = `tree ${d} ${i}${i % 9 === 0 ? " needle" : ""}\n`;
  return files;
}

const sh = (command: string) => async (vm: PeerInstance) => {
  const r = await vm.exec(command);
  if (r.exitCode !== 0) throw new Error(`exit ${r.exitCode}: ${r.stderr.slice(0, 300)}`);
  return r.stdout;
};

const BATCH = Array.from({ length: 15 }, (_, i) => `echo iteration_${i + 1}`);

export const rows: CompareRow[] = [
  { name: "echo_cold", group: "latency", cold: true, run: sh("echo hello") },
  { name: "echo_warm", group: "latency", run: sh("echo hello") },
  { name: "pwd", group: "latency", run: sh("pwd"), check: (o) => /^\/\S*\n$/.test(o) },
  { name: "ls_1_file", group: "latency", run: sh("ls one") },
  { name: "cat_100B", group: "latency", run: sh("cat small.txt") },
  { name: "wc_c", group: "latency", run: sh("wc -c < small.txt") },
  {
    name: "batch_15",
    group: "latency",
    async run(vm) {
      let out = "";
      for (const c of BATCH) out += await sh(c)(vm);
      return out;
    },
  },

  { name: "readFile_100B", group: "api", run: async (vm, root) => String((await vm.readFile(`${root}/small.txt`)).length) },
  { name: "writeFile_100B", group: "api", run: async (vm, root) => (await vm.writeFile(`${root}/w.txt`, "y".repeat(100)), "") },
  { name: "stat", group: "api", run: async (vm, root) => String((await vm.stat(`${root}/small.txt`)).size) },
  { name: "readdir_100", group: "api", run: async (vm, root) => (await vm.readdir(`${root}/d100`)).sort().join(",") },

  { name: "sh_pipeline", group: "ecosystem", run: sh("printf 'a\\nb\\nc\\n' | sort -r | head -n 2") },
  { name: "cd_tmp_pwd", group: "ecosystem", run: sh("cd /tmp && pwd") },
  { name: "cat_small", group: "ecosystem", run: sh("cat k1.txt | wc -c") },
  { name: "cat_big", group: "ecosystem", run: sh("cat m1.txt | wc -c") },
  { name: "grep_small", group: "ecosystem", run: sh("grep needle m1.txt | wc -l") },
  { name: "grep_big", group: "ecosystem", run: sh("grep -c needle m10.txt") },
  { name: "sed_substitution", group: "ecosystem", run: sh("sed 's/lorem/LOREM/g' m1.txt | md5sum") },
  { name: "find_1000", group: "ecosystem", run: sh("find tree -name '*.txt' | wc -l") },
  { name: "ls_100", group: "ecosystem", run: sh("ls d100 | wc -l") },
  { name: "tar_small", group: "ecosystem", run: sh("tar -cf s.tar d100 && tar -tf s.tar | sort | md5sum") },
  { name: "tar_big", group: "ecosystem", run: sh("tar -cf b.tar m10.txt && tar -tf b.tar") },
  { name: "gzip_small", group: "ecosystem", run: sh("gzip -c m1.txt | gunzip -c | md5sum") },
  { name: "gzip_big", group: "ecosystem", run: sh("gzip -c m10.txt | gunzip -c | md5sum") },
  // `%.0f`: mawk (a host's usual awk) prints the sum, 5000050000, as 5.00005e+09 with `print` and as
  // 2147483647 with `%d`; every awk prints this double's integer value the same with `%.0f`.
  { name: "awk_sum", group: "ecosystem", run: sh("awk '{ s += $1 } END { printf \"%.0f\\n\", s }' n100k.txt") },
  { name: "sort_100k", group: "ecosystem", run: sh("seq 1 100000 | sort -n | tail -1") },
  { name: "diff_1000", group: "ecosystem", run: sh("diff a1000.txt b1000.txt | md5sum") },
  { name: "jq_extract", group: "ecosystem", run: sh("jq -r '.items[] | select(.id % 50 == 0) | .name' < data.json") },
  // A host without ripgrep lists the same files with `grep -rl` (its timing is then grep's); the VMs ship rg.
  { name: "rg_tree", group: "ecosystem", run: sh("if command -v rg >/dev/null; then rg -l needle tree; else grep -rl needle tree; fi | sort | md5sum") },
];

/** Operations per networking row, after NET_WARMUP untimed (fewer than bench:net's 2000 and 1000: one peer takes ~10 ms each). */
const NET_N = 300;
const NET_WARMUP = 300;

// `$PWD/`: the upstream agent-os resolves a relative script name from `/`, not from its cwd.
const netRows = (row: string, n: number, warmup: number): string => `node "$PWD/net-rows.js" ${row} ${n} ${warmup}`;

/**
 * A networking row of bench:net: `node net-rows.js ROW` in the peer, which checks every reply and prints
 * `{ row, n, p50_us, p95_us }` of the operation alone (a peer without `node` or its networking fails the row).
 * A peer whose guest clock does not advance (p50 0: the upstream agent-os) is timed from outside instead: the
 * wall time of a run of NET_N operations less that of a run of one, per operation, a mean.
 */
const netRow = (row: string): CompareRow => ({
  name: row,
  group: "network",
  run: sh(netRows(row, NET_N, NET_WARMUP)),
  check: (output) => (JSON.parse(output) as { row: string }).row === row,
  async timing(vm, output) {
    const r = JSON.parse(output) as { n: number; p50_us: number; p95_us: number };
    if (r.p50_us > 0) return { p50_ms: r.p50_us / 1000, p95_ms: r.p95_us / 1000, n: r.n };
    const wall = async (n: number): Promise<number> => {
      const t = performance.now();
      await sh(netRows(row, n, 0))(vm);
      return performance.now() - t;
    };
    const mean = ((await wall(NET_N)) - (await wall(1))) / (NET_N - 1);
    return { p50_ms: mean, p95_ms: mean, n: NET_N, note: "mean from wall time (the guest's clock does not advance)" };
  },
});

export const networkRows: CompareRow[] = [
  // `node -e 0` end to end: a guest JavaScript process's start and exit.
  { name: "node_e", group: "network", run: sh("node -e 0") },
  ...["udp_echo", "unix_echo", "unix_accept", "tcp_echo_64k", "http_get"].map(netRow),
];

/** Rows over a real host directory (the project's node_modules) mounted read-only at `mnt`. */
export function filesystemRows(files: readonly string[]): CompareRow[] {
  const list = files.map((f) => `mnt/${f}`).join("\n") + "\n";
  return [
    { name: "fs_find", group: "filesystem", run: sh("find mnt/ -type f | wc -l") },
    { name: "fs_ls_R", group: "filesystem", run: sh("ls -RA mnt/ | wc -l") },
    {
      name: `fs_stat_${files.length}`,
      group: "filesystem",
      async run(vm, root) {
        let total = 0;
        for (const f of files) total += (await vm.stat(`${root}/mnt/${f}`)).size;
        return String(total);
      },
    },
    {
      name: `fs_cat_${files.length}`,
      group: "filesystem",
      async run(vm, root) {
        await vm.writeFile(`${root}/list.txt`, list);
        return sh("cat $(cat list.txt) | md5sum")(vm);
      },
    },
  ];
}

