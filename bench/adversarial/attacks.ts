import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { AgentOs, type ExecResult } from "../../src/index.js";

/** What one attack reports: how its exec ended and within what deadline. */
export interface Outcome {
  /** The attack's result in a few words (exit code, the line that says why). */
  outcome: string;
  /** Milliseconds from the start of the attack to its end. */
  ms: number;
  /** The deadline it was given (ms), if any. */
  deadline?: number;
}

export interface Attack {
  name: string;
  run: (vm: AgentOs) => Promise<Outcome>;
  /** The attack itself removes the file written before it (`rm -rf /`): only the VM must survive. */
  removesFiles?: true;
}

const summary = (r: ExecResult): string => {
  const line = r.stderr.trim().split("\n").pop() ?? "";
  return `exit ${r.exitCode}${r.truncated ? ", truncated" : ""}${line ? `: ${line.slice(0, 90)}` : ""}`;
};

/** One exec, timed, summarised. */
const execAttack =
  (command: string, timeout?: number) =>
  async (vm: AgentOs): Promise<Outcome> => {
    const t0 = performance.now();
    const r = await vm.exec(command, timeout === undefined ? {} : { timeout });
    return { outcome: summary(r), ms: performance.now() - t0, ...(timeout === undefined ? {} : { deadline: timeout }) };
  };

/** Several steps; the outcome is the last one's. */
const steps =
  (...commands: string[]) =>
  async (vm: AgentOs): Promise<Outcome> => {
    const t0 = performance.now();
    let r: ExecResult | undefined;
    for (const c of commands) r = await vm.exec(c, { timeout: 60_000 });
    return { outcome: summary(r!), ms: performance.now() - t0 };
  };

const rejection = async (work: () => Promise<unknown>): Promise<Outcome> => {
  const t0 = performance.now();
  try {
    const r = await work();
    return { outcome: `resolved: ${JSON.stringify(r).slice(0, 80)}`, ms: performance.now() - t0 };
  } catch (e) {
    const err = e as { name?: string; code?: string; message?: string };
    return { outcome: `${err.name} ${err.code ?? ""}: ${err.message?.slice(0, 70)}`, ms: performance.now() - t0 };
  }
};

/** The attacks of the containment issue, at full size, with the default limits. */
export const ATTACKS: Attack[] = [
  { name: "cat /dev/zero (timeout 5 s)", run: execAttack("cat /dev/zero", 5000) },
  { name: "yes (no timeout)", run: execAttack("yes") },
  { name: "yes (timeout 5 s)", run: execAttack("yes", 5000) },
  { name: "cat /dev/zero | sleep 30 (timeout 5 s)", run: execAttack("cat /dev/zero | sleep 30", 5000) },
  { name: "x=$(cat /dev/zero) (no timeout)", run: execAttack("x=$(cat /dev/zero); echo ${#x}") },
  { name: "head -c 3000000000 /dev/zero > /tmp/big", run: execAttack("head -c 3000000000 /dev/zero > /tmp/big", 60_000) },
  { name: "head -c 5000000000 /dev/zero > /tmp/big", run: execAttack("head -c 5000000000 /dev/zero > /tmp/big", 60_000) },
  { name: "truncate -s 100G f", run: execAttack("truncate -s 100G /tmp/f", 10_000) },
  {
    name: "one guest growing its memory",
    run: execAttack(`awk 'BEGIN { s = "x"; while (1) s = s s }'`, 60_000),
  },
  {
    name: "ten guests growing their memory at once",
    run: async (vm) => {
      const t0 = performance.now();
      const rs = await Promise.all(
        Array.from({ length: 10 }, () => vm.exec(`awk 'BEGIN { s = "x"; while (1) s = s s }'`, { timeout: 60_000 })),
      );
      const codes = [...new Set(rs.map((r) => r.exitCode))].join("/");
      return { outcome: `exit ${codes}: ${rs[0]!.stderr.trim().split("\n").pop()?.slice(0, 70)}`, ms: performance.now() - t0 };
    },
  },
  { name: "rm /dev/null", run: steps("rm /dev/null", "echo x > /dev/null; cat /dev/null; rm /dev/null") },
  { name: "mv over /dev/null", run: steps("echo x > /tmp/x", "mv /tmp/x /dev/null") },
  { name: "rm -rf /home/user", run: steps("rm -rf /home/user", "echo alive") },
  { name: "rm -rf /", removesFiles: true, run: steps("rm -rf / 2>&1 | tail -1; rm -rf /* 2>&1 | tail -1", "echo alive") },
  {
    name: "10,000 nested directories, then mv",
    run: steps("for i in $(seq 10000); do mkdir d && cd d || break; done; pwd | wc -c", "mv /home/user/d /tmp/moved && rm -rf /tmp/moved; echo $?"),
  },
  {
    name: "300 concurrent execs",
    run: async (vm) => {
      const t0 = performance.now();
      const rs = await Promise.all(Array.from({ length: 300 }, (_, i) => vm.exec(`echo ${i} | cat`)));
      const ok = rs.filter((r, i) => r.exitCode === 0 && r.stdout === `${i}\n`).length;
      return { outcome: `${ok}/300 correct`, ms: performance.now() - t0 };
    },
  },
  {
    name: "another VM's echo while a pipeline floods",
    run: async (vm) => {
      const other = await AgentOs.create();
      await other.exec("true");
      const flood = vm.exec("cat /dev/zero | cat | cat | cat > /dev/null", { timeout: 5000 });
      const lat: number[] = [];
      const t0 = performance.now();
      while (performance.now() - t0 < 4500) {
        const s = performance.now();
        await other.exec("echo hi");
        lat.push(performance.now() - s);
      }
      await flood;
      await other.dispose();
      lat.sort((a, b) => a - b);
      const p50 = lat[Math.floor(lat.length / 2)]!;
      return { outcome: `echo p50 ${p50.toFixed(2)} ms, max ${lat.at(-1)!.toFixed(1)} ms (${lat.length} runs)`, ms: performance.now() - t0 };
    },
  },
  { name: "seq 1 20000000 | sort", run: execAttack("seq 1 20000000 | sort | tail -1", 120_000) },
  {
    name: "500 spawn + kill",
    run: async (vm) => {
      const t0 = performance.now();
      const codes = new Set<number>();
      for (let i = 0; i < 500; i++) {
        const p = vm.spawn("cat", []);
        p.kill();
        codes.add(await p.wait());
      }
      return { outcome: `exit ${[...codes].join("/")}`, ms: performance.now() - t0 };
    },
  },
  {
    name: "wc -c < FIFO in a host mount",
    run: async () => {
      const dir = mkdtempSync(join(tmpdir(), "agentos-fifo-"));
      execFileSync("mkfifo", [join(dir, "fifo")]);
      const vm = await AgentOs.create({ mounts: [{ path: "/mnt/h", hostDir: dir }] });
      try {
        return await execAttack("wc -c < /mnt/h/fifo", 5000)(vm);
      } finally {
        await vm.dispose();
        rmSync(dir, { recursive: true });
      }
    },
  },
  { name: "sleep 3000000 (timeout 1 s)", run: execAttack("sleep 3000000", 1000) },
  {
    name: "timeouts 2^31, 3e9, Infinity",
    run: async (vm) => {
      const t0 = performance.now();
      const rs = await Promise.all([2 ** 31, 3e9, Infinity].map((timeout) => vm.exec("sleep 0.2; echo ok", { timeout })));
      return { outcome: rs.map((r) => r.stdout.trim() || `exit ${r.exitCode}`).join(", "), ms: performance.now() - t0 };
    },
  },
  { name: "timeout NaN", run: (vm) => rejection(() => vm.exec("true", { timeout: NaN })) },
  { name: "timeout -1", run: (vm) => rejection(() => vm.exec("true", { timeout: -1 })) },
  { name: "timeout 'abc'", run: (vm) => rejection(() => vm.exec("true", { timeout: "abc" as unknown as number })) },
  {
    name: "onStdout listener throws",
    run: (vm) =>
      rejection(() =>
        vm.exec("yes", {
          onStdout: () => {
            throw new Error("listener failed");
          },
        }),
      ),
  },
  {
    name: "stdin of 100 MiB",
    run: async (vm) => {
      const t0 = performance.now();
      const r = await vm.exec("wc -c", { stdin: new Uint8Array(100 * 2 ** 20) });
      return { outcome: `${summary(r)}, ${r.stdout.trim()} bytes`, ms: performance.now() - t0 };
    },
  },
  { name: "path with NUL", run: (vm) => rejection(() => vm.readFile("/tmp/a\0b")) },
  { name: "command of 10 MiB", run: (vm) => rejection(() => vm.exec("echo " + "x".repeat(10 * 2 ** 20))) },
];
