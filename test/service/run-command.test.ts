import { describe, expect, it } from "vitest";
import { createVm } from "../helpers.js";
import { hostHas, onHost } from "./host.js";

// nice, nohup and timeout (workers/commands/): they run a command with their own stdin, stdout and stderr
// and exit with its status. Each case is compared with GNU coreutils on this machine (LC_ALL=C), where
// it has them; the expected results are pinned by hand either way.
const haveGnu = hostHas("timeout --version", "GNU coreutils");
const cases: Array<[command: string, exitCode: number, stdout: string, stderr: string]> = [
  ["seq 3 | nohup cat", 0, "1\n2\n3\n", ""],
  ["seq 2 | nice cat; nice; nice -n 5 echo x; nice -7 echo y", 0, "1\n2\n0\nx\ny\n", ""],
  ["nohup sh -c 'exit 3'; echo $?", 0, "3\n", ""],
  ["nohup nosuch; echo $?", 0, "127\n", "nohup: failed to run command 'nosuch': No such file or directory\n"],
  ["nohup; echo $?", 0, "125\n", "nohup: missing operand\nTry 'nohup --help' for more information.\n"],
  ["nice -n 5 nosuch; echo $?", 0, "127\n", "nice: 'nosuch': No such file or directory\n"],
  ["nice -n x true; echo $?", 0, "125\n", "nice: invalid adjustment 'x'\n"],
  ["echo hi | timeout 2 cat; timeout 5 sh -c 'exit 3'; echo $?", 0, "hi\n3\n", ""],
  ["timeout 0.2 sleep 5; echo $?", 0, "124\n", ""],
  ["timeout --preserve-status 0.2 sleep 5; echo $?", 0, "143\n", ""],
  ["timeout -v 0.2 sleep 5; echo $?", 0, "124\n", "timeout: sending signal TERM to command 'sleep'\n"],
  ["timeout -s INT -k 0.2 0.1 sleep 5; echo $?", 0, "124\n", ""],
  ["timeout 0 true; echo $?", 0, "0\n", ""],
  ["timeout 1 nosuch; echo $?", 0, "127\n", "timeout: failed to run command 'nosuch': No such file or directory\n"],
  ["timeout x true; echo $?", 0, "125\n", "timeout: invalid time interval 'x'\nTry 'timeout --help' for more information.\n"],
  ["timeout; echo $?", 0, "125\n", "Try 'timeout --help' for more information.\n"],
  ["timeout -s NOPE 1 true; echo $?", 0, "125\n", "timeout: 'NOPE': invalid signal\nTry 'timeout --help' for more information.\n"],
];

describe("nice, nohup, timeout", () => {
  it("timeout -s KILL: 137, as timeout dies of the signal it sent", async () => {
    const vm = await createVm();
    // differs from GNU (stderr): bash also reports its job "Killed" (timeout re-raises KILL on itself); the shell does not.
    expect(await vm.exec("timeout -s KILL 0.2 sleep 5; echo $?")).toEqual({ exitCode: 0, stdout: "137\n", stderr: "" });
  });

  it.each(cases)("%s", async (command, exitCode, stdout, stderr) => {
    const vm = await createVm({ env: { LC_ALL: "C" } });
    try {
      const expected = { exitCode, stdout, stderr };
      expect(await vm.exec(command)).toEqual(expected);
      if (haveGnu) expect(onHost({}, command), `host: ${command}`).toEqual(expected);
    } finally {
      await vm.dispose();
    }
  });
});
