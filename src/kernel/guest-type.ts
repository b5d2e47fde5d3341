import { FileType } from "../abi/wasi.js";
import type { FileStat } from "../abi/filestat.js";
import { DeviceFile, SinkFile, type OpenFile } from "./open-file.js";
import { PipeReadEnd, PipeWriteEnd } from "./pipe.js";

const S_IFIFO = 0o010000;
const S_IFCHR = 0o020000;
const S_IFREG = 0o100000;

/** st_mode of /dev/null, /dev/zero and /dev/urandom as Linux has it. */
const DEVICE_MODE = S_IFCHR | 0o666;

/**
 * What an open file is, as a guest is shown it: fd_filestat_get and host_fs.fd_mode of an fd, and
 * path_filestat_get and host_fs.path_mode of /dev/stdin, /dev/stdout and /dev/stderr (which name the
 * caller's fd 0, 1 and 2, as Linux's /proc/self/fd/N links do; here they are not links themselves).
 *
 * A file of the file system is itself. On Linux a pipe is a FIFO (prw-------), the exec's output is a
 * pipe into the host, and the devices are character devices. The shell is shown exactly that (its
 * `[ -f ]`, `[ -c ]` and `[ -p ]` look at the type bits of path_mode).
 *
 * The tools are shown regular files instead (pipes and the host's output rw-------, the devices
 * rw-rw-rw-): their standard library for WASI takes a file's type from the type bits of
 * path_mode/fd_mode when they are not 0 (else from the filestat's filetype), and reads nothing that is
 * not S_IFREG, S_IFDIR or S_IFLNK: `cat /dev/stdin` from a pipe would fail with "unknown filetype" and
 * `cp /dev/stdin f` with "neither a regular file nor a symlink to a regular file", as `cat /dev/null`
 * would. A regular file that is a pipe has size 0; the tools read such files to end of file (measured
 * with cat, cp, tail, wc, head, base64, md5sum, gzip, grep, sed, awk, du on /dev/stdin).
 */
export function shownType(file: OpenFile, toShell: boolean): { stat: FileStat; mode: number } {
  const stat = file.stat();
  if (file instanceof DeviceFile) {
    return toShell
      ? { stat: { ...stat, filetype: FileType.CHARACTER_DEVICE }, mode: DEVICE_MODE }
      : { stat, mode: file.mode() };
  }
  const isStream = file instanceof PipeReadEnd || file instanceof PipeWriteEnd || file instanceof SinkFile;
  if (!isStream) return { stat, mode: file.mode() }; // a file of the file system, or a pidfd (mode 0)
  return toShell
    ? { stat: { ...stat, filetype: FileType.UNKNOWN }, mode: S_IFIFO | 0o600 } // WASI has no FIFO type
    : { stat: { ...stat, filetype: FileType.REGULAR_FILE }, mode: S_IFREG | 0o600 };
}
