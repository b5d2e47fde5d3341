import { describe, expect, it } from "vitest";
import type { AgentOs, Spawned } from "../src/index.js";
import { RUN_DEADLINE_MS } from "./deadlines.js";
import { createVm } from "./helpers.js";
import { poolSlotFreed } from "../src/pool/process-pool.js";

/**
 * When the VM runs as many processes as it may (limits.maxProcesses), a command that cannot start is
 * handled as bash handles a fork that fails with EAGAIN (make_child: "fork: retry" and a wait of 1, 2, 4
 * and 8 seconds between tries, then "fork: Resource temporarily unavailable" and the shell, or the subshell
 * the command ran in, ends with status 254), checked against bash 5.2 under `ulimit -u`. Here a wait ends
 * as soon as a process exits and there is room. Most cases run in a VM of 8 processes.
 */

const RETRY = "sh: fork: retry: Resource temporarily unavailable\n";
const FAILED = "sh: fork: Resource temporarily unavailable\n";
/** bash's lines when the command never finds room: a retry after each wait, then the failure. */
const GAVE_UP = RETRY.repeat(4) + FAILED;
/** The deadline of a case that waits out bash's 15 seconds of retries (RUN_DEADLINE_MS covers a slow machine). */
const GIVING_UP_DEADLINE_MS = 2 * RUN_DEADLINE_MS;

const stages = (first: string, n: number): string => first + " | cat".repeat(n);

describe("a pipeline longer than the VM has processes", () => {
  it("starts its stages left to right: as the first ones end, the others get their turn (bash's retries)", async () => {
    const vm = await createVm({ limits: { maxProcesses: 8 } });
    const r = await vm.exec(`${stages("echo hi", 20)}; echo "s=$? \${PIPESTATUS[*]}"`);
    expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: 0, stdout: `hi\ns=0${" 0".repeat(21)}\n` });
    expect(r.stderr).toMatch(/^(sh: fork: retry: Resource temporarily unavailable\n)*$/);
  }, GIVING_UP_DEADLINE_MS);

  // The cases of issue 25 at the default limit (64 processes).
  it.each([70, 500])("echo hi | cat × %i", async (n) => {
    const vm = await createVm();
    const r = await vm.exec(`${stages("echo hi", n)}; echo "s=$?"`);
    expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: 0, stdout: "hi\ns=0\n" });
    expect(r.stderr).toMatch(/^(sh: fork: retry: Resource temporarily unavailable\n)*$/);
  }, 5 * RUN_DEADLINE_MS);
});

// Each of these waits out bash's 15 seconds of retries: they wait side by side, each in a VM of its own.
describe("a pipeline that never finds room", { concurrent: true }, () => {
  it("that cannot start fails as bash's: the shell ends with 254, and the stages that ran are ended", async (test) => {
    const vm = await createVm({ limits: { maxProcesses: 8 } }, test);
    // `sleep 100` and the cats after it hold every process the VM may run, and none of them ends.
    const r = await vm.exec(`set -o pipefail; ${stages("sleep 100", 20)}; echo "after $?"`);
    expect(r).toEqual({ exitCode: 254, stdout: "", stderr: GAVE_UP });
    // createVm's check: nothing is left running (the sleep and the cats were ended).
  }, GIVING_UP_DEADLINE_MS);

  // cat reads end of file from the substitution that ended; its own status is 0, as in bash.
  it.for<[string, string]>([
    ["x=$(STUCK); echo \"[$x] $? ${PIPESTATUS[*]}\"", "[] 254 254\n"],
    ["( STUCK ); echo \"s=$? ${PIPESTATUS[*]}\"", "s=254 254\n"],
    ["cat <(STUCK); echo \"s=$?\"", "s=0\n"],
  ])("in $( … ), ( … ) and <( … ) ends that subshell with 254, and the shell goes on: %s", { timeout: GIVING_UP_DEADLINE_MS }, async ([script, stdout], test) => {
    const vm = await createVm({ limits: { maxProcesses: 8 } }, test);
    expect(await vm.exec(script.replace("STUCK", stages("sleep 100", 20)))).toEqual({ exitCode: 0, stdout, stderr: GAVE_UP });
  });

  it("in a background job ends the job with 254 (bash's shell, which forks the job's processes itself, ends)", async (test) => {
    const vm = await createVm({ limits: { maxProcesses: 8 } }, test);
    const r = await vm.exec(`${stages("sleep 100", 20)} & wait $!; echo "s=$?"`);
    expect(r).toEqual({ exitCode: 0, stdout: "s=254\n", stderr: GAVE_UP });
  }, GIVING_UP_DEADLINE_MS);

  it("the shell's messages go where its own stderr goes, not to the command's redirection", async (test) => {
    const vm = await createVm({ limits: { maxProcesses: 8 } }, test);
    const r = await vm.exec(`${stages("sleep 100", 20)} 2>/dev/null`);
    expect(r).toEqual({ exitCode: 254, stdout: "", stderr: GAVE_UP });
  }, GIVING_UP_DEADLINE_MS);
});

/** Fills the VM with `sleep 100` processes started through the API until it refuses one (EAGAIN). */
function fill(vm: AgentOs): Spawned[] {
  const held: Spawned[] = [];
  for (;;) {
    try {
      held.push(vm.spawn("sleep", ["100"]));
    } catch (e) {
      expect((e as { code?: string }).code).toBe("EAGAIN");
      return held;
    }
  }
}

/** `sleep 100`, started once the VM has room: a spawn refused with EAGAIN is tried again when a pool slot is given back. */
async function spawnWhenRoom(vm: AgentOs): Promise<Spawned> {
  for (;;) {
    try {
      return vm.spawn("sleep", ["100"]);
    } catch (e) {
      expect((e as { code?: string }).code).toBe("EAGAIN");
      await poolSlotFreed();
    }
  }
}

async function end(held: Spawned[]): Promise<void> {
  for (const p of held) p.kill();
  await Promise.all(held.map((p) => p.wait()));
}

describe("xargs when the VM has no room for another process", () => {
  it("-P waits for one of its own commands to end and starts the next, as GNU xargs", async () => {
    const vm = await createVm({ limits: { maxProcesses: 8 } });
    const r = await vm.exec("printf '0.2\\n%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 | xargs -P 12 -n 1 sleep; echo \"s=$?\"");
    expect(r).toEqual({ exitCode: 0, stdout: "s=0\n", stderr: "" });
  });

  it("with none of its own running, cannot fork (GNU's message, status 1)", async () => {
    const vm = await createVm({ limits: { maxProcesses: 8 } });
    await vm.exec("true"); // the exec router's shell is running now
    const held = fill(vm);
    const last = held.pop()!;
    last.kill();
    await last.wait(); // room for one process: xargs
    const r = await vm.exec('echo x | xargs echo; echo "s=$?"');
    expect(r).toEqual({ exitCode: 0, stdout: "s=1\n", stderr: "xargs: cannot fork: Resource temporarily unavailable\n" });
    await end(held);
  });
});

describe("spawn() at the process limit", () => {
  it("refuses with EAGAIN past the limit, and a killed process gives its place back once the host has let go of it", async () => {
    const vm = await createVm();
    const started: Spawned[] = [];
    let refused = 0;
    for (let i = 0; i < 500; i++) {
      try {
        const p = vm.spawn("sleep", ["100"]);
        p.kill();
        started.push(p);
      } catch (e) {
        expect((e as { code?: string }).code).toBe("EAGAIN");
        refused++;
      }
    }
    expect(started.length + refused).toBe(500);
    expect(refused).toBeGreaterThan(0);
    await Promise.all(started.map((p) => p.wait()));
    // All have exited, each status at once. Each place comes back at the exit, or, for a process killed
    // while its task waited for a worker or whose worker had to be stopped, once that worker has handed
    // the task back or ended (pool-process.ts): then as many can run again as before, and no more.
    const held: Spawned[] = [];
    while (held.length < started.length) held.push(await spawnWhenRoom(vm));
    expect(() => vm.spawn("sleep", ["100"])).toThrow(expect.objectContaining({ code: "EAGAIN" }));
    for (let i = 0; i < 5; i++) {
      const p = held.shift()!;
      p.kill();
      expect(await p.wait()).toBe(143);
      held.push(await spawnWhenRoom(vm));
    }
    await end(held);
  });
});
