import { describe, expect, it } from "vitest";
import type { ScriptProcess } from "../workers/script-host.js";
import type { FileKind, Stat, System } from "../workers/system.js";
import du from "../workers/commands/du.js";
import find from "../workers/commands/find.js";

// find and du walk a tree with a stack of their own, not by recursion: the VM lets a tree grow as deep as
// limits.maxPathBytes allows (a VM may raise it), and a recursive walk would run out of the worker's stack
// a few thousand levels down. Driven here with a made-up system of a tree far deeper than that, whose
// system calls cost nothing, so the test measures only the walk.

/** `t/d/d/…/d/f`: `levels` directories below `t`, then a file of 1 byte. */
function chainSystem(levels: number): System {
  // A path's depth is its length: "t" and then two bytes ("/d") a level; the file is "/f" at the bottom.
  const depth = (path: string): number => (path.length - 1) / 2;
  const stat = (path: string): Stat => {
    const file = path.endsWith("/f");
    if (!file && (!path.startsWith("t") || depth(path) > levels)) throw Object.assign(new Error(`${path}: No such file or directory`), { code: "ENOENT" });
    const kind: FileKind = file ? "file" : "dir";
    return { kind, mode: file ? 0o100644 : 0o40755, size: file ? 1 : 0, blocks: file ? 8 : 0, ino: depth(path) + 1, dev: 1, nlink: 1, atimeMs: 0, mtimeMs: 0, ctimeMs: 0 };
  };
  const system = {
    env: {},
    isatty: () => false,
    stat: (path: string) => stat(path),
    readdir: (path: string): Array<{ name: string; kind: FileKind }> => (depth(path) < levels ? [{ name: "d", kind: "dir" }] : [{ name: "f", kind: "file" }]),
  };
  return system as unknown as System;
}

async function run(script: (p: ScriptProcess) => number, argv: string[], levels: number): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: "", stderr: "" };
  const output = (stream: "stdout" | "stderr") => ({
    write: (data: Uint8Array | string) => void (out[stream] += typeof data === "string" ? data : new TextDecoder().decode(data)),
    flush: () => {},
  });
  const p = { sys: chainSystem(levels), argv, stdout: output("stdout"), stderr: output("stderr") } as unknown as ScriptProcess;
  const code = script(p);
  return { code, ...out };
}

describe("find and du walk a tree of any depth without recursion", () => {
  const levels = 10_000;
  const bottom = `t${"/d".repeat(levels)}`;

  it("find, in walk order and with -depth", async () => {
    expect(await run(find, ["find", "t", "-name", "f"], levels)).toEqual({ code: 0, stdout: `${bottom}/f\n`, stderr: "" });
    expect(await run(find, ["find", "t", "-depth", "-type", "d", "-name", "t"], levels)).toEqual({ code: 0, stdout: "t\n", stderr: "" });
    expect(await run(find, ["find", "-L", "t", "-xdev", "-type", "f"], levels)).toEqual({ code: 0, stdout: `${bottom}/f\n`, stderr: "" });
  });

  it("du, with -s, --max-depth and -S", async () => {
    expect(await run(du, ["du", "-s", "t"], levels)).toEqual({ code: 0, stdout: "4\tt\n", stderr: "" });
    expect(await run(du, ["du", "-d", "1", "t"], levels)).toEqual({ code: 0, stdout: "4\tt/d\n4\tt\n", stderr: "" });
    expect(await run(du, ["du", "-S", "-d", "0", "t"], levels)).toEqual({ code: 0, stdout: "0\tt\n", stderr: "" });
  });
});
