/**
 * Writes THIRD_PARTY_NOTICES (`pnpm notices`): for every guest in guests/dist/manifest.json, the program it is
 * built from and every crate or Go module compiled into it, each with its version, upstream, licence
 * identifier and the licence files of its published source; then the npm packages the guest Node runtime
 * loads as polyfills (workers/node-host/runtime.ts), from node_modules. The licence texts are read from the
 * sources the build uses: cargo's registry (`cargo fetch --locked` in each Rust guest's directory, after
 * guests/build.ts's patched crates are unpacked into its target/), Go's module cache (`go mod download`), the Go
 * toolchain's GOROOT and the Rust toolchain's share/doc/rust/licenses. Identical texts are printed once.
 * C guests' tarballs are unpacked into guests/<guest>/target/notices for their licence files.
 * test/notices.test.ts checks that every guest of guests/dist and every crate of the manifest has its entry.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { GUESTS, type GuestManifest, patchCrate } from "./build.js";
import { type CGuest, CURL_TARBALL, OPENSSL, unpack } from "./c.js";

const here = new URL(".", import.meta.url).pathname;
const root = join(here, "..");
const go = process.env.GO ?? (existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go");
const goEnv = { ...process.env, GOOS: "wasip1", GOARCH: "wasm", CGO_ENABLED: "0" };
const cargo = process.env.CARGO ?? "cargo";
const rustc = process.env.RUSTC ?? "rustc";

/** The npm packages the guest Node runtime loads (workers/node-host/runtime.ts's polyfills). */
export const RUNTIME_NPM = ["buffer", "events", "readable-stream", "string_decoder", "path-browserify", "cjs-module-lexer", "node-inspect-extracted", "web-streams-polyfill"];

const LICENCE_FILE = /^(licen[cs]e|copying|unlicense|notice|copyright|authors|patents)([-._].*)?$/i;

interface Component {
  name: string;
  version: string;
  upstream: string;
  licence: string;
  /** Indexes into the texts table. */
  texts: number[];
  note?: string;
}

const texts: string[] = [];
const textIndex = new Map<string, number>();
/** Adds a licence text (its file name as a heading) once; returns its index. */
function addText(title: string, body: string): number {
  const normal = body.replace(/\r\n?/g, "\n").replace(/[ \t]+$/gm, "").trim();
  const key = createHash("sha256").update(normal).digest("hex");
  let i = textIndex.get(key);
  if (i === undefined) {
    i = texts.length;
    texts.push(`${title}\n\n${normal}`);
    textIndex.set(key, i);
  }
  return i;
}

/** The licence files at the top of a source directory, as text indexes. */
function licenceTexts(dir: string, what: string): number[] {
  const files = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && LICENCE_FILE.test(e.name) && !/\.(rs|go|js|ts|json|toml)$/.test(e.name))
    .map((e) => e.name)
    .sort();
  return files.map((f) => addText(`${what}: ${f}`, readFileSync(join(dir, f), "utf8")));
}

/** An SPDX identifier for a Go module's licence file (Go modules do not declare one). */
function goLicence(text: string): string {
  if (/Permission is hereby granted, free of charge/.test(text)) return "MIT";
  if (/Redistribution and use in source and binary forms/.test(text)) return /Neither the name/.test(text) ? "BSD-3-Clause" : "BSD-2-Clause";
  if (/Apache License\s+Version 2\.0/.test(text)) return "Apache-2.0";
  if (/Mozilla Public License,? [Vv]ersion 2\.0/.test(text)) return "MPL-2.0";
  throw new Error(`unrecognised Go licence: ${text.slice(0, 200)}`);
}

interface CargoPackage {
  name: string;
  version: string;
  license: string | null;
  license_file: string | null;
  repository: string | null;
  manifest_path: string;
}

/**
 * The published source of a crate of a Rust guest's lock: guests/<guest>/target/<name> when we patch it, else
 * cargo's registry (fetched by `cargo fetch --locked` once per guest directory; `cargo metadata` cannot
 * list them: the guests depend on binary-only packages).
 */
const fetched = new Set<string>();
async function crateSource(dir: string, name: string, version: string, patched: boolean): Promise<CargoPackage> {
  if (!fetched.has(dir)) {
    const guest = GUESTS[basename(dir)];
    if (guest?.kind === "rust") for (const c of guest.patches) await patchCrate(dir, c);
    execFileSync(cargo, ["fetch", "--locked", "--target", "wasm32-wasip1"], { cwd: dir, stdio: "inherit" });
    fetched.add(dir);
  }
  const registry = join(process.env.CARGO_HOME ?? join(homedir(), ".cargo"), "registry/src");
  const candidates = patched
    ? [join(dir, "target", name)]
    : readdirSync(registry).map((index) => join(registry, index, `${name}-${version}`));
  const src = candidates.find((c) => existsSync(join(c, "Cargo.toml")));
  if (!src) throw new Error(`crate ${name} ${version}: no source in ${candidates.join(", ")}`);
  const toml = readFileSync(join(src, "Cargo.toml"), "utf8");
  const pkg = /^\[package\]\n([\s\S]*?)(?=^\[)/m.exec(`${toml}\n[`)?.[1] ?? "";
  const field = (key: string): string | null => new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, "m").exec(pkg)?.[1] ?? null;
  const v = field("version");
  if (v !== version) throw new Error(`crate ${name}: ${src} is version ${v}, not ${version}`);
  return { name, version, license: field("license"), license_file: field("license-file"), repository: field("repository"), manifest_path: join(src, "Cargo.toml") };
}

function rustComponent(p: CargoPackage, patched: boolean, toolchainLicences: string): Component {
  const dir = join(p.manifest_path, "..");
  const t = licenceTexts(dir, `${p.name} ${p.version}`);
  if (p.license_file) t.push(addText(`${p.name} ${p.version}: ${p.license_file}`, readFileSync(join(dir, p.license_file), "utf8")));
  const licence = p.license ?? `see ${p.license_file}`;
  let note: string | undefined;
  if (t.length === 0) {
    // The published crate carries no licence file: the standard text of each licence it declares.
    for (const id of licence.split(/\s+(?:OR|AND|WITH)\s+|[()/]/).map((s) => s.trim()).filter(Boolean)) {
      const file = join(toolchainLicences, `${id}.txt`);
      if (!existsSync(file)) throw new Error(`${p.name} ${p.version}: no licence file and no standard text for ${id}`);
      t.push(addText(`${id} (standard text; the published crate has no licence file)`, readFileSync(file, "utf8")));
    }
    note = "the published crate has no licence file; the standard text of its licence follows";
  }
  return {
    name: p.name,
    version: p.version + (patched ? " (with changes of ours)" : ""),
    upstream: p.repository ?? `https://crates.io/crates/${p.name}`,
    licence,
    texts: [...new Set(t)],
    note,
  };
}

interface GoModule {
  Path: string;
  Version: string;
  Dir: string;
}

function goComponents(name: string, pkg: string, patched?: string): Component[] {
  const cwd = join(here, name);
  const listed = execFileSync(go, ["list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}}@{{.Version}}{{end}}{{end}}", pkg], { cwd, env: goEnv, encoding: "utf8" });
  const modules = [...new Set(listed.split("\n").filter(Boolean))].sort();
  return modules.map((m) => {
    const info = JSON.parse(execFileSync(go, ["mod", "download", "-json", m], { cwd, env: goEnv, encoding: "utf8" })) as GoModule;
    const t = licenceTexts(info.Dir, `${info.Path} ${info.Version}`);
    if (t.length === 0) throw new Error(`${m}: no licence file`);
    return {
      name: info.Path,
      version: info.Version + (info.Path === patched ? " (with changes of ours)" : ""),
      upstream: `https://${info.Path.replace(/\/v\d+$/, "")}`,
      licence: goLicence(texts[t[0]!]!),
      texts: t,
    };
  });
}

/**
 * A C guest: the tarballs compiled into it (their licence files, from the build's sources), wasi-libc and the
 * compiler's builtins (Debian's copyright files of the packages that built it), and guests/libposix (ours).
 */
async function cComponents(name: string, g: CGuest): Promise<Component[]> {
  const target = join(here, name, "target");
  const work = join(target, "notices");
  const parts: Component[] = [];
  const patched = (dir: string): boolean => readdirSync(join(here, dir)).some((f) => f.endsWith(".patch"));
  const changed = patched(name);
  for (const t of g.tarballs) {
    const dir = await unpack(target, work, t);
    // OpenSSL is built with guests/openssl's patches in every guest that links it (opensslLibrary), libcurl with
    // guests/curl's (curlLibrary).
    const ours = (t === g.tarballs[0] && changed) || (t === OPENSSL && patched("openssl")) || (t === CURL_TARBALL && patched("curl"));
    parts.push({
      name: t.name,
      version: t.version + (ours ? " (with changes of ours)" : ""),
      upstream: t.upstream,
      licence: t.licence,
      texts: t.licenceFiles.map((f) => addText(`${t.name} ${t.version}: ${f}`, readFileSync(join(dir, f), "utf8"))),
    });
  }
  const debian = (pkg: string): number[] => [addText(`${pkg} (Debian's /usr/share/doc/${pkg}/copyright)`, readFileSync(`/usr/share/doc/${pkg}/copyright`, "utf8"))];
  parts.push({
    name: "wasi-libc",
    version: "0.0~git20220510 (Debian 12)",
    upstream: "https://github.com/WebAssembly/wasi-libc",
    licence: "CC0-1.0 AND MIT AND BSD-2-Clause AND Apache-2.0 WITH LLVM-exception (musl's MIT for its top half; see the text)",
    texts: debian("wasi-libc"),
  });
  parts.push({
    name: "compiler-rt builtins (libclang_rt.builtins-wasm32)",
    version: "19 (Debian 12)",
    upstream: "https://github.com/llvm/llvm-project",
    licence: "Apache-2.0 WITH LLVM-exception",
    texts: debian("libclang-rt-19-dev-wasm32"),
  });
  parts.push({ name: "libagentos_posix (guests/libposix)", version: "this project's", upstream: "agentos-vm", licence: "MIT", texts: [addText("agentos-vm: LICENSE", readFileSync(join(root, "LICENSE"), "utf8"))] });
  return parts;
}

function line(c: Component): string {
  const refs = c.texts.map((i) => `[T${i + 1}]`).join(" ");
  return `  ${c.name} ${c.version}\n    upstream: ${c.upstream}\n    licence: ${c.licence}  text: ${refs}${c.note ? `\n    note: ${c.note}` : ""}`;
}

export async function notices(): Promise<string> {
  const manifest = JSON.parse(readFileSync(join(here, "dist/manifest.json"), "utf8")) as GuestManifest;
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string; version: string };
  const sysroot = execFileSync(rustc, ["--print", "sysroot"], { encoding: "utf8" }).trim();
  const toolchainLicences = join(sysroot, "share/doc/rust/licenses");
  const goRoot = execFileSync(go, ["env", "GOROOT"], { encoding: "utf8" }).trim();
  const goStd: Component = {
    name: "Go runtime and standard library",
    version: manifest.go,
    upstream: "https://go.dev",
    licence: "BSD-3-Clause",
    texts: licenceTexts(goRoot, `Go ${manifest.go}`),
  };
  const rustStd: Component = {
    name: "Rust standard library",
    version: manifest.rust ?? "",
    upstream: "https://github.com/rust-lang/rust (Copyright (c) The Rust Project Contributors)",
    licence: "MIT OR Apache-2.0",
    texts: ["MIT", "Apache-2.0"].map((id) => addText(`Rust standard library: ${id} (the toolchain's share/doc/rust/licenses/${id}.txt)`, readFileSync(join(toolchainLicences, `${id}.txt`), "utf8"))),
  };

  const sections: string[] = [];
  const summary: string[] = [];
  for (const [name, entry] of Object.entries(manifest.guests)) {
    const g = GUESTS[name];
    if (!g) throw new Error(`manifest guest ${name} is not in guests/build.ts`);
    let program: Component | undefined;
    let parts: Component[];
    if (g.kind === "rust") {
      const dir = join(here, g.variant?.of ?? name);
      parts = [];
      for (const [crate, v] of Object.entries(entry.crates ?? {})) {
        const [version, patched] = v.split(" ") as [string, string?];
        parts.push(rustComponent(await crateSource(dir, crate, version, patched === "patched"), patched === "patched", toolchainLicences));
      }
      program = parts.find((c) => c.name === g.package);
      parts.push(rustStd);
    } else if (g.kind === "c") {
      parts = await cComponents(name, g);
      program = parts[0];
    } else {
      parts = [...goComponents(name, g.pkg ?? ".", g.patch?.module), goStd];
      // The program is the module patched, or the tool package's module (its path, for yq).
      program = parts.find((c) => c.name === (g.patch?.module ?? g.pkg));
    }
    const what = program ? `${program.name} ${program.version}, ${program.upstream}, ${program.licence}` : "the project's own test program (not in the npm package)";
    summary.push(`  guests/dist/${entry.file}: ${what}`);
    sections.push(
      [
        `== guests/dist/${entry.file} ==`,
        `Guest: ${name} (guests/${g.kind === "rust" ? (g.variant?.of ?? name) : name}/, guests/build.ts; sha256 ${entry.sha256})`,
        program ? `Program: ${program.name} ${program.version}\nUpstream: ${program.upstream}\nLicence: ${program.licence}` : "Program: the project's own (guests/probe/), MIT",
        "Compiled into it:",
        ...parts.map(line),
      ].join("\n"),
    );
  }

  const npm: Component[] = RUNTIME_NPM.map((n) => {
    const dir = join(root, "node_modules", n);
    const p = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string; license: string; repository?: string | { url: string }; homepage?: string };
    const repo = typeof p.repository === "string" ? p.repository : p.repository?.url;
    const t = licenceTexts(dir, `${n} ${p.version}`);
    if (t.length === 0) throw new Error(`npm ${n}: no licence file`);
    return { name: n, version: p.version, upstream: repo ?? p.homepage ?? `https://www.npmjs.com/package/${n}`, licence: p.license, texts: t };
  });
  summary.push(`  npm packages loaded by the guest Node runtime: ${RUNTIME_NPM.join(", ")}`);

  return [
    `THIRD-PARTY SOFTWARE NOTICES AND LICENCES for ${pkg.name} ${pkg.version}`,
    "",
    "Generated by guests/notices.ts (`pnpm notices`) from guests/dist/manifest.json and the sources the",
    "guests are built from; do not edit by hand. agentos-vm itself is MIT-licensed (LICENSE). Its WebAssembly",
    "guests (guests/dist/*.wasm) are builds of the third-party programs below, each with the crates or Go",
    "modules compiled into it; the guest Node runtime also loads the npm packages listed at the end. Other",
    "npm dependencies (package.json) are installed by npm as packages of their own, with their own licences.",
    "",
    "Summary:",
    ...summary,
    "",
    ...sections.flatMap((s) => [s, ""]),
    "== npm packages loaded by the guest Node runtime (workers/node-host/runtime.ts) ==",
    ...npm.map(line),
    "",
    "== Licence texts ==",
    "",
    ...texts.flatMap((t, i) => [`---- [T${i + 1}] ${t}`, ""]),
  ].join("\n");
}

/** Writes THIRD_PARTY_NOTICES at the package's root; returns what it did. */
export async function writeNotices(): Promise<string> {
  const out = join(root, "THIRD_PARTY_NOTICES");
  writeFileSync(out, await notices());
  return `${out}: ${readFileSync(out).length} bytes`;
}

if (process.argv[1] === new URL(import.meta.url).pathname) console.log(await writeNotices());
