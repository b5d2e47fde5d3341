/*
 * Force-included before config.h in every file of wget's build (guests/c.ts WGET). gnulib's headers rename
 * dup2, chown, lchown and fchdir to their replacements, which call the originals: those must be declared
 * before; so must pipe2, which gnulib replaces with a wrapper calling it. wasi-libc has no getrlimit
 * (gnulib's getdtablesize asks for RLIMIT_NOFILE): a fixed 1024. environ and the set*id calls of gnulib's
 * posix_spawn are declared by wasi-libc only for _GNU_SOURCE.
 */
int dup2(int, int);
int chown(const char *, unsigned, unsigned);
int lchown(const char *, unsigned, unsigned);
int fchdir(int);
int pipe2(int[2], int);
int setresuid(unsigned, unsigned, unsigned);
int setresgid(unsigned, unsigned, unsigned);
extern char **environ;

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
