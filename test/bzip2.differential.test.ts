import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, it } from "vitest";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin } from "./host-twin.js";
import { runStepCase, sampleText, type StepCase } from "./step-cases.js";

/**
 * The VM's bzip2 (guests/dist/bzip2.wasm, bzip2 1.0.8 with Debian's `--version` fix) against the host's
 * (Debian's 1.0.8): each case writes the same files at the same absolute path on both sides and runs its
 * command lines; stdout, stderr, exit status and the files afterwards (modes, sha256) must be identical. The
 * compressed bytes are compared too: bzip2's format has not changed since 1.0, and 1.0.8's encoder is
 * deterministic for a block size.
 */

const host = spawnSync("sh", ["-c", "bzip2 --version 2>&1 < /dev/null"], { encoding: "utf8" });
const hostVersion = host.status === 0 ? (/Version [\d.]+/.exec(host.stdout)?.[0] ?? "") : "";

const TEXT = sampleText(4000);
const SMALL = "hello, bzip2\n";

const CASES: Record<string, StepCase> = {
  "--version and -L print the licence and exit": { files: {}, steps: ["bzip2 --version < /dev/null; echo rc=$?", "bunzip2 -L < /dev/null | wc -c"] },
  "compress a file -k, test, decompress": {
    files: { "a.txt": TEXT },
    steps: ["bzip2 -k a.txt && ls", "bzip2 -t a.txt.bz2; echo t=$?", "rm a.txt && bunzip2 a.txt.bz2 && ls"],
  },
  "block sizes to stdout, byte-identical": { files: { "a.txt": TEXT }, steps: ["for l in 1 5 9 --fast --best; do bzip2 $l -c a.txt | sha256sum; done"] },
  "stdin to stdout, bzcat, -s": { files: { "a.txt": TEXT }, steps: ["bzip2 < a.txt | bzip2 -d | cmp - a.txt && echo same", "bzip2 -c a.txt | bzcat | wc -l", "bzip2 -c a.txt | bunzip2 -s | wc -c"] },
  "the output file exists: refused, then -f": {
    files: { "a.txt": SMALL, "a.txt.bz2": "old\n" },
    steps: ["bzip2 a.txt; echo rc=$?", "bzip2 -f a.txt; echo rc=$?", "bzcat a.txt.bz2"],
  },
  "-v reports the ratio; the mtime is kept": {
    files: { "a.txt": TEXT },
    steps: ["touch -d '2020-01-02 03:04:05' a.txt && bzip2 -v a.txt && stat -c %Y a.txt.bz2", "bunzip2 -vk a.txt.bz2; stat -c %Y a.txt"],
  },
  "not bzip2, truncated, a trailing garbage": {
    files: { "junk.bz2": "this is not bzip2\n", "a.txt": TEXT },
    steps: [
      "bzip2 -d junk.bz2; echo rc=$?",
      "bzip2 -t junk.bz2; echo rc=$?",
      "bzip2 -c a.txt | head -c 500 > cut.bz2; bzip2 -t cut.bz2; echo rc=$?",
      "bzip2 -dc cut.bz2 > /dev/null; echo rc=$?",
      "(bzip2 -c a.txt; echo tail) > extra.bz2; bzip2 -dc extra.bz2 | wc -c; echo rc=$?",
    ],
  },
  "a missing file, a directory, an unknown suffix": {
    files: { "d/x": "x\n", "plain.txt": SMALL },
    steps: ["bzip2 nosuch; echo rc=$?", "bzip2 d; echo rc=$?", "bzip2 -c plain.txt > p.bin; bunzip2 -k p.bin; echo rc=$?; ls", "bzip2 -q nosuch plain.txt; echo rc=$?; ls"],
  },
  "a bad flag": { files: {}, steps: ["bzip2 -Q < /dev/null; echo rc=$?", "bzip2 --bogus < /dev/null; echo rc=$?"] },
};

const names = Object.keys(CASES);
let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create({});
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

describe.skipIf(!hostVersion).concurrent(`bzip2 in the VM against the host's bzip2 ${hostVersion} (${names.length} cases)`, () => {
  it.each(names)("%s", async (name) => {
    await runStepCase(twin, name, CASES[name]!);
  }, CASE_DEADLINE_MS * 2);
});
