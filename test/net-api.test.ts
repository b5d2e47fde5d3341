// The VM's loopback network through the public API (no guest networking yet: the empty cases).
import { describe, expect, it } from "vitest";
import { createVm } from "./helpers.js";

describe("vm.listeners / vm.connect", () => {
  it("a fresh VM lists no listeners, and connecting is refused without touching the host", async () => {
    const vm = await createVm();
    expect(vm.listeners()).toEqual([]);
    await expect(vm.connect(3000)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    await expect(vm.connect("/tmp/none.sock")).rejects.toMatchObject({ code: "ENOENT" });
    await expect(vm.connect(0)).rejects.toThrow(TypeError);
  });
});
