import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, it } from "vitest";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin } from "./host-twin.js";
import { runStepCase, sampleText, type StepCase } from "./step-cases.js";

/**
 * The VM's zstd (guests/dist/zstd.wasm, the Zstandard 1.5.4 CLI, single-threaded) against the host's: each
 * case writes the same files at the same absolute path on both sides and runs its command lines; stdout,
 * stderr, exit status and the files afterwards (modes, sha256) must be identical. The compressed bytes are
 * compared too: the same version and level give the same frames (for inputs below one multi-threaded job,
 * which these are); cases that depend on that are skipped for a host version other than 1.5.4. `--version`
 * names the word size, 32-bit in the VM (wasm32): that word is removed on both sides, and so is the list of
 * suffixes zstd knows, which names .gz, .xz and .lz4 only where zstd was linked with zlib, liblzma and liblz4.
 */

const host = spawnSync("zstd", ["--version"], { encoding: "utf8" });
const hostVersion = host.status === 0 ? (/v\d+\.\d+\.\d+/.exec(host.stdout)?.[0] ?? "") : "";
const sameVersion = hostVersion === "v1.5.4";

const TEXT = sampleText(4000);
const SMALL = "hello, zstd\n";

const CASES: Record<string, StepCase & { sameVersion?: boolean }> = {
  "--version": { files: {}, steps: ["zstd --version | sed 's/ ([0-9]*-bit)//'", "zstd -V | sed 's/ ([0-9]*-bit)//'"], sameVersion: true },
  "compress a file -k, list, test, decompress": {
    files: { "a.txt": TEXT },
    steps: ["zstd -k a.txt", "zstd -l a.txt.zst", "zstd -t a.txt.zst; echo t=$?", "rm a.txt && unzstd a.txt.zst && ls"],
    sameVersion: true,
  },
  "levels to stdout, byte-identical": {
    files: { "a.txt": TEXT },
    steps: ["for l in -1 -3 -9 -19 --fast=3 --no-check; do zstd $l -c a.txt | sha256sum; done"],
    sameVersion: true,
  },
  "stdin to stdout, zstdcat, -d -c": {
    files: { "a.txt": TEXT },
    steps: ["zstd < a.txt | zstd -d | cmp - a.txt && echo same", "cat a.txt | zstd -c | zstdcat | wc -l", "zstd -c a.txt > s.zst; zstd -dc s.zst | wc -c"],
  },
  "the output file exists: refused, then -f": {
    files: { "a.txt": SMALL, "a.txt.zst": "old\n" },
    steps: ["zstd -q a.txt < /dev/null; echo rc=$?", "zstd a.txt < /dev/null; echo rc=$?", "zstd -f -q a.txt; echo rc=$?", "zstdcat a.txt.zst"],
  },
  "--rm, -o, -q, the mtime kept": {
    files: { "a.txt": SMALL, "b.txt": TEXT },
    steps: ["touch -d '2020-01-02 03:04:05' a.txt && zstd -q --rm a.txt && ls && stat -c %Y a.txt.zst", "zstd -q b.txt -o out.zst && zstd -dq out.zst -o back.txt && cmp b.txt back.txt && ls"],
  },
  "corrupt and truncated input": {
    files: { "junk.zst": "this is not zstd\n", "a.txt": TEXT },
    steps: ["zstd -d junk.zst; echo rc=$?", "zstd -t junk.zst; echo rc=$?", "zstd -c a.txt | head -c 300 > cut.zst; zstd -t cut.zst; echo rc=$?", "zstd -dc cut.zst > /dev/null; echo rc=$?"],
  },
  "a missing file, a directory, -r": {
    files: { "d/x.txt": TEXT, "d/e/y.txt": SMALL, "plain.txt": SMALL },
    steps: ["zstd nosuch; echo rc=$?", "zstd d; echo rc=$?", "zstd -q -r d && find d -name '*.zst' | sort", "unzstd -q plain.txt 2> err; echo rc=$?; sed 's/ ([.a-z0-9/]* expected)//' err; rm err"],
  },
  "bad options": { files: {}, steps: ["zstd --bogus; echo rc=$?", "zstd -25 < /dev/null > /dev/null; echo rc=$?"] },
};

const names = Object.keys(CASES);
let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create({});
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

describe.skipIf(!hostVersion).concurrent(`zstd in the VM against the host's zstd ${hostVersion} (${names.length} cases)`, () => {
  it.each(names)("%s", async (name) => {
    const c = CASES[name]!;
    if (c.sameVersion && !sameVersion) return;
    await runStepCase(twin, name, c);
  }, CASE_DEADLINE_MS * 2);
});
