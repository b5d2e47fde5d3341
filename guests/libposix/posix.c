// libagentos_posix: POSIX processes, pipes, users and permissions for C guests, on the VM's imports beyond
// preview1 (README "Your own WebAssembly commands"). There is no fork: every child is started by the kernel's
// spawn (agentos_spawnvpe), and exec* is emulated as spawn, wait and exit, as Windows' C runtime does.
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <grp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <wasi/api.h>
#include <wasi/libc-find-relpath.h>

#define IMPORT(module, name) __attribute__((import_module(module), import_name(name)))

IMPORT("host_process", "proc_spawn_fds")
uint32_t ao_proc_spawn_fds(const char *argv, uint32_t argv_len, const char *envp, uint32_t envp_len, uint32_t in, uint32_t out,
                           uint32_t err, const char *cwd, uint32_t cwd_len, const uint32_t *fds, uint32_t fds_count, uint32_t *pid);
IMPORT("host_process", "proc_wait") uint32_t ao_proc_wait(uint32_t pid, uint32_t options, uint32_t *status, uint32_t *reaped);
IMPORT("host_process", "fd_pipe") uint32_t ao_fd_pipe(uint32_t *r, uint32_t *w);
IMPORT("host_process", "fd_dup") uint32_t ao_fd_dup(uint32_t fd, uint32_t *newfd);
IMPORT("host_process", "proc_kill") uint32_t ao_proc_kill(uint32_t pid, uint32_t signal);
IMPORT("host_process", "proc_getpid") uint32_t ao_proc_getpid(uint32_t *pid);
IMPORT("host_process", "proc_getppid") uint32_t ao_proc_getppid(uint32_t *pid);
IMPORT("host_fs", "path_stat") uint32_t ao_path_stat(uint32_t dirfd, uint32_t flags, const char *path, uint32_t len, void *out);
IMPORT("host_fs", "fd_stat") uint32_t ao_fd_stat(uint32_t fd, void *out);
IMPORT("host_fs", "fd_chmod") uint32_t ao_fd_chmod(uint32_t fd, uint32_t mode);
IMPORT("host_fs", "chmod_at") uint32_t ao_chmod_at(uint32_t dirfd, const char *path, uint32_t len, uint32_t mode);
IMPORT("host_user", "isatty") uint32_t ao_isatty(uint32_t fd, uint32_t *yes);
IMPORT("host_user", "getids") uint32_t ao_getids(uint32_t ids[4]);
IMPORT("host_user", "getpwuid") uint32_t ao_getpwuid(uint32_t uid, char *buf, uint32_t len, uint32_t *used);

#define STDIO_DEVNULL 0xFFFFFFFFu

static int fail(uint32_t err) {
  errno = (int)err;
  return -1;
}

// ---- processes ----

// The NUL-terminated strings of a vector, joined (each keeps its NUL), as proc_spawn takes argv and envp.
static char *join_nul(char *const v[], uint32_t *len) {
  size_t n = 0;
  for (size_t i = 0; v && v[i]; i++) n += strlen(v[i]) + 1;
  char *out = malloc(n ? n : 1), *p = out;
  if (!out) return NULL;
  for (size_t i = 0; v && v[i]; i++) {
    size_t l = strlen(v[i]) + 1;
    memcpy(p, v[i], l);
    p += l;
  }
  *len = (uint32_t)n;
  return out;
}

pid_t agentos_spawnvpe(const char *file, char *const argv[], char *const envp[], const char *dir, int in, int out, int err) {
  return agentos_spawnfds(file, argv, envp, dir, in, out, err, NULL, 0);
}

pid_t agentos_spawnfds(const char *file, char *const argv[], char *const envp[], const char *dir, int in, int out, int err,
                       const int *keep, size_t nkeep) {
  extern char **environ;
  // The kernel resolves argv[0]: a different `file` takes its place.
  size_t argc = 0;
  while (argv[argc]) argc++;
  char **args = malloc((argc + 1) * sizeof *args);
  if (!args) return fail(ENOMEM);
  memcpy(args, argv, (argc + 1) * sizeof *args);
  if (file && argc) args[0] = (char *)file;
  uint32_t argv_len = 0, envp_len = 0;
  char *a = join_nul(args, &argv_len);
  char *e = join_nul(envp ? envp : environ, &envp_len);
  free(args);
  // The kernel does not know libc's working directory (chdir moves libc only): send it, joined with `dir`.
  char cwd[PATH_MAX * 2];
  if (!getcwd(cwd, PATH_MAX)) strcpy(cwd, "/");
  if (dir && dir[0] == '/') snprintf(cwd, sizeof cwd, "%s", dir);
  else if (dir && dir[0]) {
    size_t l = strlen(cwd);
    snprintf(cwd + l, sizeof cwd - l, "%s%s", cwd[l - 1] == '/' ? "" : "/", dir);
  }
  // Each kept fd goes to the child at its own number: (child's fd, caller's fd) pairs.
  uint32_t *pairs = nkeep ? malloc(nkeep * 2 * sizeof *pairs) : NULL;
  for (size_t i = 0; pairs && i < nkeep; i++) pairs[2 * i] = pairs[2 * i + 1] = (uint32_t)keep[i];
  uint32_t pid = 0;
  uint32_t r = a && e && (pairs || !nkeep)
                   ? ao_proc_spawn_fds(a, argv_len, e, envp_len, in < 0 ? STDIO_DEVNULL : (uint32_t)in,
                                       out < 0 ? STDIO_DEVNULL : (uint32_t)out, err < 0 ? STDIO_DEVNULL : (uint32_t)err, cwd,
                                       strlen(cwd), pairs, (uint32_t)nkeep, &pid)
                   : ENOMEM;
  free(pairs);
  free(a);
  free(e);
  return r ? fail(r) : (pid_t)pid;
}

pid_t waitpid(pid_t pid, int *status, int options) {
  uint32_t st = 0, reaped = 0;
  uint32_t r = ao_proc_wait(pid <= 0 ? 0xFFFFFFFFu : (uint32_t)pid, options & WNOHANG, &st, &reaped);
  if (r) return fail(r);
  if (status) *status = (int)st;
  return (pid_t)reaped;
}

pid_t wait(int *status) { return waitpid(-1, status, 0); }

pid_t fork(void) { return fail(ENOSYS); }
pid_t vfork(void) { return fail(ENOSYS); }

// exec: the program runs as a child with this process's stdio; this process then exits with its status.
int execve(const char *file, char *const argv[], char *const envp[]) {
  pid_t pid = agentos_spawnvpe(file, argv, envp, NULL, 0, 1, 2);
  if (pid < 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  fflush(NULL);
  _Exit(WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status));
}
int execv(const char *file, char *const argv[]) { return execve(file, argv, NULL); }
int execvp(const char *file, char *const argv[]) { return execve(file, argv, NULL); }

static int execl_common(const char *file, const char *arg0, va_list ap) {
  char *argv[256];
  int n = 0;
  argv[n++] = (char *)arg0;
  while (n < 255 && (argv[n] = va_arg(ap, char *))) n++;
  argv[n] = NULL;
  return execve(file, argv, NULL);
}
int execl(const char *file, const char *arg0, ...) {
  va_list ap;
  va_start(ap, arg0);
  int r = execl_common(file, arg0, ap);
  va_end(ap);
  return r;
}
int execlp(const char *file, const char *arg0, ...) {
  va_list ap;
  va_start(ap, arg0);
  int r = execl_common(file, arg0, ap);
  va_end(ap);
  return r;
}

int system(const char *command) {
  if (!command) return 1;
  char *argv[] = {"sh", "-c", (char *)command, NULL};
  pid_t pid = agentos_spawnvpe("sh", argv, NULL, NULL, 0, 1, 2);
  if (pid < 0) return 127 << 8;
  int status = 0;
  return waitpid(pid, &status, 0) < 0 ? -1 : status;
}

// popen's children, by the FILE they are read or written through.
static struct {
  FILE *f;
  pid_t pid;
} popened[16];

FILE *popen(const char *command, const char *mode) {
  int reading = mode[0] == 'r';
  if (!reading && mode[0] != 'w') return (void)fail(EINVAL), NULL;
  int slot = 0;
  while (slot < 16 && popened[slot].f) slot++;
  if (slot == 16) return (void)fail(EMFILE), NULL;
  int fds[2];
  if (pipe(fds) < 0) return NULL;
  char *argv[] = {"sh", "-c", (char *)command, NULL};
  pid_t pid = reading ? agentos_spawnvpe("sh", argv, NULL, NULL, 0, fds[1], 2) : agentos_spawnvpe("sh", argv, NULL, NULL, fds[0], 1, 2);
  close(fds[reading ? 1 : 0]);
  if (pid < 0) {
    close(fds[reading ? 0 : 1]);
    return NULL;
  }
  FILE *f = fdopen(fds[reading ? 0 : 1], reading ? "r" : "w");
  popened[slot].f = f;
  popened[slot].pid = pid;
  return f;
}

int pclose(FILE *f) {
  for (int i = 0; i < 16; i++) {
    if (popened[i].f != f) continue;
    pid_t pid = popened[i].pid;
    popened[i].f = NULL;
    fclose(f);
    int status = 0;
    return waitpid(pid, &status, 0) < 0 ? -1 : status;
  }
  return fail(ECHILD);
}

int kill(pid_t pid, int sig) {
  if (pid <= 0) return fail(ENOSYS);
  uint32_t r = ao_proc_kill((uint32_t)pid, (uint32_t)sig);
  return r ? fail(r) : 0;
}

pid_t getpid(void) {
  uint32_t pid = 0;
  ao_proc_getpid(&pid);
  return (pid_t)pid;
}
pid_t getppid(void) {
  uint32_t pid = 0;
  ao_proc_getppid(&pid);
  return (pid_t)pid;
}
pid_t setsid(void) { return getpid(); }
pid_t getpgrp(void) { return getpid(); }
// No terminal, so no foreground process group.
pid_t tcgetpgrp(int fd) { (void)fd; return fail(ENOTTY); }
pid_t getpgid(pid_t pid) { return pid ? pid : getpid(); }
int setpgid(pid_t pid, pid_t pgid) { (void)pid, (void)pgid; return 0; }

// Signals: nothing arrives asynchronously from outside; handlers and masks are recorded only.
int sigaction(int sig, const struct sigaction *restrict act, struct sigaction *restrict old) {
  if (old) memset(old, 0, sizeof *old);
  if (act) signal(sig, act->sa_handler);
  return 0;
}
int sigprocmask(int how, const sigset_t *restrict set, sigset_t *restrict old) {
  (void)how, (void)set;
  if (old) *old = 0;
  return 0;
}
int sigemptyset(sigset_t *set) { return *set = 0, 0; }
int sigfillset(sigset_t *set) { return *set = (sigset_t)~0, 0; }
int sigaddset(sigset_t *set, int sig) { (void)set, (void)sig; return 0; }
int sigdelset(sigset_t *set, int sig) { (void)set, (void)sig; return 0; }
int sigismember(const sigset_t *set, int sig) { (void)set, (void)sig; return 0; }
unsigned alarm(unsigned seconds) { (void)seconds; return 0; }

// ---- fds ----

int pipe(int fds[2]) {
  uint32_t r, w;
  uint32_t e = ao_fd_pipe(&r, &w);
  if (e) return fail(e);
  fds[0] = (int)r, fds[1] = (int)w;
  return 0;
}
int pipe2(int fds[2], int flags) { (void)flags; return pipe(fds); }

int dup(int fd) {
  uint32_t n;
  uint32_t e = ao_fd_dup((uint32_t)fd, &n);
  return e ? fail(e) : (int)n;
}

// wasi-libc's fcntl(F_GETFD) answers for any fd, open or not.
static int is_open(int fd) {
  __wasi_fdstat_t st;
  return __wasi_fd_fdstat_get((__wasi_fd_t)fd, &st) == 0;
}

int dup2(int fd, int to) {
  if (fd == to) return is_open(fd) ? to : fail(EBADF);
  int d = dup(fd);
  if (d < 0 || d == to) return d;
  // fd_renumber wants its target open: give it one if `to` is free.
  if (!is_open(to)) {
    int held[64], n = 0, t;
    while ((t = dup(d)) >= 0 && t < to && n < 64) held[n++] = t;
    for (int i = 0; i < n; i++) close(held[i]);
    if (t == to) {
      close(d);
      return to;
    }
    if (t >= 0) close(t);
    if (!is_open(to)) {
      close(d);
      return fail(EBADF);
    }
  }
  uint32_t e = __wasi_fd_renumber((__wasi_fd_t)d, (__wasi_fd_t)to);
  if (e) {
    close(d);
    return fail(e);
  }
  return to;
}

int isatty(int fd) {
  uint32_t yes = 0;
  uint32_t e = ao_isatty((uint32_t)fd, &yes);
  if (e) return fail(e), 0;
  return yes ? 1 : (errno = ENOTTY, 0);
}

int tcgetattr(int fd, struct termios *t) { (void)fd, (void)t; return fail(ENOTTY); }
int tcsetattr(int fd, int how, const struct termios *t) { (void)fd, (void)how, (void)t; return fail(ENOTTY); }

// The VM's name, as its hostname command says it: /etc/hostname's first line.
int gethostname(char *name, size_t len) {
  char buf[256] = "localhost";
  FILE *f = fopen("/etc/hostname", "r");
  if (f) {
    if (!fgets(buf, sizeof buf, f)) strcpy(buf, "localhost");
    fclose(f);
    buf[strcspn(buf, "\n")] = 0;
  }
  if (strlen(buf) >= len) return fail(ENAMETOOLONG);
  strcpy(name, buf);
  return 0;
}

// No terminal to read a password from without echo.
char *getpass(const char *prompt) { (void)prompt; return (void)fail(ENOTTY), NULL; }

int getpagesize(void) { return 65536; }

// ---- files: st_mode with permission bits, owners, chmod ----

// path_stat's and fd_stat's answer: preview1's filestat, then st_mode, uid, gid.
struct stat_reply {
  uint64_t dev, ino;
  uint8_t filetype;
  uint64_t nlink, size, atim, mtim, ctim;
  uint32_t mode, uid, gid;
};

static mode_t type_bits(uint8_t filetype) {
  switch (filetype) {
  case __WASI_FILETYPE_DIRECTORY: return S_IFDIR;
  case __WASI_FILETYPE_SYMBOLIC_LINK: return S_IFLNK;
  case __WASI_FILETYPE_CHARACTER_DEVICE: return S_IFCHR;
  case __WASI_FILETYPE_BLOCK_DEVICE: return S_IFBLK;
  case __WASI_FILETYPE_SOCKET_STREAM:
  case __WASI_FILETYPE_SOCKET_DGRAM: return S_IFSOCK;
  case __WASI_FILETYPE_REGULAR_FILE: return S_IFREG;
  default: return S_IFIFO;
  }
}

static void to_stat(const struct stat_reply *r, struct stat *st) {
  memset(st, 0, sizeof *st);
  st->st_dev = r->dev;
  st->st_ino = r->ino;
  st->st_nlink = r->nlink;
  st->st_size = (off_t)r->size;
  st->st_mode = r->mode ? (mode_t)r->mode : type_bits(r->filetype) | 0644;
  st->st_uid = r->uid;
  st->st_gid = r->gid;
  st->st_blksize = 4096;
  // What the VM's file system allocates, as its du counts it: a regular file's size in whole 4 KiB blocks.
  st->st_blocks = r->filetype == __WASI_FILETYPE_REGULAR_FILE ? (blkcnt_t)((r->size + 4095) / 4096 * 8) : 0;
  st->st_atim = (struct timespec){(time_t)(r->atim / 1000000000), (long)(r->atim % 1000000000)};
  st->st_mtim = (struct timespec){(time_t)(r->mtim / 1000000000), (long)(r->mtim % 1000000000)};
  st->st_ctim = (struct timespec){(time_t)(r->ctim / 1000000000), (long)(r->ctim % 1000000000)};
}

// A path as the preopen it lies under and the rest, as wasi-libc resolves it (its working directory applied).
static int find(const char *path, char *buf, size_t len, char **rel) {
  const char *prefix;
  *rel = buf;
  int dirfd = __wasilibc_find_relpath(path, &prefix, rel, len);
  return dirfd;
}

static int stat_at(const char *path, struct stat *st, uint32_t follow) {
  char buf[PATH_MAX];
  char *rel;
  if (!path[0]) return fail(ENOENT);
  int dirfd = find(path, buf, sizeof buf, &rel);
  if (dirfd < 0) return -1;
  struct stat_reply r;
  uint32_t e = ao_path_stat((uint32_t)dirfd, follow, rel, strlen(rel), &r);
  if (e) return fail(e);
  to_stat(&r, st);
  return 0;
}

int __wrap_stat(const char *restrict path, struct stat *restrict st) { return stat_at(path, st, 1); }
int __wrap_lstat(const char *restrict path, struct stat *restrict st) { return stat_at(path, st, 0); }
int __wrap_fstat(int fd, struct stat *st) {
  struct stat_reply r;
  uint32_t e = ao_fd_stat((uint32_t)fd, &r);
  if (e) return fail(e);
  to_stat(&r, st);
  return 0;
}

// preview1's path_open takes no mode, so a new file gets the VM's default (0644). open (linked with --wrap)
// gives a file it creates the mode asked, less the umask: git checks out an executable as 0755 so.
int __real_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...) {
  if (!(flags & O_CREAT)) return __real_open(path, flags);
  va_list ap;
  va_start(ap, flags);
  mode_t mode = va_arg(ap, mode_t) & 07777 & ~022;
  va_end(ap);
  for (int tries = 0; tries < 8; tries++) {
    // Without O_EXCL the mode applies only if this call makes the file: try the one there first.
    int fd = flags & O_EXCL ? -1 : __real_open(path, flags & ~O_CREAT);
    if (fd >= 0 || (!(flags & O_EXCL) && errno != ENOENT)) return fd;
    fd = __real_open(path, flags | O_EXCL, mode);
    if (fd >= 0) {
      if (mode != 0644) fchmod(fd, mode);
      return fd;
    }
    if (errno != EEXIST || flags & O_EXCL) return fd;
  }
  return __real_open(path, flags, mode);
}

// wasi-emulated-mman's mappings are private copies (MAP_SHARED is refused): there is nothing to write back.
int msync(void *addr, size_t len, int flags) {
  (void)addr, (void)len, (void)flags;
  return 0;
}

// preview1's path_create_directory takes no mode either: a new directory gets the VM's default (0755), then
// mkdir (linked with --wrap) gives it the mode asked, less the umask, as tempfile.mkdtemp's 0700.
int __real_mkdir(const char *path, mode_t mode);
int __wrap_mkdir(const char *path, mode_t mode) {
  if (__real_mkdir(path, mode) != 0) return -1;
  mode &= 07777 & ~022;
  return mode == 0755 ? 0 : chmod(path, mode);
}

int chmod(const char *path, mode_t mode) {
  char buf[PATH_MAX];
  char *rel;
  int dirfd = find(path, buf, sizeof buf, &rel);
  if (dirfd < 0) return -1;
  uint32_t e = ao_chmod_at((uint32_t)dirfd, rel, strlen(rel), mode & 07777);
  return e ? fail(e) : 0;
}
int fchmod(int fd, mode_t mode) {
  uint32_t e = ao_fd_chmod((uint32_t)fd, mode & 07777);
  return e ? fail(e) : 0;
}
// The VM's mask is fixed at 022 (host_fs.umask).
mode_t umask(mode_t mask) { (void)mask; return 022; }
int chown(const char *p, uid_t u, gid_t g) { (void)p, (void)u, (void)g; return 0; }
int lchown(const char *p, uid_t u, gid_t g) { (void)p, (void)u, (void)g; return 0; }
int fchown(int fd, uid_t u, gid_t g) { (void)fd, (void)u, (void)g; return 0; }

char *realpath(const char *restrict path, char *restrict resolved) {
  // Every component is looked at: symlinks are followed, a missing one is ENOENT (as glibc).
  char work[PATH_MAX], out[PATH_MAX];
  int hops = 0;
  if (path[0] == '/') snprintf(work, sizeof work, "%s", path);
  else {
    if (!getcwd(out, sizeof out)) return NULL;
    snprintf(work, sizeof work, "%s/%s", out, path);
  }
  strcpy(out, "");
  char *p = work;
  while (*p) {
    while (*p == '/') p++;
    if (!*p) break;
    char *end = strchr(p, '/');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    char name[NAME_MAX + 1];
    if (n > NAME_MAX) return (void)fail(ENAMETOOLONG), NULL;
    memcpy(name, p, n);
    name[n] = 0;
    p += n;
    if (!strcmp(name, ".")) continue;
    if (!strcmp(name, "..")) {
      char *slash = strrchr(out, '/');
      if (slash) *slash = 0;
      continue;
    }
    size_t l = strlen(out);
    if (l + 1 + n >= sizeof out) return (void)fail(ENAMETOOLONG), NULL;
    out[l] = '/';
    strcpy(out + l + 1, name);
    struct stat st;
    if (stat_at(out, &st, 0) < 0) return NULL;
    if (S_ISLNK(st.st_mode)) {
      char target[PATH_MAX], rest[PATH_MAX];
      if (++hops > 40) return (void)fail(ELOOP), NULL;
      ssize_t t = readlink(out, target, sizeof target - 1);
      if (t < 0) return NULL;
      target[t] = 0;
      snprintf(rest, sizeof rest, "%s", p);
      out[l] = 0;
      if (target[0] == '/') {
        out[0] = 0;
        snprintf(work, sizeof work, "%s%s", target, rest);
      } else snprintf(work, sizeof work, "%s/%s%s", out, target, rest);
      if (target[0] != '/') {
        // `out` is re-walked from the root with the link's target in place of its name.
        char again[PATH_MAX];
        snprintf(again, sizeof again, "%s", work);
        snprintf(work, sizeof work, "%s", again);
        out[0] = 0;
      }
      p = work;
    }
  }
  if (!out[0]) strcpy(out, "/");
  if (!resolved && !(resolved = malloc(strlen(out) + 1))) return NULL;
  return strcpy(resolved, out);
}

int mkstemps(char *template, int suffixlen) {
  size_t l = strlen(template);
  if (l < 6 + (size_t)suffixlen || memcmp(template + l - suffixlen - 6, "XXXXXX", 6)) return fail(EINVAL);
  static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  char *x = template + l - suffixlen - 6;
  for (int tries = 0; tries < 100; tries++) {
    unsigned char rnd[6];
    arc4random_buf(rnd, sizeof rnd);
    for (int i = 0; i < 6; i++) x[i] = chars[rnd[i] % 62];
    // preview1's open takes no mode: the file is made 0600 after.
    int fd = open(template, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd >= 0) fchmod(fd, 0600);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return fail(EEXIST);
}
int mkstemp(char *template) { return mkstemps(template, 0); }
char *mkdtemp(char *template) {
  size_t l = strlen(template);
  if (l < 6 || memcmp(template + l - 6, "XXXXXX", 6)) return (void)fail(EINVAL), NULL;
  static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  for (int tries = 0; tries < 100; tries++) {
    unsigned char rnd[6];
    arc4random_buf(rnd, sizeof rnd);
    for (int i = 0; i < 6; i++) template[l - 6 + i] = chars[rnd[i] % 62];
    if (mkdir(template, 0700) == 0) return template;
    if (errno != EEXIST) return NULL;
  }
  return (void)fail(EEXIST), NULL;
}

// ---- users: the VM's one user ----

static uint32_t id(int i) {
  uint32_t ids[4] = {1000, 1000, 1000, 1000};
  ao_getids(ids);
  return ids[i];
}
uid_t getuid(void) { return id(0); }
uid_t geteuid(void) { return id(1); }
gid_t getgid(void) { return id(2); }
gid_t getegid(void) { return id(3); }

static char pw_line[512];
static struct passwd pw;

// `name:x:uid:gid:gecos:home:shell`, split in place.
struct passwd *getpwuid(uid_t uid) {
  uint32_t used = 0;
  if (ao_getpwuid(uid, pw_line, sizeof pw_line - 1, &used)) return NULL;
  pw_line[used] = 0;
  char *f[7], *p = pw_line;
  for (int i = 0; i < 7; i++) {
    f[i] = p;
    p = strchr(p, ':');
    if (!p && i < 6) return NULL;
    if (p) *p++ = 0;
  }
  pw = (struct passwd){f[0], f[1], (uid_t)strtoul(f[2], NULL, 10), (gid_t)strtoul(f[3], NULL, 10), f[4], f[5], f[6]};
  return &pw;
}
struct passwd *getpwnam(const char *name) {
  struct passwd *p = getpwuid(getuid());
  return p && !strcmp(p->pw_name, name) ? p : NULL;
}

static struct group gr;
static char *gr_members[] = {NULL};
struct group *getgrgid(gid_t gid) {
  struct passwd *p = getpwuid(getuid());
  if (!p || p->pw_gid != gid) return NULL;
  gr = (struct group){p->pw_name, "x", gid, gr_members};
  return &gr;
}
struct group *getgrnam(const char *name) {
  struct group *g = getgrgid(getgid());
  return g && !strcmp(g->gr_name, name) ? g : NULL;
}
