import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin, hostHas } from "./host-twin.js";

/**
 * The VM's free (workers/commands/free.ts) against the host's procps free. The numbers cannot agree (the host's
 * are its RAM, the VM's its memory limit and its processes' WebAssembly memory), so the host is the reference
 * for the layout: the same header, the same rows, every column ending at the same place. The VM's numbers are
 * checked against its limits: 2 GiB by default, used + free = total.
 */

const LAYOUT_CASES = ["free", "free -b", "free -k", "free -m", "free -g", "free -h", "free -h --si", "free --mega", "free -t", "free -w", "free -h -t -w"];

/** Each line as its first word and the offsets where its other words end (the columns are right-aligned). */
const layout = (text: string): Array<[string, number[]]> =>
  text.split("\n").map((line) => {
    const words = [...line.matchAll(/\S+/g)];
    const numbered = /^(Mem|Swap|Total):$/.test(words[0]?.[0] ?? "");
    return numbered ? [words[0]![0], words.slice(1).map((w) => w.index! + w[0].length)] : [line, []];
  });

let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create({});
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

describe.skipIf(!hostHas("free"))(`free in the VM: the layout of the host's procps free (${LAYOUT_CASES.length} cases)`, () => {
  it.each(LAYOUT_CASES)("%s", async (command) => {
    const vm = await twin.inVm(command);
    const host = twin.onHost(command);
    expect({ exitCode: vm.exitCode, stderr: vm.stderr }).toEqual({ exitCode: host.exitCode, stderr: host.stderr });
    expect(layout(vm.stdout)).toEqual(layout(host.stdout));
  }, CASE_DEADLINE_MS);

  it("usage errors and --help as procps's", async () => {
    for (const command of ["free --bogus", "free --help", "free -s"]) expect(await twin.inVm(command), command).toEqual(twin.onHost(command));
  }, CASE_DEADLINE_MS);
});

describe("free's numbers are the VM's", () => {
  it("total is the VM's memory limit; used and free add up to it; no shared memory, cache or swap", async () => {
    const row = async (command: string, label = "Mem:"): Promise<string[]> => {
      const r = await twin.inVm(command);
      expect(r.exitCode, command).toBe(0);
      return r.stdout.split("\n").find((l) => l.startsWith(label))!.trim().split(/\s+/).slice(1);
    };
    const [total, used, free, shared, cache, available] = (await row("free -b")).map(Number);
    expect(total).toBe(2 * 1024 ** 3);
    expect(used).toBeGreaterThan(0);
    expect(used! + free!).toBe(total);
    expect([shared, cache, available]).toEqual([0, 0, free]);
    expect(await row("free -b", "Swap:")).toEqual(["0", "0", "0"]);
    expect((await row("free -m"))[0]).toBe("2048");
    expect((await row("free -g"))[0]).toBe("2");
    expect((await row("free -h"))[0]).toBe("2.0Gi");
    expect((await row("free -h --si"))[0]).toBe("2.1G");
    expect((await row("free --kilo"))[0]).toBe("2147483");
  }, CASE_DEADLINE_MS);

  it("says what it cannot show", async () => {
    expect(await twin.inVm("free -l")).toEqual({ exitCode: 1, stdout: "", stderr: "free: -l: the VM has no low and high memory to show\n" });
  }, CASE_DEADLINE_MS);
});
