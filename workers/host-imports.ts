import { Errno } from "../src/abi/errno.js";
import { Sys } from "../src/abi/syscalls.js";
import type { GuestMemory } from "./guest-memory.js";
import type { KernelClient } from "./kernel-client.js";

const encoder = new TextEncoder();

/** host_process, host_fs and host_user: the runtime's own imports (guest-abi §2). */
export function hostImports(mem: GuestMemory, k: KernelClient) {
  const outU32 = (ptr: number, err: number, i = 0): number => {
    if (err === Errno.SUCCESS) mem.u32(ptr, k.out(i));
    return err;
  };

  const host_process = {
    proc_spawn(
      argvPtr: number,
      argvLen: number,
      envpPtr: number,
      envpLen: number,
      stdinFd: number,
      stdoutFd: number,
      stderrFd: number,
      cwdPtr: number,
      cwdLen: number,
      retPidPtr: number,
    ): number {
      const err = k.callWithFields(
        Sys.SPAWN,
        [stdinFd, stdoutFd, stderrFd],
        [mem.slice(argvPtr, argvLen), mem.slice(envpPtr, envpLen), mem.slice(cwdPtr, cwdLen)],
      );
      return outU32(retPidPtr, err);
    },
    /**
     * proc_spawn_fds(argv_ptr, argv_len, envp_ptr, envp_len, stdin_fd, stdout_fd, stderr_fd, cwd_ptr, cwd_len,
     * fds_ptr, fds_count, ret_pid_ptr) -> errno: proc_spawn, and the child also gets the caller's fds listed
     * at fds_ptr, `fds_count` u32 pairs (child's fd > 2, caller's fd), as a command gets a shell's open fds
     * (`exec 3>f; cmd`, `cmd 3<f`). EBADF for a closed fd of the caller's or a child's fd not in
     * 3..maxOpenFds-1. A WebAssembly child finds its root preopen after them (fd_prestat_get); a runtime
     * script passes them on to the commands it starts (Process.passesOnFds).
     */
    proc_spawn_fds(
      argvPtr: number,
      argvLen: number,
      envpPtr: number,
      envpLen: number,
      stdinFd: number,
      stdoutFd: number,
      stderrFd: number,
      cwdPtr: number,
      cwdLen: number,
      fdsPtr: number,
      fdsCount: number,
      retPidPtr: number,
    ): number {
      const err = k.callWithFields(
        Sys.SPAWN,
        [stdinFd, stdoutFd, stderrFd],
        [mem.slice(argvPtr, argvLen), mem.slice(envpPtr, envpLen), mem.slice(cwdPtr, cwdLen), mem.slice(fdsPtr, fdsCount * 8)],
      );
      return outU32(retPidPtr, err);
    },
    proc_waitpid: (pid: number, options: number, retStatusPtr: number) =>
      outU32(retStatusPtr, k.call(Sys.WAITPID, [pid, options])),
    fd_pipe(retReadPtr: number, retWritePtr: number): number {
      const err = k.call(Sys.PIPE);
      if (err === Errno.SUCCESS) {
        mem.u32(retReadPtr, k.out(0));
        mem.u32(retWritePtr, k.out(1));
      }
      return err;
    },
    fd_dup: (fd: number, retPtr: number) => outU32(retPtr, k.call(Sys.DUP, [fd])),
    /**
     * proc_pidfd(pid, ret_fd_ptr) -> errno: a new fd (lowest free) for a child of the caller that reads end
     * of file, and polls readable with hang-up (poll_oneoff FD_READ), once the child has exited; reading
     * before parks, or answers EAGAIN with NONBLOCK. proc_waitpid then returns at once. ESRCH when `pid`
     * is not the caller's child (or was already waited for). Close it with fd_close.
     */
    proc_pidfd: (pid: number, retFdPtr: number) => outU32(retFdPtr, k.call(Sys.PIDFD, [pid])),
    /**
     * proc_roomfd(ret_fd_ptr) -> errno: a new fd (lowest free) that reads end of file, and polls readable
     * with hang-up (poll_oneoff FD_READ), while the VM could start a process: fewer than maxProcesses run
     * and the worker pool has room. Reading before parks, or answers EAGAIN with NONBLOCK. A shell whose
     * proc_spawn failed with EAGAIN waits on it before trying again. Close it with fd_close.
     */
    proc_roomfd: (retFdPtr: number) => outU32(retFdPtr, k.call(Sys.ROOMFD)),
    proc_kill: (pid: number, signal: number) => k.call(Sys.KILL, [pid, signal]),
    /**
     * proc_sigcatch(mask, ret_fd_ptr) -> errno: the signals whose bit is set in `mask` are caught from now
     * on (SIGKILL and SIGSTOP cannot be): they are queued instead of ending the process, and `ret_fd` reads
     * one byte, the signal's number, per pending signal (it polls readable while one is).
     */
    proc_sigcatch: (mask: number, retFdPtr: number) => outU32(retFdPtr, k.call(Sys.SIGCATCH, [mask])),
    proc_getpid: (retPtr: number) => outU32(retPtr, k.call(Sys.GETPID)),
    /**
     * proc_spawn_error(buf, buf_len, ret_len_ptr) -> errno: why the last proc_spawn could not exec the
     * program, as bash words it after the program's name (`./x.sh: Permission denied`), cut at buf_len;
     * ENOENT when the last spawn did not fail that way. The shell prints it.
     */
    proc_spawn_error(buf: number, bufLen: number, retLenPtr: number): number {
      const err = k.call(Sys.SPAWNERROR);
      if (err !== Errno.SUCCESS) return err;
      const n = Math.min(k.replyLength, bufLen);
      mem.bytes.set(k.data.subarray(0, n), buf);
      mem.u32(retLenPtr, n);
      return Errno.SUCCESS;
    },
    /**
     * proc_getcwd(buf, buf_len, ret_len_ptr) -> errno: the process's working directory, absolute, not
     * NUL-terminated; ERANGE when it does not fit. The binaries built in guests/ chdir to it at start.
     */
    proc_getcwd(buf: number, bufLen: number, retLenPtr: number): number {
      const err = k.call(Sys.GETCWD);
      if (err !== Errno.SUCCESS) return err;
      if (k.replyLength > bufLen) return Errno.ERANGE;
      mem.bytes.set(k.data.subarray(0, k.replyLength), buf);
      mem.u32(retLenPtr, k.replyLength);
      return Errno.SUCCESS;
    },
    sleep_ms: (ms: number) => k.call(Sys.SLEEP, [ms]),
  };

  const host_fs = {
    path_mode(pathPtr: number, pathLen: number, follow: number): number {
      return k.callWith(Sys.PATHMODE, [follow], mem.slice(pathPtr, pathLen)) === Errno.SUCCESS ? k.out(0) : 0;
    },
    fd_mode: (fd: number) => (k.call(Sys.FDMODE, [fd]) === Errno.SUCCESS ? k.out(0) : 0),
    chmod: (pathPtr: number, pathLen: number, mode: number) =>
      k.callWith(Sys.CHMOD, [mode], mem.slice(pathPtr, pathLen)),
  };

  const host_user = {
    isatty: (fd: number, retPtr: number) => outU32(retPtr, k.call(Sys.ISATTY, [fd])),
    getpwuid(uid: number, buf: number, bufLen: number, retLenPtr: number): number {
      const entry = encoder.encode(
        uid === 0 ? "root:x:0:0:root:/root:/bin/sh" : `user:x:${uid}:${uid}:user:/home/user:/bin/sh`,
      );
      if (entry.length > bufLen) return Errno.E2BIG;
      mem.bytes.set(entry, buf);
      mem.u32(retLenPtr, entry.length);
      return Errno.SUCCESS;
    },
  };

  return { host_process, host_fs, host_user };
}
