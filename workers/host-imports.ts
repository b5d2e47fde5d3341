import { Errno } from "../src/abi/errno.js";
import { FILESTAT_SIZE } from "../src/abi/filestat.js";
import { Sys } from "../src/abi/syscalls.js";
import { UMASK, VM_USER } from "../src/abi/user.js";
import type { GuestMemory } from "./guest-memory.js";
import type { KernelClient } from "./kernel-client.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** ECHILD as preview1 numbers it (Errno.ECHILD is 10, the published binaries' reading of it). */
const WASI_ECHILD = 12;

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
    /** proc_getppid(ret_pid_ptr) -> errno: the parent's pid; 0 for a process the host started (the API's exec and spawn). */
    proc_getppid: (retPtr: number) => outU32(retPtr, k.call(Sys.GETPPID)),
    /**
     * proc_wait(pid, options, ret_status_ptr, ret_pid_ptr) -> errno: POSIX's waitpid, which proc_waitpid is not
     * (its convention is the published binaries'): pid 0xFFFFFFFF waits for any child, and the pid collected is
     * written too; WNOHANG while every child runs answers pid 0 (status 0); ECHILD when there is no such child:
     * WASI's number for it (12), which wasi-libc's errno.h calls ECHILD, not the 10 of proc_waitpid's convention.
     */
    proc_wait(pid: number, options: number, retStatusPtr: number, retPidPtr: number): number {
      const err = k.call(Sys.WAIT, [pid, options]);
      if (err === Errno.ECHILD) return WASI_ECHILD;
      if (err === Errno.SUCCESS) {
        mem.u32(retStatusPtr, k.out(0));
        mem.u32(retPidPtr, k.out(1));
      }
      return err;
    },
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

  /** After a STAT or FSTAT reply: the filestat, then st_mode, the owner and the group (STAT_BYTES in all). */
  const statReply = (ptr: number, err: number): number => {
    if (err !== Errno.SUCCESS) return err;
    mem.bytes.set(k.data.subarray(0, FILESTAT_SIZE), ptr);
    mem.u32(ptr + FILESTAT_SIZE, k.out(0));
    mem.u32(ptr + FILESTAT_SIZE + 4, VM_USER.uid);
    mem.u32(ptr + FILESTAT_SIZE + 8, VM_USER.gid);
    return Errno.SUCCESS;
  };

  const host_fs = {
    path_mode(pathPtr: number, pathLen: number, follow: number): number {
      return k.callWith(Sys.PATHMODE, [follow], mem.slice(pathPtr, pathLen)) === Errno.SUCCESS ? k.out(0) : 0;
    },
    fd_mode: (fd: number) => (k.call(Sys.FDMODE, [fd]) === Errno.SUCCESS ? k.out(0) : 0),
    chmod: (pathPtr: number, pathLen: number, mode: number) =>
      k.callWith(Sys.CHMOD, [mode], mem.slice(pathPtr, pathLen)),
    /**
     * path_stat(dirfd, lookup_flags, path_ptr, path_len, ret_ptr) -> errno: path_filestat_get and what preview1's
     * filestat lacks, in one call: the 64-byte filestat, then u32 st_mode (type and permission bits), u32 uid,
     * u32 gid (76 bytes). SYMLINK_FOLLOW (1) in lookup_flags follows a symlink at the end.
     */
    path_stat(dirfd: number, flags: number, pathPtr: number, pathLen: number, retPtr: number): number {
      const path = mem.slice(pathPtr, pathLen);
      const kept = k.listedStats?.lookup(dirfd, decoder.decode(path), (flags & 1) === 1);
      if (!kept) return statReply(retPtr, k.callWith(Sys.STAT, [dirfd, flags & 1], path));
      mem.bytes.set(kept, retPtr);
      mem.u32(retPtr + FILESTAT_SIZE + 4, VM_USER.uid);
      mem.u32(retPtr + FILESTAT_SIZE + 8, VM_USER.gid);
      return Errno.SUCCESS;
    },
    /** fd_stat(fd, ret_ptr) -> errno: fd_filestat_get and st_mode, uid, gid, laid out as path_stat's. */
    fd_stat: (fd: number, retPtr: number) => statReply(retPtr, k.call(Sys.FSTAT, [fd])),
    /** fd_chmod(fd, mode) -> errno: fchmod; mode keeps 0o7777. A pipe or socket has nothing to change (success). */
    fd_chmod: (fd: number, mode: number) => k.call(Sys.FCHMOD, [fd, mode]),
    /** chmod_at(dirfd, path_ptr, path_len, mode) -> errno: fchmodat, the path relative to dirfd as path_* paths; links followed. */
    chmod_at: (dirfd: number, pathPtr: number, pathLen: number, mode: number) =>
      k.callWith(Sys.CHMODAT, [dirfd, mode], mem.slice(pathPtr, pathLen)),
    /** umask(ret_mask_ptr) -> errno: the file mode creation mask, the VM's (0o022 for every process, fixed). */
    umask: (retPtr: number) => (mem.u32(retPtr, UMASK), Errno.SUCCESS),
  };

  const host_user = {
    isatty: (fd: number, retPtr: number) => outU32(retPtr, k.call(Sys.ISATTY, [fd])),
    /** getids(ret_ptr) -> errno: u32 uid, euid, gid, egid: the VM's one user's, for every process. */
    getids(retPtr: number): number {
      [VM_USER.uid, VM_USER.uid, VM_USER.gid, VM_USER.gid].forEach((id, i) => mem.u32(retPtr + 4 * i, id));
      return Errno.SUCCESS;
    },
    getpwuid(uid: number, buf: number, bufLen: number, retLenPtr: number): number {
      const { name, home, shell } = VM_USER;
      const entry = encoder.encode(uid === 0 ? "root:x:0:0:root:/root:/bin/sh" : `${name}:x:${uid}:${uid}:${name}:${home}:${shell}`);
      if (entry.length > bufLen) return Errno.E2BIG;
      mem.bytes.set(entry, buf);
      mem.u32(retLenPtr, entry.length);
      return Errno.SUCCESS;
    },
  };

  return { host_process, host_fs, host_user };
}
