import type { CommandContext, CommandHandler } from "../commands/command.js";
import { FileType, Signal } from "../abi/wasi.js";
import { KernelError } from "./kernel-error.js";
import type { Kernel } from "./kernel.js";
import { join } from "./path.js";
import type { Process } from "./process.js";

const encoder = new TextEncoder();
const toBytes = (d: Uint8Array | string): Uint8Array => (typeof d === "string" ? encoder.encode(d) : d);
const READ_CHUNK = 64 * 1024;

/**
 * Runs `p` as a TypeScript command on the kernel's thread. It is a process like any other: its stdio are
 * its fds 0–2 (pipes, files, sinks) and its paths resolve against its cwd.
 */
export function startTsProcess(k: Kernel, p: Process, handler: CommandHandler): void {
  p.runner = { terminate: () => k.exitProcess(p, 0) };
  const resolve = (path: string): string => join(p.cwd, path);
  const readStdin = async (): Promise<Uint8Array | null> => {
    const buf = new Uint8Array(READ_CHUNK);
    const n = await p.fds.get(0).read(buf, p.killSignal);
    return n === 0 ? null : buf.subarray(0, n);
  };
  const ctx: CommandContext = {
    argv: p.argv,
    env: p.env,
    cwd: p.cwd,
    signal: p.killSignal,
    readStdin,
    async readAllStdin() {
      const chunks: Uint8Array[] = [];
      for (let c = await readStdin(); c; c = await readStdin()) chunks.push(c);
      return Buffer.concat(chunks);
    },
    writeStdout: (d) => void p.fds.get(1).write(toBytes(d)),
    writeStderr: (d) => void p.fds.get(2).write(toBytes(d)),
    fs: {
      readFile: (path) => k.vfs.readFile(resolve(path)),
      writeFile: (path, data) => k.vfs.writeFile(resolve(path), data),
      exists: (path) => k.vfs.exists(resolve(path)),
      isFile: (path) => k.vfs.typeOf(resolve(path)) === FileType.REGULAR_FILE,
    },
  };
  Promise.resolve()
    .then(() => handler(ctx))
    .then(
      (code) => k.exitProcess(p, typeof code === "number" ? code : 0),
      (error: unknown) => {
        if (p.state === "exited") return;
        // A write to a pipe nobody reads raises SIGPIPE, which ends the process quietly.
        if (error instanceof KernelError && error.code === "EPIPE") return p.kill(Signal.SIGPIPE);
        p.tellStderr(`${p.command}: ${error instanceof Error ? error.message : String(error)}\n`);
        k.exitProcess(p, 1);
      },
    );
}
