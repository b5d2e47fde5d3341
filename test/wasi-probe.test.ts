import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ProbeRun, runInVm, runUnderNode } from "./wasi-probe-harness.js";

/**
 * guests/wasi-probe: a C program (wasi-libc) and a Rust one (std) that check the preview1 calls line by line,
 * run in the VM and under Node's own WASI (uvwasi) in the same test. Every line must be the same, but for the
 * labels of KNOWN_DIFFERENCES, where uvwasi answers otherwise than Linux (and wasmtime) and the VM does as
 * Linux does; such a line must differ (a listed line that has come to agree is to be removed).
 */
const KNOWN_DIFFERENCES: Record<"c" | "rust", Record<string, string>> = {
  c: {
    "nonblock flag": "uvwasi drops O_NONBLOCK on a regular file; Linux's F_GETFL keeps it",
    "open nofollow symlink": "uvwasi opens a symlink despite O_NOFOLLOW (or fails with errno 7); Linux: ELOOP",
    "open dangling nofollow": "uvwasi: ENOENT; Linux's O_NOFOLLOW on a symlink: ELOOP",
    atime: "uvwasi sets file times to the second; the VM keeps the nanoseconds, as Linux's file systems",
    mtime: "uvwasi sets file times to the second; the VM keeps the nanoseconds, as Linux's file systems",
    readdir: "uvwasi leaves out . and ..; Linux's readdir (and wasmtime's fd_readdir) list them",
    "poll file": "uvwasi's poll_oneoff refuses a regular file (EPERM); on Linux a file is always ready",
    "poll file revents POLLIN": "uvwasi's poll_oneoff refuses a regular file; on Linux a file is always ready",
    "shutdown a file": "uvwasi has no sock_shutdown (ENOTSUP); Linux: ENOTSOCK",
    "shutdown bad fd": "uvwasi has no sock_shutdown (ENOTSUP); Linux: EBADF",
  },
  rust: {
    "fd_allocate zero length": "uvwasi accepts a length of 0; POSIX's posix_fallocate (and Linux's) answer EINVAL (28)",
    modified: "uvwasi sets file times to the second; the VM keeps the nanoseconds, as Linux's file systems",
    "read dir as file": "uvwasi answers EBADF (8) to reading a directory; Linux's read answers EISDIR (31)",
  },
};

/**
 * The C probe in a read-write host mount against the same in the memory file system: a file with two links
 * (the probe's hard link) may not have its times changed there (README "Host directories": its other names
 * could be outside the mount), so those lines differ; everything else must not.
 */
const MOUNT_DIFFERENCES: Record<string, string> = {
  argc: "the directory to work in is its argument",
  utimensat: "a host file with two links is EACCES (2) to utimes",
  "utimensat omit": "a host file with two links is EACCES (2) to utimes",
  atime: "unchanged: the utimensat was refused",
  mtime: "unchanged: the utimensat was refused",
};

const label = (line: string): string => line.slice(0, line.indexOf(": "));

/**
 * Lines whose answer under Node's WASI depends on the host's clock and scheduling (uvwasi's poll_oneoff has been
 * seen to wake before a 2 ms clock subscription's time on Node 24; its CPU-time clock is the whole host
 * process's, the VM's the guest process's own): only the VM's answer is judged, by its line.
 */
const VM_ONLY = new Set(["slept at least 2 ms: 1", "slept at least 2 ms: true", "process cputime below a minute: 1"]);

function compare(known: Record<string, string>, vm: ProbeRun, node: ProbeRun): void {
  expect(vm.exitCode).toBe(0);
  expect(node.exitCode).toBe(0);
  const [a, b] = [vm.stdout.split("\n"), node.stdout.split("\n")];
  expect(a.map(label), "the same checks, in the same order").toEqual(b.map(label));
  const vmOnly = new Set([...VM_ONLY].map(label));
  for (const line of a) if (vmOnly.has(label(line))) expect(VM_ONLY).toContain(line);
  const unexpected = a.map((line, i) => [line, b[i]!]).filter(([x, y]) => x !== y && !(label(x!) in known) && !VM_ONLY.has(x!));
  expect(unexpected.map(([x, y]) => `VM ${x} | uvwasi ${y}`)).toEqual([]);
  const agreeing = Object.keys(known).filter((l) => a.every((x, i) => label(x) !== l || x === b[i]));
  expect(agreeing, "listed in KNOWN_DIFFERENCES but the same now").toEqual([]);
  expect(a.length).toBeGreaterThan(50);
}

describe("the WASI probes give Node's WASI's answers, but where it is not Linux", () => {
  for (const [probe, file] of [["c", "probe-c.wasm"], ["rust", "probe-rs.wasm"]] as const) {
    it(`${probe} (${file})`, async () => {
      const wasm = join(import.meta.dirname, "../guests/wasi-probe", file);
      const [vm, node] = [await runInVm(wasm, []), await runUnderNode(wasm, [])];
      compare(KNOWN_DIFFERENCES[probe], vm, node);
    });
  }

  it("c in a read-write host mount gives the memory file system's answers", async () => {
    const wasm = join(import.meta.dirname, "../guests/wasi-probe/probe-c.wasm");
    const host = mkdtempSync(join(tmpdir(), "wasi-probe-mount-"));
    try {
      const mounted = await runInVm(wasm, ["/mnt/rw"], [{ path: "/mnt/rw", hostDir: host, readOnly: false }]);
      compare(MOUNT_DIFFERENCES, mounted, await runInVm(wasm, []));
      expect(readdirSync(host)).toEqual([]);
    } finally {
      rmSync(host, { recursive: true, force: true });
    }
  });
});
