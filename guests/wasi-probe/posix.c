// The runtime's imports beyond preview1 that a C program's POSIX layer needs (README "Your own WebAssembly
// commands"): pids, waitpid, st_mode and owner, chmod on fds and dirfds, umask, user ids, the working directory
// of a child. test/wasi-posix.test.ts runs it in the VM as `posix-probe` and checks every line.
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define IMPORT(module, name) __attribute__((import_module(module), import_name(name)))

IMPORT("host_process", "proc_getpid") uint32_t proc_getpid(uint32_t *pid);
IMPORT("host_process", "proc_getppid") uint32_t proc_getppid(uint32_t *pid);
IMPORT("host_process", "proc_getcwd") uint32_t proc_getcwd(char *buf, uint32_t len, uint32_t *used);
IMPORT("host_process", "proc_wait") uint32_t proc_wait(uint32_t pid, uint32_t options, uint32_t *status, uint32_t *reaped);
IMPORT("host_process", "fd_pipe") uint32_t fd_pipe(uint32_t *r, uint32_t *w);
IMPORT("host_process", "proc_spawn")
uint32_t proc_spawn(const char *argv, uint32_t argv_len, const char *envp, uint32_t envp_len, uint32_t in, uint32_t out,
                    uint32_t err, const char *cwd, uint32_t cwd_len, uint32_t *pid);
IMPORT("host_fs", "path_stat") uint32_t path_stat(uint32_t dirfd, uint32_t flags, const char *path, uint32_t len, void *out);
IMPORT("host_fs", "fd_stat") uint32_t fd_stat(uint32_t fd, void *out);
IMPORT("host_fs", "fd_chmod") uint32_t fd_chmod(uint32_t fd, uint32_t mode);
IMPORT("host_fs", "chmod_at") uint32_t chmod_at(uint32_t dirfd, const char *path, uint32_t len, uint32_t mode);
IMPORT("host_fs", "umask") uint32_t host_umask(uint32_t *mask);
IMPORT("host_user", "getids") uint32_t getids(uint32_t ids[4]);
IMPORT("wasi_snapshot_preview1", "proc_raise") uint32_t proc_raise(uint32_t signal);

// path_stat's and fd_stat's answer: preview1's filestat, then st_mode, uid, gid.
struct stat_reply {
  uint64_t dev, ino;
  uint8_t filetype;
  uint64_t nlink, size, atim, mtim, ctim;
  uint32_t mode, uid, gid;
};

// Moves libc to the directory the kernel keeps for the process, as guests/cwd does for the VM's binaries
// (wasi-libc starts in "/").
__attribute__((constructor)) static void follow_cwd(void) {
  char dir[4096];
  uint32_t n = 0;
  if (proc_getcwd(dir, sizeof dir - 1, &n) == 0) {
    dir[n] = 0;
    chdir(dir);
  }
}

static uint32_t spawn(const char *argv, uint32_t argv_len, uint32_t in, const char *cwd) {
  uint32_t pid = 0;
  uint32_t err = proc_spawn(argv, argv_len, "", 0, in, 1, 2, cwd, strlen(cwd), &pid);
  if (err) printf("spawn: errno %u\n", err);
  return pid;
}

static void show_stat(const char *name, uint32_t err, struct stat_reply *st) {
  if (err)
    printf("%s: errno %u\n", name, err);
  else
    printf("%s: type %u mode %o uid %u gid %u size %llu\n", name, st->filetype, st->mode, st->uid, st->gid, (unsigned long long)st->size);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0); // its lines and its children's in the order they happen
  char cwd[256];
  uint32_t used = 0;
  if (argc > 1 && strcmp(argv[1], "child") == 0) {
    proc_getcwd(cwd, sizeof cwd, &used);
    printf("child cwd: %.*s\n", (int)used, cwd);
    return 3;
  }
  if (argc > 1 && strcmp(argv[1], "raise") == 0) {
    proc_raise(15); // SIGTERM
    printf("still running after SIGTERM\n");
    return 0;
  }
  uint32_t pid = 0, ppid = 0;
  proc_getpid(&pid);
  proc_getppid(&ppid);
  printf("pid: %u\nppid: %u\n", pid, ppid);
  proc_getcwd(cwd, sizeof cwd, &used);
  printf("cwd: %.*s\n", (int)used, cwd);

  // A child asked to start in "/" starts there: this command asked for its own directory, so it knows it.
  static const char child[] = "posix-probe\0child\0";
  uint32_t c = spawn(child, sizeof child - 1, 0, "/");
  uint32_t status = 0, reaped = 0;
  uint32_t err = proc_wait(0xFFFFFFFF, 0, &status, &reaped);
  printf("wait any: errno %u, reaped the child %d, exit %u\n", err, reaped == c, (status >> 8) & 0xff);
  err = proc_wait(0xFFFFFFFF, 0, &status, &reaped);
  printf("wait with no children: errno %u\n", err);

  // WNOHANG while a child runs (cat, reading a pipe this process holds open): pid 0.
  uint32_t r, w;
  fd_pipe(&r, &w);
  static const char cat[] = "cat\0";
  c = spawn(cat, sizeof cat - 1, r, "");
  close(r);
  err = proc_wait(c, 1, &status, &reaped);
  printf("wait nohang running: errno %u, pid %u\n", err, reaped);
  close(w);
  err = proc_wait(c, 0, &status, &reaped);
  printf("wait: errno %u, reaped cat %d, status %u\n", err, reaped == c, status);
  err = proc_wait(c, 0, &status, &reaped);
  printf("wait again: errno %u\n", err);

  // Modes and owners.
  int fd = open("posix-probe.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644);
  write(fd, "abc", 3);
  struct stat_reply st;
  show_stat("fd_stat", fd_stat(fd, &st), &st);
  printf("fd_chmod: errno %u\n", fd_chmod(fd, 0600));
  show_stat("fd_stat after fd_chmod", fd_stat(fd, &st), &st);
  int dir = open(".", O_RDONLY | O_DIRECTORY);
  printf("chmod_at: errno %u\n", chmod_at(dir, "posix-probe.txt", 15, 0640));
  show_stat("path_stat", path_stat(dir, 1, "posix-probe.txt", 15, &st), &st);
  printf("chmod_at missing: errno %u\n", chmod_at(dir, "missing", 7, 0640));
  show_stat("path_stat missing", path_stat(dir, 1, "missing", 7, &st), &st);
  show_stat("path_stat dir", path_stat(dir, 1, ".", 1, &st), &st);
  show_stat("fd_stat bad fd", fd_stat(99, &st), &st);
  unlink("posix-probe.txt");

  // proc_raise: WASI's numbers (Linux's up to 15, one lower after); CHLD (16) is ignored, STOP (18) not
  // supported, a number past SYS (30) invalid, TERM ends the process (status: the signal).
  printf("raise CHLD: errno %u\n", proc_raise(16));
  printf("raise STOP: errno %u\n", proc_raise(18));
  printf("raise 31: errno %u\n", proc_raise(31));
  static const char raiser[] = "posix-probe\0raise\0";
  c = spawn(raiser, sizeof raiser - 1, 0, "");
  err = proc_wait(c, 0, &status, &reaped);
  printf("raise TERM: errno %u, status %u\n", err, status);

  uint32_t mask = 0, ids[4] = {0};
  host_umask(&mask);
  printf("umask: %o\n", mask);
  getids(ids);
  printf("ids: %u %u %u %u\n", ids[0], ids[1], ids[2], ids[3]);
  return 0;
}
