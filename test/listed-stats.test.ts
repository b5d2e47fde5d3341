import { describe, expect, it } from "vitest";
import { createVm, result } from "./helpers.js";

// A directory listing brings its entries' stats to the process host (workers/listed-stats.ts); they may
// answer the process's stats only until its next system call.
describe("stats that come with a directory listing", () => {
  it("answer what stat says, for files, directories and links, followed or not", async () => {
    const vm = await createVm();
    await vm.exec("mkdir -p /tmp/l/sub && printf 12345 > /tmp/l/f && ln -s f /tmp/l/link && ln -s nowhere /tmp/l/dangling");
    // ls -l stats each entry it lists, from the listing's stats; stat(1) asks the kernel for each file (ls
    // shows every directory with one link, as before listings brought stats).
    const listed = (flags: string) => `ls ${flags} --time-style=+%s /tmp/l | awk 'NR > 1 && !/[?]/ { print $1, $5, $6, $7 }'`;
    const stat = (flags: string) => `cd /tmp/l && stat ${flags} -c '%A %s %Y %n' * 2>/dev/null`;
    for (const [ls, st] of [
      ["-l", ""],
      ["-lL", "-L"],
    ]) {
      const expected = await vm.exec(stat(st!));
      expect(expected.stdout.split("\n").length, st).toBeGreaterThan(3);
      expect((await vm.exec(listed(ls!))).stdout, ls).toBe(expected.stdout);
    }
  });

  it("are not used after the process's next system call", async () => {
    const vm = await createVm();
    await vm.exec("mkdir /tmp/s && touch /tmp/s/mine /tmp/s/other");
    // The directory stays open: the first stat is answered from the listing, the one after the write may not be.
    const script = [
      "import os",
      "it = os.scandir('/tmp/s')",
      "next(it)",
      "before = os.stat('/tmp/s/mine').st_size",
      "with open('/tmp/s/mine', 'a') as f: f.write('x')",
      "print(before, os.stat('/tmp/s/mine').st_size, os.lstat('/tmp/s/other').st_size)",
    ].join("\n");
    await vm.writeFile("/tmp/t.py", script);
    expect(await vm.exec("python3 /tmp/t.py")).toEqual(result("0 1 0\n"));
  });
});
