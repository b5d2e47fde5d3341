import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
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

  it("workers import only what the kernel shares with them (src/abi)", () => {
    for (const file of sources("workers")) {
      for (const spec of imports(file)) {
        if (!spec.startsWith(".")) continue;
        expect(spec.startsWith("./") || spec.startsWith("../src/abi/"), `${file} imports ${spec}`).toBe(true);
      }
    }
  });

  it("the shared ABI imports nothing from the kernel or the workers", () => {
    for (const file of sources("src/abi")) {
      for (const spec of imports(file)) expect(spec.startsWith("./") || !spec.startsWith("."), `${file} imports ${spec}`).toBe(true);
    }
  });
});
