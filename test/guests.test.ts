import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { guestFiles, guestSources, type GuestManifest } from "../guests/build.js";
import { COREUTILS_VARIANTS } from "../src/commands/registry.js";

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
