/**
 * Rebuilds the guests (`pnpm build:guests`) into guests/dist/, with guests/dist/manifest.json saying what
 * each was built from. The .wasm files are committed, so users and tests need only Node.
 * - probe.wasm from guests/probe, with Go for wasip1 (GO=/path/to/go, default `go` on PATH or
 *   /usr/local/go/bin/go), stripped; test/event-loop.test.ts checks it matches its sources.
 * - rg.wasm: ripgrep from crates.io for wasm32-wasip1 (CARGO=/path/to/cargo, default `cargo`; needs the
 *   rustup target wasm32-wasip1), `--locked` by guests/ripgrep/Cargo.lock, with grep-cli from crates.io
 *   patched by guests/ripgrep/grep-cli.patch (README.md there); test/service/search.test.ts checks it matches its sources. The command
 *   registry runs it as `rg`.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const here = new URL(".", import.meta.url).pathname;
const dist = join(here, "dist");
const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");
const go = process.env.GO ?? (existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go");
const env = { ...process.env, GOOS: "wasip1", GOARCH: "wasm", CGO_ENABLED: "0" };
const cargo = process.env.CARGO ?? "cargo";

export interface GuestManifest {
  go: string;
  /** `rustc -V` of the toolchain that built the Rust guests. */
  rust?: string;
  guests: Record<
    string,
    {
      sources: Record<string, string>;
      /** Rust guests: every crate compiled into the binary, name → version (" patched" when from guests/). */
      crates?: Record<string, string>;
      sha256: string;
      bytes: number;
    }
  >;
}

const SOURCE = /\.(go|rs|toml|patch)$|^(go\.mod|go\.sum|Cargo\.lock)$/;

/** The files a guest is built from (its directory, without cargo's target/), relative to guests/, with their sha256. */
export function guestSources(name: string): Record<string, string> {
  const files: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(here, rel), { withFileTypes: true })) {
      if (e.isDirectory() && e.name !== "target") walk(`${rel}/${e.name}`);
      else if (e.isFile() && SOURCE.test(e.name)) files.push(`${rel}/${e.name}`);
    }
  };
  walk(name);
  return Object.fromEntries(files.sort().map((f) => [f, sha256(readFileSync(join(here, f)))]));
}

function buildGo(name: string): GuestManifest["guests"][string] {
  const out = join(dist, `${name}.wasm`);
  execFileSync(go, ["build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", out, "."], { cwd: join(here, name), env, stdio: "inherit" });
  const bytes = readFileSync(out);
  return { sources: guestSources(name), sha256: sha256(bytes), bytes: bytes.length };
}

/** The one crate built with a change of ours: from crates.io, checked, then guests/ripgrep/grep-cli.patch applied. */
const GREP_CLI = { version: "0.1.12", sha256: "cf32d263c5d5cc2a23ce587097f5ddafdb188492ba2e6fb638eaccdc22453631" };

/** Unpacks grep-cli into guests/ripgrep/target/grep-cli (where Cargo.toml's [patch.crates-io] points) and patches it. */
async function patchedGrepCli(dir: string): Promise<void> {
  const target = join(dir, "target");
  const crate = join(target, `grep-cli-${GREP_CLI.version}.crate`);
  mkdirSync(target, { recursive: true });
  if (!existsSync(crate) || sha256(readFileSync(crate)) !== GREP_CLI.sha256) {
    const res = await fetch(`https://static.crates.io/crates/grep-cli/grep-cli-${GREP_CLI.version}.crate`);
    if (!res.ok) throw new Error(`grep-cli ${GREP_CLI.version}: HTTP ${res.status}`);
    writeFileSync(crate, new Uint8Array(await res.arrayBuffer()));
  }
  if (sha256(readFileSync(crate)) !== GREP_CLI.sha256) throw new Error(`grep-cli ${GREP_CLI.version}: checksum mismatch`);
  rmSync(join(target, "grep-cli"), { recursive: true, force: true });
  execFileSync("tar", ["xzf", crate, "-C", target]);
  renameSync(join(target, `grep-cli-${GREP_CLI.version}`), join(target, "grep-cli"));
  execFileSync("patch", ["-p1", "-d", join(target, "grep-cli"), "-i", join(dir, "grep-cli.patch")], { stdio: "inherit" });
}

/** ripgrep's `rg`, release profile of guests/ripgrep/Cargo.toml; paths in panic messages are made machine-independent. */
async function buildRipgrep(): Promise<GuestManifest["guests"][string]> {
  const dir = join(here, "ripgrep");
  await patchedGrepCli(dir);
  const cargoHome = process.env.CARGO_HOME ?? join(homedir(), ".cargo");
  const rustflags = [`--remap-path-prefix=${cargoHome}=/cargo`, `--remap-path-prefix=${dir}=/agentos/guests/ripgrep`];
  const target = ["--locked", "--target", "wasm32-wasip1", "-p", "ripgrep"];
  execFileSync(cargo, ["build", "--release", ...target, "--bin", "rg"], {
    cwd: dir,
    env: { ...process.env, CARGO_ENCODED_RUSTFLAGS: rustflags.join("\x1f") },
    stdio: "inherit",
  });
  const out = join(dist, "rg.wasm");
  copyFileSync(join(dir, "target/wasm32-wasip1/release/rg.wasm"), out);
  const tree = execFileSync(cargo, ["tree", ...target, "-e", "normal", "--prefix", "none", "--format", "{p}"], { cwd: dir, encoding: "utf8" });
  const crates: Record<string, string> = {};
  for (const line of tree.split("\n")) {
    const m = /^(\S+) v(\S+)( \(\/)?/.exec(line);
    if (m) crates[m[1]!] = m[2]! + (m[3] ? " patched" : "");
  }
  const bytes = readFileSync(out);
  const sorted = Object.fromEntries(Object.entries(crates).sort(([a], [b]) => a.localeCompare(b)));
  return { sources: guestSources("ripgrep"), crates: sorted, sha256: sha256(bytes), bytes: bytes.length };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  mkdirSync(dist, { recursive: true });
  const manifest: GuestManifest = {
    go: execFileSync(go, ["env", "GOVERSION"], { env, encoding: "utf8" }).trim(),
    rust: execFileSync(process.env.RUSTC ?? "rustc", ["-V"], { cwd: join(here, "ripgrep"), encoding: "utf8" }).trim(),
    guests: { probe: buildGo("probe"), rg: await buildRipgrep() },
  };
  writeFileSync(join(dist, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [name, g] of Object.entries(manifest.guests)) console.log(`guests/dist/${name}.wasm: ${g.bytes} bytes (${g.crates ? manifest.rust : manifest.go})`);
}
