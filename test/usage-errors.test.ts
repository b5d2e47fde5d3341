// Messages a coding agent matches on, with their exact text where no reference runs beside the VM (the GNU
// differential suite, test/tools-cases.ts "usage errors", compares the rest with the host's coreutils).
import { describe, expect, it } from "vitest";
import { createVm, result } from "./helpers.js";

describe("usage errors and I/O errors say what GNU and Linux say", { concurrent: true }, () => {
  it("an unknown option or an extra operand: GNU's words, 'Try ... --help', and the utility's usage status", async (t) => {
    const vm = await createVm(undefined, t);
    const run = async (cmd: string, env: Record<string, string> = {}) => {
      const r = await vm.exec(cmd, { env });
      return [r.exitCode, r.stderr];
    };
    expect(await run("ls --no-such-option")).toEqual([2, "ls: unrecognized option '--no-such-option'\nTry 'ls --help' for more information.\n"]);
    expect(await run("ls --color-ful=x /")).toEqual([2, "ls: unrecognized option '--color-ful=x'\nTry 'ls --help' for more information.\n"]);
    expect(await run("cat -q /etc/hostname")).toEqual([1, "cat: invalid option -- 'q'\nTry 'cat --help' for more information.\n"]);
    // gnulib's quote(): ‘’ where the locale's charset is UTF-8 (the VM's default LANG=C.UTF-8), '' in C.
    expect(await run("nproc x")).toEqual([1, "nproc: extra operand \u2018x\u2019\nTry 'nproc --help' for more information.\n"]);
    expect(await run("tty x", { LC_ALL: "C" })).toEqual([2, "tty: extra operand 'x'\nTry 'tty --help' for more information.\n"]);
  });

  it("rg names an I/O error by Linux's errno, as ripgrep on Linux does", async (t) => {
    const vm = await createVm(undefined, t);
    expect(await vm.exec("rg foo missing.txt")).toEqual(
      result("", 2, "rg: missing.txt: IO error for operation on missing.txt: No such file or directory (os error 2)\n"),
    );
  });
});
