import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASE_DEADLINE_MS, SETUP_DEADLINE_MS } from "./deadlines.js";
import { HostTwin, hostHas } from "./host-twin.js";

/**
 * The VM's hexdump and hd (workers/commands/hexdump.ts) against the host's util-linux hexdump: the same files
 * at the same path, each command line's stdout, stderr and exit status identical.
 */

const FILES = {
  alpha: "abcdefghijklmnopqrstuvwxyz0123456789",
  zeros: new Uint8Array(100),
  bytes: Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 255),
  odd: Uint8Array.from([...Buffer.from("abcde\n\t\r\0"), 1, 0x7f, 0x80, 0xff]),
  repeats: Buffer.concat([Buffer.alloc(32, "A"), Buffer.from("B"), Buffer.alloc(48, "A")]),
};

const CASES = [
  "hexdump alpha",
  "hexdump -C alpha",
  "hexdump -C bytes",
  "hexdump -x odd",
  "hexdump -b odd",
  "hexdump -c odd",
  "hexdump -d odd",
  "hexdump -o odd",
  "hexdump zeros && hexdump -C zeros",
  "hexdump -v -C zeros",
  "hexdump -C repeats && hexdump repeats",
  "hexdump -C -x -n 20 alpha",
  "hexdump -C -s 3 -n 20 alpha",
  "hexdump -C -s 0x10 -n 010 alpha",
  "hexdump -C -s 1KB alpha; hexdump -s 1k /dev/null",
  "hexdump -C -s 40 alpha odd",
  "hexdump -C alpha odd",
  "cat alpha | hexdump -C",
  "hexdump -C < /dev/null; echo status $?",
  "printf abc | hexdump -C -s 1",
  "hexdump -C -s 2 < alpha",
  "hexdump missing alpha",
  "hexdump missing",
  "hexdump -n 1x alpha",
  "hexdump -s nope alpha",
  "hexdump -Q",
  "hd odd",
  "hd -n 4 bytes",
];

let twin: HostTwin;

beforeAll(async () => {
  twin = await HostTwin.create(FILES);
}, SETUP_DEADLINE_MS);

afterAll(async () => {
  await twin?.dispose();
});

describe.skipIf(!hostHas("hexdump") || !hostHas("hd"))(`hexdump in the VM against the host's util-linux hexdump (${CASES.length} cases)`, () => {
  it.each(CASES)("%s", async (command) => {
    expect(await twin.inVm(command)).toEqual(twin.onHost(command));
  }, CASE_DEADLINE_MS);
});
