import { describe, expect, it } from "vitest";
import type { ExecResult } from "../../src/index.js";
import { createVm } from "../differential.js";
import { result, writeTree } from "../helpers.js";
import { expectLikeHost, hostHas } from "./host.js";

// tar and gzip are the runtime's own scripts (workers/commands/tar.ts, gzip.ts) written after GNU tar 1.34
// and gzip 1.12. Each case runs in /workspace of a fresh VM and, where this machine has GNU tar and gzip,
// on the host too (LC_ALL=C): both must print exactly the expected result, which is what GNU prints.

const files: Record<string, string> = {
  "/workspace/proj/README.md": "# proj\n",
  "/workspace/proj/src/main.ts": "console.log('hi');\n",
  "/workspace/proj/src/util.ts": "export const x = 1;\n",
  "/workspace/notes.txt": "line one\nline two\nline three\n",
  "/workspace/data.csv": "id,name\n1,ann\n2,bob\n3,cy\n".repeat(20),
};

const hostTar = hostHas("tar --version", "GNU tar) 1.34") && hostHas("gzip --version", "gzip 1.12");
const hostGzip = hostHas("gzip --version", "gzip 1.12");

/** 4096 bytes covering every byte value; md5 efc404fa609a799c7801273de6d65e84 (GNU md5sum). */
const blob = Uint8Array.from({ length: 4096 }, (_, i) => (i * 37 + 11) & 255);
const blobMd5 = "efc404fa609a799c7801273de6d65e84";

async function run(host: boolean, command: string, expected: ExecResult): Promise<void> {
  const vm = await createVm();
  try {
    await writeTree(vm, files);
    await expectLikeHost(vm, files, host, command, expected);
  } finally {
    await vm.dispose();
  }
}

const TAR: Array<[string, ExecResult]> = [
    ["tar -cf p.tar proj && tar -tf p.tar | sort", result("proj/\nproj/README.md\nproj/src/\nproj/src/main.ts\nproj/src/util.ts\n", 0, "")],
    ["tar cf n.tar notes.txt proj/README.md && tar tf n.tar", result("notes.txt\nproj/README.md\n", 0, "")],
    ["tar cf p.tar proj && mkdir out && tar xf p.tar -C out && cat out/proj/src/main.ts out/proj/README.md", result("console.log('hi');\n# proj\n", 0, "")],
    ["tar -cf /tmp/agentos-c.$$.tar -C proj src && tar -tf /tmp/agentos-c.$$.tar | sort; rm -f /tmp/agentos-c.$$.tar", result("src/\nsrc/main.ts\nsrc/util.ts\n", 0, "")],
    ["tar czf p.tgz proj && mkdir z && tar xzf p.tgz -C z && find z | sort", result("z\nz/proj\nz/proj/README.md\nz/proj/src\nz/proj/src/main.ts\nz/proj/src/util.ts\n", 0, "")],
    ["tar -czf - proj | tar -xzf - -C . --strip-components=1 && ls && cat src/util.ts", result("README.md\ndata.csv\nnotes.txt\nproj\nsrc\nexport const x = 1;\n", 0, "")],
    ["tar cf - notes.txt | tar tf -", result("notes.txt\n", 0, "")],
    ["tar --create --file=n.tar notes.txt && tar --list --file n.tar", result("notes.txt\n", 0, "")],
    ["tar cvf n.tar notes.txt proj/README.md", result("notes.txt\nproj/README.md\n", 0, "")],
    ["tar cvf - notes.txt > /dev/null", result("", 0, "notes.txt\n")],
    ["tar cf n.tar notes.txt && tar tvf n.tar | cut -c1-10", result("-rw-r--r--\n", 0, "")],
    ["tar cf n.tar notes.txt && rm notes.txt && tar xvf n.tar && cat notes.txt", result("notes.txt\nline one\nline two\nline three\n", 0, "")],
    ["tar xf missing.tar", result("", 2, "tar: missing.tar: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n")],
    ["tar tzf missing.tgz", result("", 2, "tar (child): missing.tgz: Cannot open: No such file or directory\ntar (child): Error is not recoverable: exiting now\ntar: Child returned status 2\ntar: Error is not recoverable: exiting now\n")],
    ["tar cf x.tar nope notes.txt; echo $?; tar tf x.tar", result("2\nnotes.txt\n", 0, "tar: nope: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n")],
    ["tar cf x.tar", result("", 2, "tar: Cowardly refusing to create an empty archive\nTry 'tar --help' or 'tar --usage' for more information.\n")],
    ["tar f x.tar", result("", 2, "tar: You must specify one of the '-Acdtrux', '--delete' or '--test-label' options\nTry 'tar --help' or 'tar --usage' for more information.\n")],
    ["tar tf", result("", 2, "tar: Old option 'f' requires an argument.\nTry 'tar --help' or 'tar --usage' for more information.\n")],
    ["tar --bogus", result("", 64, "tar: unrecognized option '--bogus'\nTry 'tar --help' or 'tar --usage' for more information.\n")],
    ["tar cf n.tar notes.txt && tar xOf n.tar notes.txt", result("line one\nline two\nline three\n", 0, "")],
    ["tar cf p.tar proj && tar xOf p.tar proj/src | sort", result("console.log('hi');\nexport const x = 1;\n", 0, "")],
    ["tar cf p.tar proj && tar tf p.tar nothere proj/README.md", result("proj/README.md\n", 2, "tar: nothere: Not found in archive\ntar: Exiting with failure status due to previous errors\n")],
    ["tar cf p.tar proj && tar tf p.tar --wildcards 'proj/src/*' | sort", result("proj/src/main.ts\nproj/src/util.ts\n", 0, "")],
    ["tar cf p.tar --exclude='*.ts' proj && tar tf p.tar | sort", result("proj/\nproj/README.md\nproj/src/\n", 0, "")],
    ["tar cf p.tar proj && mkdir o && tar xf p.tar -C o --strip-components 2 && find o | sort", result("o\no/main.ts\no/util.ts\n", 0, "")],
    ["tar cf n.tar notes.txt && tar xkf n.tar; echo $?", result("2\n", 0, "tar: notes.txt: Cannot open: File exists\ntar: Exiting with failure status due to previous errors\n")],
    ["tar cf n.tar notes.txt && echo changed > notes.txt && tar xf n.tar && cat notes.txt", result("line one\nline two\nline three\n", 0, "")],
    ["tar cf n.tar notes.txt && tar xf n.tar -C nodir", result("", 2, "tar: nodir: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n")],
    ["tar cf self.tar . 2>&1 | head -1", result("tar: ./self.tar: file is the archive; not dumped\n", 0, "")],
    ["echo garbage > g.tar && tar tf g.tar", result("", 2, "tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n")],
    ["tar cf n.tar notes.txt && tar xzf n.tar", result("", 2, "\ngzip: stdin: not in gzip format\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n")],
    ["tar cf n.tar notes.txt && tar rf n.tar data.csv && tar tf n.tar", result("notes.txt\ndata.csv\n", 0, "")],
    ["ln -s notes.txt link && tar cf l.tar link && tar tvf l.tar | cut -c1-10 && tar tvf l.tar | sed 's/.* link/link/' && rm link && tar xf l.tar && readlink link", result("lrwxrwxrwx\nlink -> notes.txt\nnotes.txt\n", 0, "")],
    ["d=$(printf 'd%.0s' $(seq 60))/$(printf 'e%.0s' $(seq 60)) && mkdir -p a/$d && echo deep > a/$d/f.txt && tar cf a.tar a && rm -r a && tar xf a.tar && cat a/$d/f.txt && tar tf a.tar | awk '{ print length($0) }'", result("deep\n2\n63\n124\n129\n", 0, "")],
    ["tar czf p.tgz proj && gzip -t p.tgz && gzip -dc p.tgz | tar tf - | sort", result("proj/\nproj/README.md\nproj/src/\nproj/src/main.ts\nproj/src/util.ts\n", 0, "")],
    ["tar cf p.tar proj && tar tf p.tar 'proj/s*'", result("", 2, "tar: Pattern matching characters used in file names\ntar: Use --wildcards to enable pattern matching, or --no-wildcards to suppress this warning\ntar: proj/s*: Not found in archive\ntar: Exiting with failure status due to previous errors\n")],
    ["tar cf - proj | tar xvf - -C /tmp/nowhere-agentos", result("", 2, "tar: /tmp/nowhere-agentos: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n")],
    ["tar cf p.tar proj && mkdir o && tar xf p.tar -C o proj/src && find o | sort", result("o\no/proj\no/proj/src\no/proj/src/main.ts\no/proj/src/util.ts\n", 0, "")],
    ["tar -c -v -f p.tar -C proj README.md -C src main.ts && tar -t -f p.tar", result("README.md\nmain.ts\nREADME.md\nmain.ts\n", 0, "")],
];

const GZIP: Array<[string, ExecResult]> = [
    ["gzip -c notes.txt | gunzip -c", result("line one\nline two\nline three\n", 0, "")],
    ["echo hello | gzip | gunzip", result("hello\n", 0, "")],
    ["gzip notes.txt && ls && gunzip notes.txt.gz && ls && cat notes.txt", result("data.csv\nnotes.txt.gz\nproj\ndata.csv\nnotes.txt\nproj\nline one\nline two\nline three\n", 0, "")],
    ["gzip -k notes.txt && ls && zcat notes.txt.gz", result("data.csv\nnotes.txt\nnotes.txt.gz\nproj\nline one\nline two\nline three\n", 0, "")],
    ["gzip -c notes.txt | od -An -tx1 | head -1 | cut -c1-12", result(" 1f 8b 08 08\n", 0, "")],
    ["gzip -cn notes.txt | od -An -tx1 | head -1", result(" 1f 8b 08 00 00 00 00 00 00 03 cb c9 cc 4b 55 c8\n", 0, "")],
    ["gzip -cn9 notes.txt | od -An -tx1 | head -1 | cut -c1-30", result(" 1f 8b 08 00 00 00 00 00 02 03\n", 0, "")],
    ["gunzip -c notes.txt", result("", 1, "\ngzip: notes.txt: not in gzip format\n")],
    ["gzip -k notes.txt && gzip -t notes.txt.gz && echo ok", result("ok\n", 0, "")],
    ["gzip -k notes.txt && gzip -l notes.txt.gz", result("         compressed        uncompressed  ratio uncompressed_name\n                 51                  29  20.7% notes.txt\n", 0, "")],
    ["gzip -k notes.txt data.csv && gzip -l notes.txt.gz data.csv.gz | wc -l", result("4\n", 0, "")],
    ["gzip -k notes.txt && gzip -lv notes.txt.gz | cut -c1-15", result("method  crc    \ndefla 578f182e \n", 0, "")],
    ["gzip -v notes.txt", result("", 0, "notes.txt:\t 20.7% -- replaced with notes.txt.gz\n")],
    ["gzip -vk notes.txt && gzip -dvf notes.txt.gz", result("", 0, "notes.txt:\t 20.7% -- created notes.txt.gz\nnotes.txt.gz:\t 20.7% -- replaced with notes.txt\n")],
    ["gzip missing.txt", result("", 1, "gzip: missing.txt: No such file or directory\n")],
    ["gunzip missing", result("", 1, "gzip: missing.gz: No such file or directory\n")],
    ["zcat missing.gz", result("", 1, "gzip: missing.gz: No such file or directory\n")],
    ["gzip -d notes.txt", result("", 2, "gzip: notes.txt: unknown suffix -- ignored\n")],
    ["gzip -k notes.txt && gzip -k notes.txt", result("", 2, "gzip: notes.txt.gz already exists;\tnot overwritten\n")],
    ["gzip proj; echo $?", result("2\n", 0, "gzip: proj is a directory -- ignored\n")],
    ["gzip -r proj && find proj | sort && gunzip -r proj && find proj | sort", result("proj\nproj/README.md.gz\nproj/src\nproj/src/main.ts.gz\nproj/src/util.ts.gz\nproj\nproj/README.md\nproj/src\nproj/src/main.ts\nproj/src/util.ts\n", 0, "")],
    ["gzip -k notes.txt && gzip notes.txt.gz; echo $?", result("0\n", 0, "gzip: notes.txt.gz already has .gz suffix -- unchanged\n")],
    ["gzip -c notes.txt notes.txt | zcat", result("line one\nline two\nline three\nline one\nline two\nline three\n", 0, "")],
    ["gzip -k notes.txt && echo junk >> notes.txt.gz && zcat notes.txt.gz; echo $?", result("line one\nline two\nline three\n2\n", 0, "\ngzip: notes.txt.gz: decompression OK, trailing garbage ignored\n")],
    ["gzip -c notes.txt | head -c 20 | gunzip -c; echo $?", result("1\n", 0, "\ngzip: stdin: unexpected end of file\n")],
    ["zcat -f notes.txt", result("line one\nline two\nline three\n", 0, "")],
    ["gzip -S .zz notes.txt && ls && gzip -d -S .zz notes.txt.zz && cat notes.txt", result("data.csv\nnotes.txt.zz\nproj\nline one\nline two\nline three\n", 0, "")],
    ["gzip -q -d notes.txt; echo $?", result("0\n", 0, "")],
    ["gzip -x", result("", 1, "gzip: invalid option -- 'x'\nTry `gzip --help' for more information.\n")],
    ["gzip -1 < data.csv | gzip -d | md5sum && md5sum < data.csv", result("85c2089aeaf3997fc034ccf0b3dc8d7f  -\n85c2089aeaf3997fc034ccf0b3dc8d7f  -\n", 0, "")],
    ["gzip -k notes.txt && gzip -l < notes.txt.gz", result("         compressed        uncompressed  ratio uncompressed_name\n                 51                  29  20.7% stdout\n", 0, "")],
    ["printf '' | gzip | gzip -l", result("         compressed        uncompressed  ratio uncompressed_name\n                 20                   0   0.0% stdout\n", 0, "")],
];

describe("tar, like GNU tar 1.34", () => {
  it.each(TAR)("%s", async (command, expected) => run(hostTar, command, expected));

  it("-j: no bzip2 in the VM, answered as GNU tar answers when the program is missing", async () => {
    // differs from the host, which has bzip2: GNU tar without it prints these lines (exit 2).
    await run(false, "tar cjf p.tbz proj", result("", 2, "tar (child): bzip2: Cannot exec: No such file or directory\ntar (child): Error is not recoverable: exiting now\ntar: Child returned status 2\ntar: Error is not recoverable: exiting now\n"));
  });

  it("tv lists the VM's owner and the member's time", async () => {
    const vm = await createVm();
    try {
      await writeTree(vm, files);
      expect(await vm.exec("cd /workspace && touch -d '2024-01-15 10:30' notes.txt && tar cf n.tar notes.txt && tar tvf n.tar", { env: { TZ: "UTC" } })).toEqual(
        result("-rw-r--r-- user/user        29 2024-01-15 10:30 notes.txt\n"),
      );
    } finally {
      await vm.dispose();
    }
  });

  it("round-trips a binary file byte for byte, through gzip and a pipe", async () => {
    const vm = await createVm();
    try {
      await vm.writeFile("/workspace/blob.bin", blob);
      expect(await vm.exec("cd /workspace && tar czf - blob.bin | tar xzf - -C /tmp && md5sum /tmp/blob.bin")).toEqual(result(`${blobMd5}  /tmp/blob.bin\n`));
      expect(await vm.readFile("/tmp/blob.bin")).toEqual(blob);
    } finally {
      await vm.dispose();
    }
  });
});

describe("gzip, gunzip and zcat, like GNU gzip 1.12", () => {
  it.each(GZIP)("%s", async (command, expected) => run(hostGzip, command, expected));

  it("round-trips a binary file", async () => {
    const vm = await createVm();
    try {
      await vm.writeFile("/tmp/blob.bin", blob);
      expect(await vm.exec("gzip -c /tmp/blob.bin > /tmp/b.gz && gunzip -c /tmp/b.gz | md5sum && gzip -l /tmp/b.gz | awk 'NR == 2 { print $2, $4 }'")).toEqual(
        result(`${blobMd5}  -\n4096 /tmp/b\n`),
      );
    } finally {
      await vm.dispose();
    }
  });
});
