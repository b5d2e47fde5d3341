/* What GNU patch needs of WASI beyond guests/libposix (guests/patch/README.md). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>

/* WASI has no fchdir: gnulib's *at fallbacks that would need it fail with ENOSYS. */
int fchdir(int fd) {
  (void)fd;
  errno = ENOSYS;
  return -1;
}

/*
 * patch's safe_* functions walk a path with directory fds (openat, fstatat, fchmodat on each component).
 * preview1's filestat has no permission bits, and the VM's modes are asked by path (libposix's stat wrappers):
 * patch runs as it does for a file named on its command line (`unsafe`), with plain path calls. Names with
 * `..` are still refused by its own check (pch.c).
 */
extern bool unsafe;
__attribute__((constructor)) static void paths_as_given(void) { unsafe = true; }

/* fstatat(AT_FDCWD, …) with the mode bits, as stat and lstat (linked with --wrap=fstatat). */
int __real_fstatat(int, const char *restrict, struct stat *restrict, int);
int __wrap_stat(const char *restrict, struct stat *restrict);
int __wrap_lstat(const char *restrict, struct stat *restrict);
int __wrap_fstatat(int dirfd, const char *restrict path, struct stat *restrict st, int flags) {
  if (dirfd != AT_FDCWD && path[0] != '/') return __real_fstatat(dirfd, path, st, flags);
  return flags & AT_SYMLINK_NOFOLLOW ? __wrap_lstat(path, st) : __wrap_stat(path, st);
}
