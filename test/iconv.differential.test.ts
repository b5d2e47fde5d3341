import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin, hostHas } from "./host-twin.js";

/**
 * The VM's iconv (workers/commands/iconv.ts) against the host's glibc iconv: stdout, stderr and exit status
 * identical. The files hold text in several sets, and malformed input at known positions.
 */

const b = (...bytes: number[]) => Uint8Array.from(bytes);
const FILES = {
  "utf8.txt": "naïve café — “quoted” ½ € ß Œuvre 中文 😀\n",
  "ascii.txt": "plain ASCII text\n",
  "latin1.txt": b(0x63, 0x61, 0x66, 0xe9, 0x20, 0xfc, 0xdf, 0xa9, 0x0a),
  "cp1252.txt": b(0x80, 0x20, 0x93, 0x71, 0x94, 0x20, 0x96, 0x20, 0xe9, 0x0a),
  "cp1252-undefined.txt": b(0x41, 0x81, 0x42),
  "bad-utf8.txt": b(0x6f, 0x6b, 0x20, 0xff, 0xfe, 0x20, 0x78, 0x0a),
  "overlong.txt": b(0x61, 0xc0, 0xaf, 0x62),
  "surrogate.txt": b(0x61, 0xed, 0xa0, 0x80, 0x62),
  "truncated.txt": b(0x61, 0x62, 0xe2, 0x82),
  "utf16-bom-be.txt": b(0xfe, 0xff, 0x00, 0x68, 0x00, 0xe9, 0xd8, 0x3d, 0xde, 0x00),
  "utf16-odd.txt": b(0x68, 0x00, 0x69),
  "koi8r.txt": b(0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4, 0x0a),
  "latin9.txt": b(0xa4, 0xbd, 0x0a),
  "dir/x": "x",
};

const CASES = [
  "iconv -f UTF-8 -t UTF-16 utf8.txt | od -An -tx1",
  "iconv -f utf-8 -t utf-16le utf8.txt | iconv -f UTF-16LE -t UTF-8",
  "iconv -f utf-8 -t UTF-16BE ascii.txt | od -An -tx1",
  "iconv -f utf8 -t utf-32 ascii.txt | od -An -tx1",
  "iconv -f UTF-8 -t UCS-4 ascii.txt | od -An -tx1",
  "iconv -f UTF-8 -t UCS-2 ascii.txt | od -An -tx1",
  "iconv -f UTF-8 -t UCS-2 utf8.txt | od -An -tx1",
  "iconv -f UTF-16 -t UTF-8 utf16-bom-be.txt",
  "iconv -f UTF-16 -t UTF-8 utf16-odd.txt",
  "iconv -f latin1 -t utf-8 latin1.txt",
  "iconv -f ISO-8859-1 -t UTF-8 latin1.txt | iconv -f UTF-8 -t ISO_8859-1 | od -An -tx1",
  "iconv -f CP1252 -t UTF-8 cp1252.txt",
  "iconv -f windows-1252 -t UTF-8 cp1252-undefined.txt",
  "iconv -f KOI8-R -t UTF-8 koi8r.txt",
  "iconv -f ISO-8859-15 -t UTF-8 latin9.txt",
  "iconv -f UTF-8 -t ISO-8859-15 utf8.txt",
  "iconv -f UTF-8 -t ASCII utf8.txt",
  "iconv -f UTF-8 -t LATIN1 utf8.txt",
  "iconv -c -f UTF-8 -t ASCII utf8.txt",
  "printf '\\303\\251' | iconv -c -f UTF-8 -t ASCII",
  "printf 'a\\303\\251' | iconv -c -f UTF-8 -t ASCII",
  "iconv -f UTF-8 -t ASCII//TRANSLIT utf8.txt",
  "LANG=C iconv -f UTF-8 -t ASCII//TRANSLIT utf8.txt",
  "iconv -f UTF-8 -t ISO-8859-1//TRANSLIT utf8.txt | od -An -tx1",
  "iconv -f UTF-8 -t ASCII//IGNORE utf8.txt",
  "iconv -f UTF-8 -t UTF-8 bad-utf8.txt",
  "iconv -c -f UTF-8 -t UTF-8 bad-utf8.txt",
  "iconv -f UTF-8 -t UTF-16LE overlong.txt",
  "iconv -f UTF-8 -t UTF-16LE surrogate.txt",
  "iconv -f UTF-8 -t LATIN1 truncated.txt",
  "iconv -f ASCII -t UTF-8 latin1.txt",
  "iconv -f UTF-8 -t LATIN1 ascii.txt missing.txt latin1.txt ascii.txt",
  "iconv -f UTF-8 -t LATIN1 ascii.txt bad-utf8.txt ascii.txt",
  "iconv -f UTF-8 -t LATIN1 ascii.txt dir ascii.txt",
  "printf 'stdin é\\n' | iconv -f UTF-8 -t LATIN1 | od -An -tx1",
  "printf 'x' | iconv -f UTF-8 -t LATIN1 - ascii.txt",
  "iconv -t LATIN1 -o out.txt utf8.txt; od -An -tx1 out.txt",
  "iconv < ascii.txt",
  "iconv --bogus",
  "iconv -t",
  "iconv -f",
];

let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create(FILES);
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

describe.skipIf(!hostHas("iconv"))(`iconv in the VM against the host's glibc iconv (${CASES.length} cases)`, () => {
  it.each(CASES)("%s", async (command) => {
    expect(await twin.inVm(command)).toEqual(twin.onHost(command));
  }, CASE_DEADLINE_MS);

  it("names a conversion it cannot make as glibc does, and lists the sets it has", async () => {
    expect(await twin.inVm("iconv -f SHIFT_JIS -t UTF-8 ascii.txt")).toEqual({ stdout: "", stderr: "iconv: conversion from `SHIFT_JIS' is not supported\n", exitCode: 1 });
    const list = await twin.inVm("iconv -l");
    expect(list.stdout.split("\n")).toEqual(expect.arrayContaining(["UTF-8//", "ISO-8859-1//", "WINDOWS-1252//", "KOI8-R//", "UTF-16LE//"]));
  }, CASE_DEADLINE_MS);
});
