import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Peer } from "../peer.js";

/**
 * just-bash (vercel-labs): a bash interpreter written in TypeScript, running in this process over a virtual
 * filesystem. It is not a project dependency: `install()` puts the latest release into the git-ignored
 * bench/peers/just-bash/, and it is imported from there at run time.
 */
const PREFIX = resolve(dirname(fileURLToPath(import.meta.url)), "../../peers/just-bash");
const PKG_DIR = join(PREFIX, "node_modules", "just-bash");

/** The slice of just-bash's API used here (its own types live outside the project's type-check). */
interface JbFs {
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  readFileBuffer(path: string): Promise<Uint8Array>;
  stat(path: string): Promise<{ size: number }>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
}
interface JbBash {
  readonly fs: JbFs;
  exec(command: string): Promise<{ stdout: string; stderr: string; exitCode: number }>;
}
interface JustBash {
  Bash: new (options?: { fs?: JbFs; cwd?: string }) => JbBash;
  InMemoryFs: new () => JbFs;
  MountableFs: new (options: { base: JbFs }) => JbFs & { mount(mountPoint: string, fs: JbFs): void };
  OverlayFs: new (options: { root: string; mountPoint?: string; readOnly?: boolean; maxFileReadSize?: number }) => JbFs;
}

export async function install(): Promise<void> {
  if (existsSync(join(PKG_DIR, "package.json"))) return;
  if (!existsSync(join(PREFIX, "package.json"))) {
    mkdirSync(PREFIX, { recursive: true });
    writeFileSync(join(PREFIX, "package.json"), '{ "name": "just-bash-peer", "private": true }\n');
  }
  execFileSync("npm", ["install", "--prefix", PREFIX, "just-bash@latest", "--no-save", "--no-audit", "--no-fund"], {
    stdio: "inherit",
  });
}

let loaded: Promise<JustBash> | undefined;
function load(): Promise<JustBash> {
  return (loaded ??= (async () => {
    await install();
    const pkg = JSON.parse(readFileSync(join(PKG_DIR, "package.json"), "utf8")) as {
      main?: string;
      exports?: { ".": { import: { default: string } } };
    };
    const entry = pkg.exports?.["."].import.default ?? pkg.main ?? "index.js";
    return (await import(pathToFileURL(join(PKG_DIR, entry)).href)) as JustBash;
  })());
}

const peer: Peer = {
  name: "just-bash",
  root: "/home/user/bench",
  async create(options = {}) {
    const jb = await load();
    let bash: JbBash;
    if (options.mountHostDir) {
      // A Bash over its default fs gets /bin, /usr/bin, /dev, /proc, /tmp laid out; one given a MountableFs
      // does not. So lay them out on the base first with a throwaway Bash, then mount the host directory
      // through a read-only OverlayFs (writes fail with EROFS). MountableFs hands the overlay mount-relative
      // paths, hence its mountPoint "/"; the 10 MB default cap on reading host files is lifted.
      const base = new jb.InMemoryFs();
      new jb.Bash({ fs: base });
      const fs = new jb.MountableFs({ base });
      const hostDir = resolve(options.mountHostDir);
      fs.mount(`${peer.root}/mnt`, new jb.OverlayFs({ root: hostDir, mountPoint: "/", readOnly: true, maxFileReadSize: 2 ** 40 }));
      bash = new jb.Bash({ fs, cwd: peer.root });
    } else {
      bash = new jb.Bash({ cwd: peer.root });
      await bash.fs.mkdir("/tmp", { recursive: true }); // only laid out when no cwd is given
    }
    await bash.fs.mkdir(peer.root, { recursive: true });
    return {
      // Each exec() starts afresh in the constructor's cwd (env and cwd reset; the fs is shared). Some
      // failures reject instead of setting a status (e.g. `echo x > mnt/f` on the read-only mount):
      // report those as a failed command.
      async exec(command) {
        try {
          const r = await bash.exec(command);
          return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
        } catch (e) {
          return { stdout: "", stderr: `just-bash: ${e instanceof Error ? e.message : String(e)}\n`, exitCode: 1 };
        }
      },
      async writeFile(path, data) {
        await bash.fs.mkdir(dirname(path), { recursive: true });
        await bash.fs.writeFile(path, data);
      },
      readFile: (path) => bash.fs.readFileBuffer(path),
      stat: async (path) => ({ size: (await bash.fs.stat(path)).size }),
      readdir: (path) => bash.fs.readdir(path),
      dispose: async () => {}, // all in memory: nothing to release
    };
  },
};
export default peer;
