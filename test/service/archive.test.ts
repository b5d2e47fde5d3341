import { describe, expect, it } from "vitest";
import type { AgentOs } from "../../src/index.js";
import { createVm } from "../differential.js";
import { result, writeTree } from "../helpers.js";

// Expected values are what GNU tar 1.34 / gzip 1.12 / coreutils print on Linux (LC_ALL=C) for the same
// files. Where the WebAssembly binary differs for a reason of its own, the test says so in a
// `differs from GNU` comment and expects the binary's output.

/** 4096 bytes covering every byte value; md5 efc404fa609a799c7801273de6d65e84 (GNU md5sum). */
const blob = Uint8Array.from({ length: 4096 }, (_, i) => (i * 37 + 11) & 255);
const blobMd5 = "efc404fa609a799c7801273de6d65e84";

const tree: Record<string, string | Uint8Array> = {
  "/workspace/proj/README.md": "# proj\n",
  "/workspace/proj/src/main.ts": "console.log('hi');\n",
  "/workspace/proj/src/util.ts": "export const x = 1;\n",
  "/workspace/proj/data/blob.bin": blob,
  "/workspace/notes.txt": "line one\nline two\nline three\n",
};

async function treeVm(): Promise<AgentOs> {
  const vm = await createVm();
  await writeTree(vm, tree);
  return vm;
}

describe("tar", () => {
  it("-cf then -tf lists the archive", async () => {
    const vm = await treeVm();
    // differs from GNU: this tar lists directories without a trailing "/" and writes entries sorted by
    // name; GNU lists "proj/", "proj/data/", … in directory (readdir) order.
    expect(await vm.exec("cd /workspace && tar -cf /tmp/p.tar proj && tar -tf /tmp/p.tar")).toEqual(
      result("proj\nproj/README.md\nproj/data\nproj/data/blob.bin\nproj/src\nproj/src/main.ts\nproj/src/util.ts\n"),
    );
    // Files named on the command line keep their order.
    expect(await vm.exec("cd /workspace && tar -cf /tmp/n.tar notes.txt proj/README.md && tar -tf /tmp/n.tar")).toEqual(
      result("notes.txt\nproj/README.md\n"),
    );
  });

  it("-C on create and extract", async () => {
    const vm = await treeVm();
    expect(
      await vm.exec(
        "tar -cf /tmp/p.tar -C /workspace proj && mkdir /tmp/out && tar -xf /tmp/p.tar -C /tmp/out && cat /tmp/out/proj/src/main.ts /tmp/out/proj/README.md",
      ),
    ).toEqual(result("console.log('hi');\n# proj\n"));
  });

  it("-czf and -xzf round trip", async () => {
    const vm = await treeVm();
    expect(
      await vm.exec("cd /workspace && tar -czf /tmp/p.tgz proj && mkdir -p /tmp/z && tar -xzf /tmp/p.tgz -C /tmp/z && find /tmp/z | sort"),
    ).toEqual(
      result(
        "/tmp/z\n/tmp/z/proj\n/tmp/z/proj/README.md\n/tmp/z/proj/data\n/tmp/z/proj/data/blob.bin\n/tmp/z/proj/src\n/tmp/z/proj/src/main.ts\n/tmp/z/proj/src/util.ts\n",
      ),
    );
    expect(await vm.exec("cat /tmp/z/proj/src/util.ts")).toEqual(result("export const x = 1;\n"));
    // Both sides of a pipe.
    expect(await vm.exec("cd /workspace && tar -czf - proj | tar -xzf - -C /tmp && cat /tmp/proj/README.md")).toEqual(
      result("# proj\n"),
    );
    expect(await vm.exec("cd /workspace && tar -cf - notes.txt | tar -tf -")).toEqual(result("notes.txt\n"));
  });

  it("-tzf lists a gzipped archive", async () => {
    const vm = await treeVm();
    // differs from GNU: no trailing "/" on directories; GNU (sorted) prints
    // "proj/\nproj/README.md\nproj/data/\nproj/data/blob.bin\nproj/src/\nproj/src/main.ts\nproj/src/util.ts\n".
    expect(await vm.exec("cd /workspace && tar -czf /tmp/p.tgz proj && tar -tzf /tmp/p.tgz | sort")).toEqual(
      result("proj\nproj/README.md\nproj/data\nproj/data/blob.bin\nproj/src\nproj/src/main.ts\nproj/src/util.ts\n"),
    );
  });

  it("extracts into a new directory after cd", async () => {
    const vm = await treeVm();
    expect(
      await vm.exec("cd /workspace && tar -cf /tmp/p.tar proj && mkdir /tmp/x && cd /tmp/x && tar -xf /tmp/p.tar && cat proj/src/util.ts"),
    ).toEqual(result("export const x = 1;\n"));
    expect(
      await vm.exec("cd /workspace && tar -cf /tmp/n.tar notes.txt && rm notes.txt && tar -xf /tmp/n.tar && cat notes.txt"),
    ).toEqual(result("line one\nline two\nline three\n"));
    expect(await vm.exec("cd /workspace && mkdir out4 && cd out4 && tar -xf /tmp/p.tar && find . | sort")).toEqual(
      result(".\n./proj\n./proj/README.md\n./proj/data\n./proj/data/blob.bin\n./proj/src\n./proj/src/main.ts\n./proj/src/util.ts\n"),
    );
  });

  it("a relative archive name together with -C", async () => {
    const vm = await treeVm();
    // differs from GNU: this tar opens a relative archive name inside the -C directory (it changes
    // directory first). GNU opens it in the working directory: extraction succeeds ("out/proj/README.md"
    // exists) and p2.tar is created in /workspace, not in proj/.
    expect(await vm.exec("cd /workspace && tar -cf p.tar proj && mkdir out && tar -xf p.tar -C out")).toEqual(
      result("", 1, "tar: No such file or directory (os error 44)\n"),
    );
    expect(await vm.exec("cd /workspace && tar -cf p2.tar -C proj README.md && ls proj")).toEqual(
      result("README.md\ndata\np2.tar\nsrc\n"),
    );
  });

  it("round-trips a binary file byte for byte", async () => {
    const vm = await treeVm();
    expect(
      await vm.exec("cd /workspace && tar -cf /tmp/p.tar proj && mkdir /tmp/y && tar -xf /tmp/p.tar -C /tmp/y && md5sum proj/data/blob.bin /tmp/y/proj/data/blob.bin"),
    ).toEqual(result(`${blobMd5}  proj/data/blob.bin\n${blobMd5}  /tmp/y/proj/data/blob.bin\n`));
    expect(await vm.readFile("/tmp/y/proj/data/blob.bin")).toEqual(blob);
  });

  it("archives 100 small files", async () => {
    const vm = await createVm();
    const many: Record<string, string> = {};
    for (let i = 0; i < 100; i++) many[`/workspace/many/f${String(i).padStart(3, "0")}.txt`] = `file ${i}\n`;
    await writeTree(vm, many);
    expect(await vm.exec("cd /workspace && tar -cf /tmp/m.tar many && tar -tf /tmp/m.tar | wc -l")).toEqual(result("101\n"));
    expect(
      await vm.exec(
        "cd /workspace && tar -czf /tmp/m.tgz many && mkdir /tmp/m && tar -xzf /tmp/m.tgz -C /tmp/m && ls /tmp/m/many | wc -l && cat /tmp/m/many/f000.txt /tmp/m/many/f099.txt",
      ),
    ).toEqual(result("100\nfile 0\nfile 99\n"));
    expect(await vm.exec("cd /tmp/m && cat many/*.txt | md5sum && cd /workspace && cat many/*.txt | md5sum")).toEqual(
      result("21787d467d014102cc2d5bfc5678f216  -\n21787d467d014102cc2d5bfc5678f216  -\n"),
    );
    expect(await vm.exec("diff -r /workspace/many /tmp/m/many && echo identical")).toEqual(result("identical\n"));
    // differs from GNU: entries in name order (GNU: directory order, "many/" first).
    expect(await vm.exec("tar -tf /tmp/m.tar | sed -n '1p;2p;101p'")).toEqual(result("many\nmany/f000.txt\nmany/f099.txt\n"));
  });

  it("-v writes the names", async () => {
    const vm = await treeVm();
    // differs from GNU: with -c, this tar writes the names to stderr (GNU: stdout), and -tv prints no
    // owner or date (GNU: "-rw-r--r-- root/root        29 <date> <time> notes.txt").
    expect(await vm.exec("cd /workspace && tar -cvf /tmp/v.tar notes.txt")).toEqual(result("", 0, "notes.txt\n"));
    expect(await vm.exec("tar -tvf /tmp/v.tar")).toEqual(result("-rw-r--r--       29 notes.txt\n"));
  });

  it("reports a missing archive, and -O", async () => {
    const vm = await treeVm();
    // differs from GNU: message and exit code are this tar's own; GNU prints
    // "tar: /tmp/nope.tar: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n"
    // and exits 2.
    expect(await vm.exec("tar -tf /tmp/nope.tar")).toEqual(result("", 1, "tar: No such file or directory (os error 44)\n"));
    // differs from GNU: this tar has no -O (extract to stdout). GNU prints the file.
    expect(await vm.exec("cd /workspace && tar -cf /tmp/n.tar notes.txt && tar -xOf /tmp/n.tar notes.txt")).toEqual(
      result("", 1, "tar: unknown option: O\n"),
    );
  });
});

describe("gzip", () => {
  it("gzip -c | gunzip -c round trip", async () => {
    const vm = await treeVm();
    expect(await vm.exec("cd /workspace && gzip -c notes.txt | gunzip -c")).toEqual(result("line one\nline two\nline three\n"));
    expect(await vm.exec("echo hello | gzip | gunzip")).toEqual(result("hello\n"));
    expect(await vm.exec("printf 'abc' | gzip -9 | gzip -dc")).toEqual(result("abc"));
    expect(await vm.exec("cd /workspace && gzip -c notes.txt > n.gz && gunzip -c < n.gz")).toEqual(
      result("line one\nline two\nline three\n"),
    );
  });

  it("gzip and gunzip replace the file in place", async () => {
    const vm = await treeVm();
    expect(await vm.exec("cd /workspace && gzip notes.txt && ls && gunzip notes.txt.gz && ls && cat notes.txt")).toEqual(
      result("notes.txt.gz\nproj\nnotes.txt\nproj\nline one\nline two\nline three\n"),
    );
  });

  it("gzip -k keeps the original, zcat reads the result", async () => {
    const vm = await treeVm();
    expect(await vm.exec("cd /workspace && gzip -k notes.txt && ls")).toEqual(result("notes.txt\nnotes.txt.gz\nproj\n"));
    expect(await vm.exec("cd /workspace && zcat notes.txt.gz")).toEqual(result("line one\nline two\nline three\n"));
    expect(await vm.exec("echo hello | gzip -c | zcat")).toEqual(result("hello\n"));
  });

  it("round-trips a binary file (md5sum and bytes)", async () => {
    const vm = await createVm();
    await vm.writeFile("/tmp/blob.bin", blob);
    expect(await vm.exec("md5sum < /tmp/blob.bin")).toEqual(result(`${blobMd5}  -\n`));
    expect(await vm.exec("gzip -c /tmp/blob.bin > /tmp/b.gz && gunzip -c /tmp/b.gz | md5sum")).toEqual(result(`${blobMd5}  -\n`));
    expect(await vm.exec("gunzip -c /tmp/b.gz > /tmp/back.bin && md5sum /tmp/back.bin")).toEqual(
      result(`${blobMd5}  /tmp/back.bin\n`),
    );
    expect(await vm.readFile("/tmp/back.bin")).toEqual(blob);
    expect(await vm.exec("head -c 2 /tmp/b.gz | od -An -tx1")).toEqual(result(" 1f 8b\n"));
  });

  it("gunzip rejects data that is not gzip", async () => {
    const vm = await treeVm();
    // differs from GNU: message is this gunzip's own; GNU prints "\ngzip: /workspace/notes.txt: not in gzip format\n"
    // (exit 1 in both).
    expect(await vm.exec("gunzip -c /workspace/notes.txt")).toEqual(result("", 1, "gunzip: invalid gzip header\n"));
  });

  it("gzip -t and -l", async () => {
    const vm = await treeVm();
    // differs from GNU: this gzip has neither -t nor -l. GNU exits 0 for -t and prints a size table for -l.
    expect(await vm.exec("cd /workspace && gzip -k notes.txt && gzip -t notes.txt.gz")).toEqual(
      result("", 1, "gzip: invalid option -- 't'\n"),
    );
    expect(await vm.exec("cd /workspace && gzip -l notes.txt.gz")).toEqual(result("", 1, "gzip: invalid option -- 'l'\n"));
  });

  it("diff -r compares an extracted tree holding a binary file", async () => {
    const vm = await treeVm();
    // differs from GNU: this diff reads files as UTF-8 text and fails on binary data. GNU prints
    // "identical\n" (the trees are equal).
    expect(
      await vm.exec("cd /workspace && tar -cf /tmp/p.tar proj && mkdir /tmp/w && tar -xf /tmp/p.tar -C /tmp/w && diff -r /workspace/proj /tmp/w/proj && echo identical"),
    ).toEqual(result("", 1, "diff: /workspace/proj/data/blob.bin: stream did not contain valid UTF-8\n"));
  });
});
