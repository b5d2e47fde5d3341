import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, it } from "vitest";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin } from "./host-twin.js";
import { runStepCase, sampleText, type StepCase } from "./step-cases.js";

/**
 * The VM's xz (guests/dist/xz.wasm, XZ Utils 5.4.1) against the host's: each case writes the same files at the
 * same absolute path on both sides and runs its command lines; stdout, stderr, exit status and the files
 * afterwards (modes, sha256) must be identical. The compressed bytes are compared too: XZ Utils' encoder
 * output is the same for the same version, preset and filters (single-threaded), which the host's xz 5.4.1
 * (Debian 12) is; cases that depend on that are skipped for another host version.
 */

const host = spawnSync("xz", ["--version"], { encoding: "utf8" });
const hostVersion = host.status === 0 ? host.stdout.split("\n")[0]! : "";
const sameVersion = hostVersion === "xz (XZ Utils) 5.4.1";

const TEXT = sampleText(3000);
const SMALL = "hello, xz\n";

const CASES: Record<string, StepCase & { sameVersion?: boolean }> = {
  "--version": { files: {}, steps: ["xz --version", "unxz -V"], sameVersion: true },
  "compress a file -k, list, test, decompress": {
    files: { "a.txt": TEXT },
    steps: ["xz -k a.txt", "xz -l a.txt.xz", "xz -t a.txt.xz; echo t=$?", "rm a.txt && unxz a.txt.xz && ls"],
    sameVersion: true,
  },
  "levels and -e to stdout, byte-identical": {
    files: { "a.txt": TEXT },
    steps: ["for l in 0 1 3 6 -e; do xz -$l -c a.txt | sha256sum; done", "xz -T1 --check=sha256 -c a.txt | xz -l -v -"],
    sameVersion: true,
  },
  "stdin to stdout and back": { files: { "a.txt": TEXT }, steps: ["xz < a.txt | xz -d | cmp - a.txt && echo same", "cat a.txt | xz -c | xzcat | wc -l", "xz -dc < /dev/null; echo rc=$?"] },
  "the output file exists: refused, then -f": {
    files: { "a.txt": SMALL, "a.txt.xz": "old\n" },
    steps: ["xz a.txt; echo rc=$?", "xz -f a.txt; echo rc=$?", "xzcat a.txt.xz"],
  },
  "-d removes the .xz, keeps it with -k; the mtime is kept": {
    files: { "a.txt": SMALL },
    steps: ["touch -d '2020-01-02 03:04:05' a.txt && xz a.txt && stat -c %Y a.txt.xz", "xz -dk a.txt.xz && stat -c %Y a.txt && ls"],
  },
  "corrupt and truncated input": {
    files: { "junk.xz": "this is not xz\n", "a.txt": TEXT },
    steps: ["xz -d junk.xz; echo rc=$?", "xz -t junk.xz; echo rc=$?", "xz -c a.txt | head -c 300 > cut.xz; xz -t cut.xz; echo rc=$?", "xz -dc cut.xz > /dev/null; echo rc=$?"],
  },
  "a missing file, a directory, a wrong suffix": {
    files: { "d/x": "x\n", "plain.txt": SMALL },
    steps: ["xz nosuch; echo rc=$?", "xz d; echo rc=$?", "unxz plain.txt; echo rc=$?", "xz -q nosuch plain.txt; echo rc=$?; ls"],
  },
  "lzma format: lzma, unlzma, lzcat and --format": {
    files: { "a.txt": TEXT },
    steps: ["lzma -k a.txt && sha256sum a.txt.lzma", "unlzma -c a.txt.lzma | cmp - a.txt && echo same", "xz --format=lzma -c a.txt | lzcat | wc -c", "xz --format=raw -c a.txt > a.raw; xz --format=raw -dc a.raw | wc -c"],
    sameVersion: true,
  },
  "two files and -v": { files: { "a.txt": TEXT, "b.txt": SMALL }, steps: ["xz -k a.txt b.txt && ls", "xz -lv a.txt.xz b.txt.xz | grep -v '^ *Streams\\|Blocks'"], sameVersion: true },
  "bad options: exit 1 with a usage hint": { files: {}, steps: ["xz --bogus; echo rc=$?", "xz -Z; echo rc=$?", "xz --memlimit; echo rc=$?", "xz --keep=1 < /dev/null; echo rc=$?"] },
};

const names = Object.keys(CASES);
let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create({});
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

describe.skipIf(!hostVersion).concurrent(`xz in the VM against the host's ${hostVersion} (${names.length} cases)`, () => {
  it.each(names)("%s", async (name) => {
    const c = CASES[name]!;
    if (c.sameVersion && !sameVersion) return;
    await runStepCase(twin, name, c);
  }, CASE_DEADLINE_MS * 2);
});
