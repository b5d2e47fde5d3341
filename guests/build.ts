/**
 * Rebuilds the test guests (`pnpm build:guests`): guests/dist/probe.wasm from guests/probe, with Go for
 * wasip1 (GO=/path/to/go, default `go` on PATH or /usr/local/go/bin/go), stripped, and
 * guests/dist/manifest.json saying what it was built from. The .wasm is committed, so tests need only Node;
 * test/event-loop.test.ts checks that it matches the sources named in the manifest.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const here = new URL(".", import.meta.url).pathname;
const dist = join(here, "dist");
const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");
const go = process.env.GO ?? (existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go");
const env = { ...process.env, GOOS: "wasip1", GOARCH: "wasm", CGO_ENABLED: "0" };

export interface GuestManifest {
  go: string;
  guests: Record<string, { sources: Record<string, string>; sha256: string; bytes: number }>;
}

/** The files a guest is built from, relative to guests/, with their sha256. */
export function guestSources(name: string): Record<string, string> {
  const dir = join(here, name);
  const files = readdirSync(dir).filter((f) => f.endsWith(".go") || f === "go.mod" || f === "go.sum").sort();
  return Object.fromEntries(files.map((f) => [`${name}/${f}`, sha256(readFileSync(join(dir, f)))]));
}

function build(name: string): GuestManifest["guests"][string] {
  const out = join(dist, `${name}.wasm`);
  execFileSync(go, ["build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", out, "."], { cwd: join(here, name), env, stdio: "inherit" });
  const bytes = readFileSync(out);
  return { sources: guestSources(name), sha256: sha256(bytes), bytes: bytes.length };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  mkdirSync(dist, { recursive: true });
  const manifest: GuestManifest = {
    go: execFileSync(go, ["env", "GOVERSION"], { env, encoding: "utf8" }).trim(),
    guests: { probe: build("probe") },
  };
  writeFileSync(join(dist, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [name, g] of Object.entries(manifest.guests)) console.log(`guests/dist/${name}.wasm: ${g.bytes} bytes (${manifest.go})`);
}
