// The mount rows of `pnpm bench:peers` (fs_find, fs_ls_R, fs_stat_1500, fs_cat_1500) alone, on the host and on
// this project's read-only, read-write and overlay mounts of the same directory (the project's node_modules):
// `npx tsx bench/mount-rows.ts [runs] [row,row…] [mode,mode…]` prints each row's p50 and p95 wall time (after a
// warm-up run) and the ratio of its p50 to the host's, measured in the same run.
import { readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { AgentOs, type MountOptions } from "../src/index.js";
import hostPeer from "./compare/peers/host.js";
import type { PeerInstance } from "./compare/peer.js";
import { filesystemRows } from "./compare/rows.js";

const runs = Number(process.argv[2] ?? 5);
const mountDir = new URL("../node_modules", import.meta.url).pathname;

/** The first 1500 regular files below the directory, sorted, as compare.ts picks them. */
function mountedFiles(dir: string, count: number): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk("");
  return out.sort().slice(0, count);
}

const root = "/home/user/bench";
async function ours(mount: Omit<MountOptions, "path" | "hostDir">): Promise<PeerInstance> {
  const vm = await AgentOs.create({ mounts: [{ path: `${root}/mnt`, hostDir: mountDir, ...mount }] });
  await vm.mkdir(root, { recursive: true });
  return {
    exec: (command) => vm.exec(command, { cwd: root }),
    writeFile: (path, data) => vm.writeFile(path, data),
    readFile: (path) => vm.readFile(path),
    stat: (path) => vm.stat(path),
    readdir: (path) => vm.readdir(path),
    dispose: () => vm.dispose(),
  };
}

const pick = (arg: string | undefined): ((name: string) => boolean) => (name) => !arg || arg.split(",").includes(name);
const [wantRow, wantMode] = [pick(process.argv[3]), pick(process.argv[4])];
const percentile = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const rows = filesystemRows(mountedFiles(mountDir, 1500)).filter((r) => wantRow(r.name));
const allModes: Array<[string, () => Promise<PeerInstance>, string]> = [
  ["host", () => hostPeer.create({ mountHostDir: mountDir }), hostPeer.root],
  ["read-only", () => ours({}), root],
  ["read-write", () => ours({ readOnly: false }), root],
  ["overlay", () => ours({ overlay: true }), root],
];
const modes = allModes.filter(([mode]) => mode === "host" || wantMode(mode));
const results = new Map<string, Map<string, [number, number]>>();
const outputs = new Map<string, string>();
for (const [mode, create, at] of modes) {
  const peer = await create();
  for (const row of rows) {
    let out = await row.run(peer, at);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      out = await row.run(peer, at);
      times.push(performance.now() - t);
    }
    if (outputs.has(row.name) && outputs.get(row.name) !== out) console.error(`${row.name}: ${mode} printed ${JSON.stringify(out)}, the host ${JSON.stringify(outputs.get(row.name))}`);
    outputs.set(row.name, outputs.get(row.name) ?? out);
    if (!results.has(row.name)) results.set(row.name, new Map());
    results.get(row.name)!.set(mode, [percentile(times, 0.5), percentile(times, 0.95)]);
  }
  await peer.dispose();
}
for (const [name, r] of results) {
  const host = r.get("host")![0];
  const cells = [...r].map(([mode, [p50, p95]]) => `${mode} ${p50.toFixed(1)}/${p95.toFixed(1)} ms${mode === "host" ? "" : ` (${(p50 / host).toFixed(1)}×)`}`);
  console.log(`${name.padEnd(13)} ${cells.join("  ")}`);
}
console.log(`p50/p95 of ${runs} runs after a warm-up; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
