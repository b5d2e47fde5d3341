import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Peer } from "../peer.js";

/** The machine itself: `/bin/sh -c` with its native tools in a temp directory, node:fs for the API rows. */
const peer: Peer = {
  name: "host",
  // Each instance is a new temp directory; API paths under this stand-in root map into it.
  root: "/ROOT",
  async create(options = {}) {
    const root = mkdtempSync(join(tmpdir(), "agentos-peer-host-"));
    if (options.mountHostDir) symlinkSync(options.mountHostDir, join(root, "mnt"));
    const local = (path: string): string => join(root, path.startsWith(peer.root) ? path.slice(peer.root.length) : path);
    return {
      async exec(command) {
        const r = spawnSync("/bin/sh", ["-c", command], { cwd: root, encoding: "utf8", maxBuffer: 1 << 30 });
        return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? 128 };
      },
      async writeFile(path, data) {
        mkdirSync(dirname(local(path)), { recursive: true });
        writeFileSync(local(path), data);
      },
      readFile: async (path) => readFileSync(local(path)),
      stat: async (path) => statSync(local(path)),
      readdir: async (path) => readdirSync(local(path)),
      dispose: async () => rmSync(root, { recursive: true, force: true }),
    };
  },
};
export default peer;
