import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AGENTOS_VERSION } from "../src/gnu/version.js";
import { createVm } from "./helpers.js";

/**
 * The project's own commands (TypeScript, src/commands/registry.ts's SCRIPTS and chmod) say what they are
 * when asked their version: `NAME (agentos-vm) VERSION, compatible with PROGRAM VERSION` first (the shape
 * `NAME --version | head -1` parsers expect: the name, then a version number), never GNU's (or another
 * project's) name and copyright as if they were that program (`kill` is the shell's builtin: `env kill`).
 * The WebAssembly guests print their own.
 */
const OWN: Array<[command: string, name: string, compatibleWith: string]> = [
  ["tar --version", "tar", "GNU tar 1.34"],
  ["find --version", "find", "GNU findutils 4.9.0"],
  ["xargs --version", "xargs", "GNU findutils 4.9.0"],
  ["grep --version", "grep", "GNU grep 3.8"],
  ["egrep --version", "grep", "GNU grep 3.8"],
  ["diff --version", "diff", "GNU diffutils 3.8"],
  ["cmp --version", "cmp", "GNU diffutils 3.8"],
  ["gzip --version", "gzip", "GNU gzip 1.12"],
  ["gunzip --version", "gzip", "GNU gzip 1.12"],
  ["fd --version", "fd", "fd 8.6.0"],
  ["du --version", "du", "GNU coreutils 9.1"],
  ["env --version", "env", "GNU coreutils 9.1"],
  ["stat --version", "stat", "GNU coreutils 9.1"],
  ["tac --version", "tac", "GNU coreutils 9.1"],
  ["nice --version", "nice", "GNU coreutils 9.1"],
  ["nohup --version", "nohup", "GNU coreutils 9.1"],
  ["timeout --version", "timeout", "GNU coreutils 9.1"],
  ["install --version", "install", "GNU coreutils 9.1"],
  ["chown --version", "chown", "GNU coreutils 9.1"],
  ["id --version", "id", "GNU coreutils 9.1"],
  ["df --version", "df", "GNU coreutils 9.1"],
  ["chmod --version", "chmod", "GNU coreutils 9.1"],
  ["sort --version", "sort", "GNU coreutils 9.1"],
  ["column -V", "column", "util-linux 2.38.1"],
  ["rev -V", "rev", "util-linux 2.38.1"],
  ["hexdump -V", "hexdump", "hexdump from util-linux 2.38.1"],
  ["hd -V", "hd", "hexdump from util-linux 2.38.1"],
  ["envsubst --version", "envsubst", "GNU gettext-runtime 0.21"],
  ["free -V", "free", "free from procps-ng 4.0.2"],
  ["cal --version", "cal", "ncal 12.1.8 (Debian)"],
  ["ncal --version", "ncal", "ncal 12.1.8 (Debian)"],
  ["watch --version", "watch", "procps-ng 4.0.2"],
  ["lsof -v", "lsof", "lsof 4.95"],
  ["nc -h", "nc", "netcat-openbsd 1.219"],
  ["more -V", "more", "util-linux 2.38.1"],
  ["less -V", "less", "less 590"],
  ["iconv --version", "iconv", "glibc iconv 2.36"],
  ["file --version", "file", "file 5.44"],
  ["bc --version", "bc", "GNU bc 1.07.1"],
  ["strings --version", "strings", "GNU strings 2.40"],
  ["tree --version", "tree", "tree v2.1.0"],
  ["xxd -v", "xxd", "xxd 2022-01-14"],
  ["uptime --version", "uptime", "procps-ng 4.0.2"],
  ["env kill -V", "kill", "procps-ng 4.0.2"],
  ["hostname -V", "hostname", "hostname 3.23"],
];

describe("--version of the project's own commands", () => {
  it("is agentos-vm's version, the package's", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    expect(AGENTOS_VERSION).toBe(pkg.version);
  });

  it("names agentos-vm and the program it is compatible with, and claims no one else's copyright", async () => {
    const vm = await createVm();
    for (const [command, name, like] of OWN) {
      const r = await vm.exec(`${command} 2>&1 </dev/null`);
      expect(r.exitCode, command).toBe(0);
      expect(r.stdout.split("\n")[0], command).toBe(`${name} (agentos-vm) ${AGENTOS_VERSION}, compatible with ${like}`);
      expect(r.stdout, command).not.toMatch(/Free Software Foundation|Copyright|\(GNU /);
    }
  });
});

describe("the shell's long options", () => {
  it("--version names the bash it follows (scripts match `version 5.2`) and what it really is; --help, and bash's refusal of an unknown one", async () => {
    const vm = await createVm();
    const version = await vm.exec("bash --version");
    expect(version.exitCode).toBe(0);
    expect(version.stdout.split("\n")[0]).toBe("bash (agentos-vm), compatible with GNU bash, version 5.2.15(1)-release (wasm32-unknown-wasip1)");
    expect(version.stdout).toContain("mvdan.cc/sh v3.14.1");
    expect((await vm.exec("sh --help | head -2")).stdout).toMatch(/^bash \(agentos-vm\).*\nmvdan/);
    const bad = await vm.exec("sh --bogus");
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.split("\n")[0]).toBe("sh: --bogus: invalid option");
    // The ones that mean nothing here are taken as bash takes them.
    expect(await vm.exec("bash --norc --noprofile -c 'echo hi'")).toEqual({ exitCode: 0, stdout: "hi\n", stderr: "" });
  });

  it("sort --help prints its usage and sort --vers is GNU's ambiguity (--version-sort or --version)", async () => {
    const vm = await createVm();
    const help = await vm.exec("sort --help </dev/null");
    expect(help.exitCode).toBe(0);
    expect(help.stdout.split("\n")[0]).toBe("Usage: sort [OPTION]... [FILE]...");
    expect(await vm.exec("sort --vers </dev/null")).toEqual({
      exitCode: 2,
      stdout: "",
      stderr: "sort: option '--vers' is ambiguous; possibilities: '--version-sort' '--version'\nTry 'sort --help' for more information.\n",
    });
  });
});
