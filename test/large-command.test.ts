import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../src/index.js";
import { createVm, result } from "./helpers.js";

// exec(cmd) takes commands up to limits.maxCommandBytes (16 MiB by default): agents write whole files with
// a here-document in one command. maxArgBytes bounds argv, not the command: a router shell reads it from
// its input, and a fresh shell (no router shell free, or execRouter: false) gets one too long for argv
// the same way (src/exec/fresh-shell.ts).

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * `bytes` bytes (UTF-8) of text a quoted here-document carries as it is: lines of 0 to 200 characters
 * drawn from every byte but NUL and newline (control characters, CR, tabs, quotes, backslashes, `$(…)`,
 * DEL) and from two- to four-byte UTF-8 characters, the same for a seed on every run. No line ends in CR:
 * the VM's shell reads CR LF as LF (mvdan.cc/sh's parser does so everywhere), where bash keeps the CR.
 */
function text(bytes: number, seed: number): string {
  const pool = [...Array.from({ length: 127 }, (_, i) => String.fromCharCode(i + 1)).filter((c) => c !== "\n"), "$(", "`", "é", "€", "😀", "\\", "'", '"'];
  let x = seed >>> 0 || 1;
  const next = (n: number): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    let line = "";
    for (let n = next(201); n > 0; n--) line += pool[next(pool.length)];
    line += line.endsWith("\r") ? "x\n" : "\n";
    parts.push(line);
    size += Buffer.byteLength(line);
  }
  const all = Buffer.from(parts.join(""));
  // Cut to size on a line: the last line is shortened and ends with a newline.
  const cut = all.subarray(0, bytes - 1).toString();
  return cut.replace(/[\uFFFD\r]+$/, "") + "\n";
}

const sha256 = (s: string): string => createHash("sha256").update(s).digest("hex");

/** `cat > FILE` of `content` by a quoted here-document, then its sha256sum. */
const hereDocument = (file: string, content: string): string => `cat > ${file} <<'AGENTOS_END_OF_TEXT'\n${content}AGENTOS_END_OF_TEXT\nsha256sum ${file}`;

describe("exec of a command larger than maxArgBytes", () => {
  it.each([
    ["a router shell", true],
    ["a fresh shell (execRouter: false)", false],
  ])("a here-document of 5 MiB writes the file byte for byte, through %s", async (_how, execRouter) => {
    const vm = await createVm({ execRouter });
    const content = text(5 * MiB, 25);
    expect(Buffer.byteLength(content)).toBeGreaterThan(5 * MiB - 256);
    const r = await vm.exec(hereDocument("/tmp/src.txt", content));
    expect(r).toEqual(result(`${sha256(content)}  /tmp/src.txt\n`));
    expect(Buffer.from(await vm.readFile("/tmp/src.txt")).equals(Buffer.from(content))).toBe(true);
  });

  it("several at once, more than the router has shells, all write their files", async () => {
    const vm = await createVm();
    const contents = Array.from({ length: 6 }, (_, i) => text(300 * KiB, i + 1));
    const rs = await Promise.all(contents.map((c, i) => vm.exec(hereDocument(`/tmp/f${i}`, c))));
    expect(rs).toEqual(contents.map((c, i) => result(`${sha256(c)}  /tmp/f${i}\n`)));
  });

  it.each([
    ["a router shell", true],
    ["a fresh shell (execRouter: false)", false],
  ])("runs as `sh -c` does, through %s: the shell's name, $#, line numbers, exit status", async (_how, execRouter) => {
    const vm = await createVm({ execRouter });
    const script = (pad: string): string => `: '${pad}'\necho "$0 $#"\nnosuch_cmd\necho "line $LINENO"\n(exit 3)\necho $?\nexit 7`;
    const small = await vm.exec(script(""));
    expect(small).toEqual(result("sh 0\nline 4\n3\n", 7, "sh: line 3: nosuch_cmd: command not found\n"));
    expect(await vm.exec(script("p".repeat(300 * KiB)))).toEqual(small);
    const syntax = (pad: string): string => `: '${pad}'\nif then`;
    const error = await vm.exec(syntax(""));
    expect(error).toEqual(result("", 2, "sh: -c: line 2: syntax error near unexpected token `then'\nsh: -c: line 2: `if then'\n"));
    expect(await vm.exec(syntax("p".repeat(300 * KiB)))).toEqual(error);
  });

  it("a router shell that ran a command past 1 MiB is let go after it; the next exec gets a new one", async () => {
    const vm = await createVm();
    expect(await vm.exec("echo warm")).toEqual(result("warm\n"));
    const started = vm.stats().router.shellsStarted;
    const content = text(2 * MiB, 7);
    expect(await vm.exec(hereDocument("/tmp/big", content))).toEqual(result(`${sha256(content)}  /tmp/big\n`));
    expect(await vm.exec("echo next; exit 3")).toEqual(result("next\n", 3));
    expect(vm.stats().router.shellsStarted).toBe(started + 1);
  });
});

describe("maxCommandBytes", () => {
  it("is 16 MiB by default: a 16 MiB command runs, one byte more is E2BIG", async () => {
    expect(DEFAULT_LIMITS.maxCommandBytes).toBe(16 * MiB);
    const vm = await createVm();
    const head = hereDocument("/tmp/whole", "");
    const content = text(16 * MiB - Buffer.byteLength(head), 16);
    const command = hereDocument("/tmp/whole", content);
    expect(Buffer.byteLength(command)).toBeLessThanOrEqual(16 * MiB);
    expect(await vm.exec(command)).toEqual(result(`${sha256(content)}  /tmp/whole\n`));
    await expect(vm.exec("#".repeat(16 * MiB + 1))).rejects.toMatchObject({
      code: "E2BIG",
      message: expect.stringContaining("command longer than maxCommandBytes (16777216)"),
    });
  });

  it("is a limit of its own: past it E2BIG, with or without the router", async () => {
    for (const execRouter of [true, false]) {
      const vm = await createVm({ execRouter, limits: { maxCommandBytes: 64 * KiB, maxArgBytes: 4 * KiB } });
      const at = (n: number): string => `echo ${"x".repeat(n - 13)} | wc -c`;
      expect(Buffer.byteLength(at(64 * KiB))).toBe(64 * KiB);
      expect(await vm.exec(at(64 * KiB))).toEqual(result(`${64 * KiB - 12}\n`));
      await expect(vm.exec(at(64 * KiB + 1))).rejects.toMatchObject({ code: "E2BIG", message: expect.stringContaining("maxCommandBytes (65536)") });
    }
  });
});
