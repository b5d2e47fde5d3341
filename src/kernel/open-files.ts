import { FileType } from "../abi/wasi.js";
import type { Kernel } from "./kernel.js";
import type { OpenFile } from "./open-file.js";
import { DeviceFile, SinkFile } from "./open-file.js";
import { PipeReadEnd, PipeWriteEnd, type Pipe } from "./pipe.js";
import { PidFd } from "./pid-fd.js";
import { RoomFd } from "./room-fd.js";
import { SignalFd } from "./signal-fd.js";
import { DatagramSocket, Socket, StreamSocket } from "./socket.js";
import type { Process } from "./process.js";
import { AF } from "../abi/net.js";
import type { ListedFile, ListedFiles } from "../abi/listed-file.js";

export type { ListedFile, ListedFiles };


const TCP_STATES: Record<string, string> = { unbound: "CLOSED", bound: "CLOSED", listening: "LISTEN", connecting: "SYN_SENT", connected: "ESTABLISHED" };

/**
 * Numbers for pipes and the other inodes without a file, stable while they live: lsof's NODE. Counted per VM, so
 * that one VM's numbers say nothing of another's activity.
 */
const inodeNumbers = new WeakMap<Kernel, { numbers: WeakMap<object, number>; next: number }>();
function inodeOf(k: Kernel, o: object): number {
  let table = inodeNumbers.get(k);
  if (!table) inodeNumbers.set(k, (table = { numbers: new WeakMap(), next: 1000 }));
  let n = table.numbers.get(o);
  if (n === undefined) table.numbers.set(o, (n = table.next++));
  return n;
}

function describe(k: Kernel, fd: string, file: OpenFile): ListedFile {
  const access = file.readable && file.writable ? "u" : file.writable ? "w" : "r";
  if (file instanceof Socket) {
    const base = { fd, access, node: inodeOf(k, file), name: "" };
    if (file.domain === AF.UNIX)
      return { ...base, type: "unix", proto: file instanceof StreamSocket ? "STREAM" : "DGRAM", name: file.local?.address || file.peerAddr?.address || "", ...(file instanceof StreamSocket && { state: TCP_STATES[file.state] }) };
    return {
      ...base,
      type: file.domain === AF.INET6 ? "IPv6" : "IPv4",
      proto: file instanceof DatagramSocket ? "UDP" : "TCP",
      ...(file.local && { local: { address: file.local.address, port: file.local.port } }),
      ...(file.peerAddr && { remote: { address: file.peerAddr.address, port: file.peerAddr.port } }),
      ...(file instanceof StreamSocket && { state: TCP_STATES[file.state] }),
    };
  }
  if (file instanceof PipeReadEnd || file instanceof PipeWriteEnd) return { fd, access, type: "FIFO", node: inodeOf(k, (file as { pipe: Pipe }).pipe), name: "pipe" };
  // The host's end of an exec's output: a pipe to the process that reads it.
  if (file instanceof SinkFile) return { fd, access, type: "FIFO", node: inodeOf(k, file), name: "pipe" };
  if (file instanceof PidFd) return { fd, access, type: "a_inode", node: inodeOf(k, file), name: "[pidfd]" };
  if (file instanceof SignalFd) return { fd, access, type: "a_inode", node: inodeOf(k, file), name: "[signalfd]" };
  if (file instanceof RoomFd) return { fd, access, type: "a_inode", node: inodeOf(k, file), name: "[roomfd]" };
  const st = file.stat();
  const type = file instanceof DeviceFile ? "CHR" : file.filetype === FileType.DIRECTORY ? "DIR" : file.filetype === FileType.REGULAR_FILE ? "REG" : "CHR";
  return { fd, access, type, dev: st.dev, ...(type === "REG" || type === "DIR" ? { size: st.size } : {}), node: st.ino, name: file.path ?? "" };
}

/** A directory of the VM's file system as lsof shows a process's cwd and rtd. */
function directory(k: Kernel, fd: string, path: string): ListedFile {
  try {
    const st = k.vfs.stat(path);
    return { fd, access: "", type: "DIR", dev: st.dev, size: st.size, node: st.ino, name: path };
  } catch {
    return { fd, access: "", type: "DIR", name: path };
  }
}

/** The open files of the VM's running processes (of `pid` alone when it is not 0), in pid and fd order. */
export function listOpenFiles(k: Kernel, pid: number): ListedFiles[] {
  const out: ListedFiles[] = [];
  const processes: Process[] = k.processes.all().filter((p) => p.state !== "exited" && (pid === 0 || p.pid === pid));
  for (const p of processes.sort((a, b) => a.pid - b.pid)) {
    const a0 = p.argv[0] ?? "";
    const files = [directory(k, "cwd", p.cwd), directory(k, "rtd", "/")];
    for (const [fd, file] of p.fds.entries()) files.push(describe(k, String(fd), file));
    out.push({ pid: p.pid, command: a0.slice(a0.lastIndexOf("/") + 1), files });
  }
  return out;
}
