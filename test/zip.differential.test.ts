import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, it } from "vitest";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin } from "./host-twin.js";
import { runStepCase, sampleText, type StepCase } from "./step-cases.js";

/**
 * The VM's zip and unzip (guests/dist/zip.wasm and unzip.wasm: Info-ZIP zip 3.0, and unzip 6.0 with Debian's
 * patches) against the host's (Debian's zip 3.0 and unzip 6.0): each case writes the same files at the same
 * absolute path on both sides, gives every file and directory the same mtime, and runs its command lines; stdout,
 * stderr, exit status and the files afterwards (modes, sha256) must be identical. An archive made with `-X`
 * (no uid/gid and time extra fields: the VM's user is not the host's) is byte-identical.
 */

const host = spawnSync("sh", ["-c", "zip -v | sed -n 2p; unzip -v | sed -n 1p"], { encoding: "utf8" });
const hostVersion = host.status === 0 && host.stdout.includes("Zip 3.0") && host.stdout.includes("UnZip 6.00") ? "Zip 3.0 and UnZip 6.00" : "";

/** Every file and directory of the case the same mtime on both sides (zip stores them, unzip lists and restores them). */
const STAMP = "find . -exec touch -d '2021-03-04 05:06:07' {} +";
/** What unzip made: each path with its mode and mtime. */
const TREE = (dir: string): string => `find ${dir} | sort | while read f; do echo "$f $(stat -c '%A %Y' "$f")"; done`;

/**
 * The files afterwards: modes and digests, but only the names of the archives. zip writes the owner's uid/gid
 * and the access time into an extra field (the VM's user is not the host's), and adds a directory's entries in
 * readdir order, which on the host depends on its file system; the VM lists names sorted.
 */
const LIST = "find . -type f | sort | while read f; do case $f in *.zip) echo \"== $f $(stat -c %A \"$f\")\";; *) echo \"== $f $(stat -c %A \"$f\") $(sha256sum < \"$f\")\";; esac; done";
/** An archive of d/ in a fixed order (names sorted, as -r adds them in readdir order). */
const ZIP_D = (options = "-q") => `find d | sort | zip ${options} -@ t.zip`;

const TEXT = sampleText(2000);
const TREE_FILES = { "d/a.txt": "alpha\n", "d/b.log": "log line\n", "d/e/c.txt": TEXT, "d/e/f/g.txt": "deep\n" };

const CASES: Record<string, StepCase> = {
  "zip -r lists what it adds": { files: TREE_FILES, steps: [STAMP, "zip -r t.zip d | sort", "unzip -l t.zip | sort"] },
  "zip -X is byte-identical": { files: TREE_FILES, steps: [STAMP, `${ZIP_D("-q -X")} && sha256sum t.zip`, "zip -q -X -j j.zip d/a.txt d/e/c.txt && sha256sum j.zip"] },
  "zip -q is quiet": { files: TREE_FILES, steps: [STAMP, "zip -q -r t.zip d; echo rc=$?", "unzip -Z1 t.zip | sort"] },
  "zip -j junks the paths": { files: TREE_FILES, steps: [STAMP, "zip -j t.zip d/a.txt d/e/c.txt", "unzip -Z1 t.zip"] },
  "zip -x excludes a pattern": { files: TREE_FILES, steps: [STAMP, "zip -r t.zip d -x '*.log' | sort", "unzip -Z1 t.zip | sort"] },
  "zip -0 and -9, -T tests": { files: TREE_FILES, steps: [STAMP, "zip -0 -X s.zip d/e/c.txt && zip -9 -X n.zip d/e/c.txt && sha256sum s.zip n.zip", "zip -T n.zip"] },
  "zip -u updates a newer file only": {
    files: TREE_FILES,
    steps: [STAMP, ZIP_D(), "echo changed > d/a.txt && touch -d '2022-01-01 00:00:00' d/a.txt", "zip -u t.zip d/a.txt d/b.log; echo rc=$?", "unzip -p t.zip d/a.txt"],
  },
  "zip adds to and replaces in an archive": { files: TREE_FILES, steps: [STAMP, "zip -q t.zip d/a.txt", "zip t.zip d/a.txt d/b.log", "unzip -l t.zip"] },
  "zip -d deletes entries": { files: TREE_FILES, steps: [STAMP, ZIP_D(), "zip -d t.zip 'd/e/*'", "unzip -Z1 t.zip", "zip -d t.zip nosuch; echo rc=$?"] },
  "zip from stdin with -": { files: { "a.txt": TEXT }, steps: ["cat a.txt | zip s.zip - ; echo rc=$?", "unzip -p s.zip - | cmp - a.txt && echo same"] },
  "zip with nothing to do": { files: {}, steps: ["zip t.zip nosuch; echo rc=$?", "zip -d; echo rc=$?"] },
  "zip -m moves files in": { files: TREE_FILES, steps: [STAMP, "zip -q -m t.zip d/a.txt d/b.log; echo rc=$?", "find d | sort"] },
  "unzip -l and zipinfo": { files: TREE_FILES, steps: [STAMP, ZIP_D("-q -X"), "unzip -l t.zip", "zipinfo t.zip", "unzip -Z -1 t.zip", "unzip -v t.zip | sed 's/  *[0-9a-f]\\{8\\}  */ CRC /'"] },
  "unzip extracts with modes and mtimes": {
    files: TREE_FILES,
    steps: ["chmod 755 d/a.txt && chmod 600 d/b.log", STAMP, `${ZIP_D()} && rm -r d`, "unzip t.zip", TREE("d")],
  },
  "unzip -d DIR": { files: TREE_FILES, steps: [STAMP, ZIP_D(), "unzip -q t.zip -d out/x; echo rc=$?", TREE("out")] },
  "unzip -o overwrites, -n never": {
    files: TREE_FILES,
    steps: [STAMP, ZIP_D(), "echo local > d/a.txt", "unzip -n t.zip; echo rc=$?; cat d/a.txt", "unzip -o t.zip; echo rc=$?; cat d/a.txt"],
  },
  "unzip -p and members": { files: TREE_FILES, steps: [STAMP, ZIP_D(), "unzip -p t.zip d/a.txt d/e/f/g.txt", "unzip -p t.zip nosuch; echo rc=$?"] },
  "unzip -t": { files: TREE_FILES, steps: [STAMP, ZIP_D(), "unzip -t t.zip; echo rc=$?", "unzip -tq t.zip; echo rc=$?"] },
  "unzip -x and -j": { files: TREE_FILES, steps: [STAMP, ZIP_D(), "unzip -q t.zip -x '*.log' -d x && find x | sort", "unzip -j t.zip 'd/e/*' -d j && find j | sort"] },
  "unzip of a missing, a non-zip and a truncated archive": {
    files: { "junk.zip": "not a zip\n", "a.txt": TEXT },
    steps: ["unzip nosuch.zip; echo rc=$?", "unzip -l junk.zip; echo rc=$?", "zip -q t.zip a.txt && head -c 200 t.zip > cut.zip && unzip -t cut.zip; echo rc=$?"],
  },
  "unzip: a bad CRC": {
    files: { "a.txt": TEXT },
    steps: ["zip -q -X t.zip a.txt", "{ head -c 100 t.zip; printf 'XX'; tail -c +103 t.zip; } > bad.zip; unzip -t bad.zip; echo rc=$?", "unzip -p bad.zip > /dev/null; echo rc=$?"],
  },
  "unzip a member that is not there, -q": { files: TREE_FILES, steps: [STAMP, ZIP_D(), "unzip -q t.zip d/nosuch -d o; echo rc=$?"] },
  "zip -P and unzip -P: encrypted entries": {
    files: { "a.txt": TEXT },
    steps: ["zip -q -P secret e.zip a.txt; echo rc=$?", "unzip -P secret -p e.zip | cmp - a.txt && echo same", "unzip -P wrong -p e.zip > /dev/null; echo rc=$?", "unzip -P secret -t e.zip"],
  },
  "round trip of a larger tree": {
    files: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`tree/dir${i % 5}/file${i}.txt`, sampleText(50 + i * 20, i + 1)])),
    steps: [STAMP, "find tree | sort | zip -q -@ big.zip && mkdir x && cd x && unzip -q ../big.zip && cd .. && diff -r tree x/tree && echo same", "unzip -l big.zip | tail -1"],
  },
};

const names = Object.keys(CASES);
let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create({});
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

describe.skipIf(!hostVersion).concurrent(`zip and unzip in the VM against the host's ${hostVersion} (${names.length} cases)`, () => {
  it.each(names)("%s", async (name) => {
    await runStepCase(twin, name, { list: LIST, ...CASES[name]! });
  }, CASE_DEADLINE_MS * 2);
});
