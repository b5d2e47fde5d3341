/*
 * Force-included before config.h in every file of GNU patch's build. gnulib's headers rename dup2, chown,
 * lchown and fchdir to their replacements, which call the originals: those must be declared before.
 * wasi-libc has no getrlimit (gnulib's getdtablesize and patch's safe.c ask for RLIMIT_NOFILE): a fixed 1024.
 */
int dup2(int, int);
int chown(const char *, unsigned, unsigned);
int lchown(const char *, unsigned, unsigned);
int fchdir(int);

#include <sys/resource.h>
#ifndef RLIMIT_NOFILE
#define RLIMIT_NOFILE 7
#define RLIM_INFINITY (~(rlim_t)0)
typedef unsigned long long rlim_t;
struct rlimit {
  rlim_t rlim_cur;
  rlim_t rlim_max;
};
static inline int getrlimit(int resource, struct rlimit *r) {
  (void)resource;
  r->rlim_cur = r->rlim_max = 1024;
  return 0;
}
#endif
