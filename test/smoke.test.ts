import { describe, expect, it } from "vitest";
import { createVm, result } from "./helpers.js";

describe("exec", () => {
  it("runs a command and a pipeline", async () => {
    const vm = await createVm();
    expect(await vm.exec("echo hello")).toEqual(result("hello\n"));
    expect(await vm.exec("printf 'b\\na\\n' | sort")).toEqual(result("a\nb\n"));
  });
});
