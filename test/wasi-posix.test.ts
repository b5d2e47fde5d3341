import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentOs } from "../src/index.js";

/**
 * The runtime's imports for a C program's POSIX layer (README "Your own WebAssembly commands"), through
 * guests/wasi-probe/posix.c: the real pid and parent pid, POSIX waitpid with the pid it collected, st_mode and
 * owner, fchmod and fchmodat, umask, the user's ids, preview1's proc_raise, and a child started in "/" by a
 * user's command that knows its directory.
 */
describe("host imports beyond preview1", () => {
  it("answer a C program as POSIX does", async () => {
    const vm = await AgentOs.create({ commands: { "posix-probe": { wasm: join(import.meta.dirname, "../guests/wasi-probe/posix-probe.wasm") } } });
    try {
      const r = await vm.exec("posix-probe; echo $$", { cwd: "/home/user" });
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      const lines = r.stdout.trimEnd().split("\n");
      const shellPid = lines.pop();
      const pid = /^pid: (\d+)$/.exec(lines[0]!)?.[1];
      expect(Number(pid)).toBeGreaterThan(Number(shellPid));
      expect(lines.slice(1)).toEqual([
        `ppid: ${shellPid}`,
        "cwd: /home/user",
        "child cwd: /",
        "wait any: errno 0, reaped the child 1, exit 3",
        "wait with no children: errno 12",
        "wait nohang running: errno 0, pid 0",
        "wait: errno 0, reaped cat 1, status 0",
        "wait again: errno 12",
        "fd_stat: type 4 mode 100644 uid 1000 gid 1000 size 3",
        "fd_chmod: errno 0",
        "fd_stat after fd_chmod: type 4 mode 100600 uid 1000 gid 1000 size 3",
        "chmod_at: errno 0",
        "path_stat: type 4 mode 100640 uid 1000 gid 1000 size 3",
        "chmod_at missing: errno 44",
        "path_stat missing: errno 44",
        "path_stat dir: type 3 mode 40755 uid 1000 gid 1000 size 0",
        "fd_stat bad fd: errno 8",
        "raise CHLD: errno 0",
        "raise STOP: errno 58",
        "raise 31: errno 28",
        "raise TERM: errno 0, status 15",
        "umask: 22",
        "ids: 1000 1000 1000 1000",
      ]);
      expect(await vm.exists("/home/user/posix-probe.txt")).toBe(false);
    } finally {
      await vm.dispose();
    }
  });

  it("sock_send, sock_recv (PEEK, WAITALL) and sock_shutdown work on a socket a program inherits", async () => {
    // Node's stdio past fd 2 is a socket pair: the child's fd 3. The parent answers "ping" in two writes.
    const parent = `
      const { spawn } = require('child_process');
      const c = spawn('sock-probe', [], { stdio: ['ignore', 'inherit', 'inherit', 'pipe'] });
      const s = c.stdio[3];
      let got = '';
      s.on('data', (d) => {
        got += d;
        if (got === 'ping') { s.write('pon'); setImmediate(() => s.write('g-1234')); }
      });
      // Written at once (console.log to a pipe is asynchronous): the child's next line must come after it.
      s.on('end', () => { require('fs').writeSync(1, 'parent got ' + JSON.stringify(got) + ', then end of file\\n'); s.end(); });
      c.on('exit', (code) => console.log('exit ' + code));
    `;
    const vm = await AgentOs.create({
      commands: { "sock-probe": { wasm: join(import.meta.dirname, "../guests/wasi-probe/sock-probe.wasm") } },
      files: { "/home/user/parent.js": parent },
    });
    try {
      expect(await vm.exec("node parent.js")).toEqual({
        exitCode: 0,
        stdout: [
          "send: 4",
          "peek: 2 po",
          "recv waitall: 9 pong-1234",
          "shutdown: 0",
          'parent got "ping", then end of file',
          "recv at end: 0",
          "shutdown a non-socket: -1 ENOTSOCK",
          "exit 0",
          "",
        ].join("\n"),
        stderr: "",
      });
    } finally {
      await vm.dispose();
    }
  });
});
