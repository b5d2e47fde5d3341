import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { guestFiles, guestSources, type GuestManifest } from "../guests/build.js";
import { COREUTILS_VARIANTS, needsLocaleData } from "../src/commands/registry.js";
import { createVm } from "./helpers.js";

// The committed guests/dist/*.wasm are the builds of the sources in guests/ (`pnpm build:guests`).
const dist = new URL("../guests/dist/", import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(`${dist}manifest.json`, "utf8")) as GuestManifest;

describe("built guests", () => {
  it.each(Object.entries(guestFiles()))("%s: the committed file is the build of the current sources", (name, file) => {
    const built = manifest.guests[name];
    expect(built, `${name} was never built: run pnpm build:guests ${name}`).toBeDefined();
    expect(built!.file).toBe(file);
    expect(built!.sources, `guests/${name} changed: run pnpm build:guests ${name}`).toEqual(guestSources(name));
    expect(createHash("sha256").update(readFileSync(`${dist}${file}`)).digest("hex")).toBe(built!.sha256);
  });

  it.each(Object.entries(COREUTILS_VARIANTS))("the registry runs from %s the utilities its feature builds", (file, names) => {
    const toml = readFileSync(new URL("../guests/coreutils/Cargo.toml", import.meta.url), "utf8");
    const start = toml.indexOf(`\n${/^coreutils-(\w+)\.wasm$/.exec(file)![1]} = [`);
    expect(start).toBeGreaterThan(0);
    const built = [...toml.slice(start, toml.indexOf("]", start)).matchAll(/"coreutils\/(\w+)"/g)].map((m) => m[1]);
    expect(names.split(" ").sort()).toEqual(built.sort());
  });
});

describe("ls without the collation data and the time zone database (coreutils-ls.wasm)", () => {
  it.each([
    [{}, false],
    [{ LANG: "C.UTF-8" }, false],
    [{ LANG: "C" }, false],
    [{ LC_ALL: "", LANG: "en_US.UTF-8" }, false],
    [{ LANG: "en_US.UTF-8" }, true],
    [{ LANG: "C.UTF-8", LC_COLLATE: "fr_FR.UTF-8" }, true],
    [{ LC_ALL: "POSIX" }, true],
    [{ LANG: "C.UTF-8", TZ: "UTC" }, true],
    [{ TZ: "" }, true],
  ])("the full binary runs it for %j: %s", (env, full) => {
    expect(needsLocaleData(env)).toBe(full);
  });

  it("sorts and shows times as the full binary does, in the C locale and outside it", async () => {
    const vm = await createVm();
    await vm.mkdir("/tmp/l", { recursive: true });
    for (const name of ["B", "a", "_c", "Z"]) await vm.writeFile(`/tmp/l/${name}`, "");
    await vm.exec("touch -d '2024-03-01 12:00:00' /tmp/l/a");
    expect((await vm.exec("ls /tmp/l")).stdout).toBe("B\nZ\n_c\na\n");
    expect((await vm.exec("LANG=en_US.UTF-8 ls /tmp/l")).stdout).toBe("a\nB\n_c\nZ\n");
    const time = "ls -l --time-style=+%H:%M /tmp/l/a";
    expect((await vm.exec(time)).stdout).toBe("-rw-r--r-- 1 user user 0 12:00 /tmp/l/a\n");
    expect((await vm.exec(`TZ=America/New_York ${time}`)).stdout).toBe("-rw-r--r-- 1 user user 0 07:00 /tmp/l/a\n");
  });
});
