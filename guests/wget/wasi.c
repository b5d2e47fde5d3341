/* What wget needs of WASI beyond guests/libposix (guests/wget/README.md). */
#include <errno.h>

/* WASI has no fchdir: gnulib's *at fallbacks that would need it fail with ENOSYS. */
int fchdir(int fd) {
  (void)fd;
  errno = ENOSYS;
  return -1;
}

/* One user in the VM: gnulib's posix_spawn (only --use-askpass starts a program) changes no ids. */
int setresuid(unsigned r, unsigned e, unsigned s) {
  (void)r, (void)e, (void)s;
  return 0;
}
int setresgid(unsigned r, unsigned e, unsigned s) {
  (void)r, (void)e, (void)s;
  return 0;
}

/*
 * wget locks its HSTS database (~/.wget-hsts) while it merges its entries in. WASI has no file locks; the
 * merge re-reads the file under the lock, so two wgets at once may each keep their own new entries only.
 */
int flock(int fd, int op) {
  (void)fd, (void)op;
  return 0;
}
