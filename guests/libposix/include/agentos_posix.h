/*
 * libagentos_posix: the POSIX process, user and permission calls wasi-libc lacks, on the VM's own imports
 * (host_process, host_fs, host_user). Force-included (-include agentos_posix.h) into every C guest, so a
 * program finds them where POSIX puts them. There is no fork: children are started with agentos_spawnvpe.
 */
#ifndef AGENTOS_POSIX_H
#define AGENTOS_POSIX_H
#include <sys/types.h>
#include <stdio.h>
#include <signal.h>
#include <unistd.h>
#include <sys/stat.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Starts `file` (looked up in PATH by the kernel) with argv and the full environment envp (NULL: environ), in
 * directory `dir` (NULL: the current one), stdio from the caller's fds in, out, err (-1: /dev/null). No other fd
 * is passed on. Returns the child's pid, or -1 with errno (ENOENT: no such command). */
pid_t agentos_spawnvpe(const char *file, char *const argv[], char *const envp[], const char *dir, int in, int out, int err);
/* agentos_spawnvpe, and the caller's fds keep[0..nkeep) (each > 2) are the child's at the same numbers, as after
 * fork with those fds left open across exec. */
pid_t agentos_spawnfds(const char *file, char *const argv[], char *const envp[], const char *dir, int in, int out, int err,
                       const int *keep, size_t nkeep);

pid_t fork(void);
pid_t vfork(void);
int execv(const char *, char *const[]);
int execvp(const char *, char *const[]);
int execve(const char *, char *const[], char *const[]);
int execl(const char *, const char *, ...);
int execlp(const char *, const char *, ...);
int pipe(int[2]);
int pipe2(int[2], int);
int dup(int);
int dup2(int, int);
pid_t getppid(void);
pid_t setsid(void);
pid_t getpgid(pid_t);
pid_t getpgrp(void);
pid_t tcgetpgrp(int);
int setpgid(pid_t, pid_t);
uid_t getuid(void);
uid_t geteuid(void);
gid_t getgid(void);
gid_t getegid(void);
int chown(const char *, uid_t, gid_t);
int fchown(int, uid_t, gid_t);
int lchown(const char *, uid_t, gid_t);
mode_t umask(mode_t);
int chmod(const char *, mode_t);
int fchmod(int, mode_t);
int kill(pid_t, int);
/* Recorded only: a handler runs when the process raises its signal itself (wasi-emulated-signal). */
struct sigaction {
  void (*sa_handler)(int);
  sigset_t sa_mask;
  int sa_flags;
};
int sigaction(int, const struct sigaction *__restrict, struct sigaction *__restrict);
int sigprocmask(int, const sigset_t *__restrict, sigset_t *__restrict);
int sigemptyset(sigset_t *);
int sigfillset(sigset_t *);
int sigaddset(sigset_t *, int);
int sigdelset(sigset_t *, int);
int sigismember(const sigset_t *, int);
unsigned alarm(unsigned);
int getpagesize(void);
FILE *popen(const char *, const char *);
int pclose(FILE *);
char *realpath(const char *__restrict, char *__restrict);
int mkstemp(char *);
int mkstemps(char *, int);
char *mkdtemp(char *);
int system(const char *);
char *getpass(const char *);
int gethostname(char *, size_t);
/* One thread: stdio needs no locks. */
static inline void flockfile(FILE *f) { (void)f; }
static inline void funlockfile(FILE *f) { (void)f; }
#ifndef SIG_BLOCK
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#endif
#ifndef ITIMER_REAL
#define ITIMER_REAL 0
#endif
#ifndef SA_RESTART
#define SA_RESTART 0x10000000
#endif

#ifdef __cplusplus
}
#endif
#endif
