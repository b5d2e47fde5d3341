import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { Sys } from "../src/abi/syscalls.js";
import { syscallTable } from "../src/kernel/syscalls/dispatch.js";

const root = new URL("..", import.meta.url).pathname;
const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(dir, f));
const imports = (file: string): string[] =>
  [...readFileSync(join(root, file), "utf8").matchAll(/from "([^"]+)"/g)].map((m) => m[1]!);

describe("architecture", () => {
  it("every system call in the list has exactly one kernel handler, and no handler is unlisted", () => {
    const listed = Object.values(Sys).sort((a, b) => a - b);
    expect(Object.keys(syscallTable).map(Number).sort((a, b) => a - b)).toEqual(listed);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it("workers import only what the kernel shares with them (src/abi, and src/gnu for the scripts)", () => {
    for (const file of sources("workers")) {
      for (const spec of imports(file)) {
        if (!spec.startsWith(".")) continue;
        const target = relative(root, resolve(root, dirname(file), spec));
        expect(/^(workers|src\/abi|src\/gnu)\//.test(target), `${file} imports ${spec}`).toBe(true);
      }
    }
  });

  it("the shared ABI and GNU texts import nothing from the kernel or the workers", () => {
    for (const file of [...sources("src/abi"), ...sources("src/gnu")]) {
      for (const spec of imports(file)) expect(spec.startsWith("./") || !spec.startsWith("."), `${file} imports ${spec}`).toBe(true);
    }
  });
});
