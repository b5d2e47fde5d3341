// A probe of the WASI preview1 calls a C program makes through wasi-libc: one line per check, the same on
// every runtime that answers as Linux does. test/wasi-probe.test.ts runs it in the VM and under Node's own
// WASI (uvwasi) and compares the lines. It works in ./wasi-probe.dir (in the directory given as its argument,
// else "/"), which it removes again.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wasi/api.h>

static void say(const char *name, long value) { printf("%s: %ld\n", name, value); }

// The result of a call that returns -1 and sets errno: the value, or the errno's name.
static void check(const char *name, long ret) {
  if (ret >= 0) {
    say(name, ret);
    return;
  }
  const char *e = errno == EBADF ? "EBADF" : errno == EINVAL ? "EINVAL" : errno == ENOENT ? "ENOENT"
    : errno == EEXIST ? "EEXIST" : errno == EISDIR ? "EISDIR" : errno == ENOTDIR ? "ENOTDIR"
    : errno == ENOTEMPTY ? "ENOTEMPTY" : errno == ELOOP ? "ELOOP" : errno == ESPIPE ? "ESPIPE"
    : errno == ENOTSOCK ? "ENOTSOCK" : errno == ENOSYS ? "ENOSYS" : errno == ENOTCAPABLE ? "ENOTCAPABLE" : errno == ENOTSUP ? "ENOTSUP" : NULL;
  if (e)
    printf("%s: %s\n", name, e);
  else
    printf("%s: errno %d\n", name, errno);
}

static long size_of(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void contents(const char *name, int fd) {
  char buf[64] = {0};
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  printf("%s: %zd \"%s\"\n", name, n, n > 0 ? buf : "");
}

int main(int argc, char **argv) {
  // The directory to work in: "/" unless given (a host mount of the VM, say).
  if (argc > 1 && chdir(argv[1]) != 0) {
    printf("chdir %s: errno %d\n", argv[1], errno);
    return 1;
  }
  say("argc", argc);
  check("mkdir", mkdir("wasi-probe.dir", 0755));
  check("chdir-free open of the dir", open("wasi-probe.dir", O_RDONLY | O_DIRECTORY) >= 0 ? 0 : -1);

  // Offsets: write, tell, pread/pwrite leave the offset alone.
  int fd = open("wasi-probe.dir/f", O_CREAT | O_RDWR | O_TRUNC, 0644);
  check("open", fd >= 0 ? 0 : -1);
  check("write", write(fd, "hello world", 11));
  check("tell", lseek(fd, 0, SEEK_CUR));
  char buf[16] = {0};
  check("pread", pread(fd, buf, 5, 6));
  printf("pread data: %s\n", buf);
  check("tell after pread", lseek(fd, 0, SEEK_CUR));
  check("pwrite", pwrite(fd, "HELLO", 5, 0));
  check("tell after pwrite", lseek(fd, 0, SEEK_CUR));
  contents("contents", fd);
  check("pwrite past the end", pwrite(fd, "!", 1, 20));
  check("size after pwrite past the end", size_of("wasi-probe.dir/f"));
  check("seek end", lseek(fd, 0, SEEK_END));
  check("seek negative", lseek(fd, -100, SEEK_SET));
  check("seek beyond", lseek(fd, 100, SEEK_SET));
  check("read at end", read(fd, buf, sizeof buf));
  check("pread bad fd", pread(99, buf, 1, 0));

  // fallocate, fadvise, sync.
  check("posix_fallocate", -posix_fallocate(fd, 0, 64) ?: 0);
  check("size after fallocate", size_of("wasi-probe.dir/f"));
  check("posix_fallocate inside", -posix_fallocate(fd, 0, 10) ?: 0);
  check("size after fallocate inside", size_of("wasi-probe.dir/f"));
  int r = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  check("posix_fadvise", r ? (errno = r, -1) : 0);
  r = posix_fadvise(fd, 0, 0, 99);
  check("posix_fadvise bad advice", r ? (errno = r, -1) : 0);
  r = posix_fadvise(99, 0, 0, POSIX_FADV_NORMAL);
  check("posix_fadvise bad fd", r ? (errno = r, -1) : 0);
  check("fsync", fsync(fd));
  check("fdatasync", fdatasync(fd));
  check("fsync bad fd", fsync(99));
  check("ftruncate", ftruncate(fd, 3));
  check("size after ftruncate", size_of("wasi-probe.dir/f"));

  // Append: writes go to the end, pwrite too (Linux), the offset follows writes.
  int ap = open("wasi-probe.dir/f", O_WRONLY | O_APPEND);
  check("open append", ap >= 0 ? 0 : -1);
  check("append flag", (fcntl(ap, F_GETFL) & O_APPEND) != 0);
  check("write append", write(ap, "xy", 2));
  check("tell append", lseek(ap, 0, SEEK_CUR));
  check("pwrite append", pwrite(ap, "z", 1, 0));
  check("size after pwrite append", size_of("wasi-probe.dir/f"));
  check("nonblock set", fcntl(ap, F_SETFL, O_NONBLOCK | O_APPEND));
  check("nonblock flag", (fcntl(ap, F_GETFL) & O_NONBLOCK) != 0);

  // fd_renumber: the target takes the source's file; the source is closed.
  int a = open("wasi-probe.dir/a", O_CREAT | O_RDWR, 0644);
  int b = open("wasi-probe.dir/b", O_CREAT | O_RDWR, 0644);
  check("write a", write(a, "from a", 6));
  check("renumber", __wasi_fd_renumber(a, b) ? -1 : 0);
  check("close renumbered source", close(a));
  contents("renumbered target", b);
  check("tell renumbered", lseek(b, 0, SEEK_CUR));
  errno = __wasi_fd_renumber(b, 99);
  check("renumber to a closed fd", errno ? -1 : 0);
  errno = __wasi_fd_renumber(98, b);
  check("renumber from a closed fd", errno ? -1 : 0);
  close(b);

  // Paths.
  check("mkdir existing", mkdir("wasi-probe.dir", 0755));
  check("open missing", open("wasi-probe.dir/missing", O_RDONLY));
  check("open dir for writing", open("wasi-probe.dir", O_WRONLY));
  check("open file as dir", open("wasi-probe.dir/a", O_RDONLY | O_DIRECTORY));
  check("open file with slash", open("wasi-probe.dir/a/", O_RDONLY));
  check("open excl existing", open("wasi-probe.dir/a", O_CREAT | O_EXCL | O_WRONLY, 0644));
  check("symlink", symlink("a", "wasi-probe.dir/link"));
  char target[32] = {0};
  check("readlink", readlink("wasi-probe.dir/link", target, sizeof target));
  printf("readlink target: %s\n", target);
  check("open nofollow symlink", open("wasi-probe.dir/link", O_RDONLY | O_NOFOLLOW));
  int viaLink = open("wasi-probe.dir/link", O_RDONLY);
  check("open through symlink", viaLink >= 0 ? 0 : -1);
  contents("through symlink", viaLink);
  close(viaLink);
  struct stat st, lst;
  check("stat link", stat("wasi-probe.dir/link", &st));
  check("lstat link", lstat("wasi-probe.dir/link", &lst));
  say("stat link is regular", S_ISREG(st.st_mode));
  say("lstat link is symlink", S_ISLNK(lst.st_mode));
  check("symlink dangling", symlink("nowhere", "wasi-probe.dir/dangling"));
  check("open dangling", open("wasi-probe.dir/dangling", O_RDONLY));
  check("open dangling nofollow", open("wasi-probe.dir/dangling", O_RDONLY | O_NOFOLLOW));
  check("symlink over existing", symlink("a", "wasi-probe.dir/a"));
  check("link", link("wasi-probe.dir/a", "wasi-probe.dir/hard"));
  check("stat hard", stat("wasi-probe.dir/hard", &st));
  say("nlink", (long)st.st_nlink);
  check("link over existing", link("wasi-probe.dir/a", "wasi-probe.dir/b"));
  check("link to dir", link("wasi-probe.dir", "wasi-probe.dir/dirlink"));
  check("rename", rename("wasi-probe.dir/hard", "wasi-probe.dir/renamed"));
  check("rename missing", rename("wasi-probe.dir/hard", "wasi-probe.dir/x"));
  check("mkdir sub", mkdir("wasi-probe.dir/sub", 0755));
  check("rename file over dir", rename("wasi-probe.dir/renamed", "wasi-probe.dir/sub"));
  check("rename dir over file", rename("wasi-probe.dir/sub", "wasi-probe.dir/renamed"));
  check("unlink dir", unlink("wasi-probe.dir/sub"));
  check("rmdir file", rmdir("wasi-probe.dir/renamed"));
  check("rmdir non-empty", rmdir("wasi-probe.dir"));

  // Times to the nanosecond.
  struct timespec times[2] = {{1700000000, 123456789}, {1600000000, 987654321}};
  check("utimensat", utimensat(AT_FDCWD, "wasi-probe.dir/a", times, 0));
  check("stat times", stat("wasi-probe.dir/a", &st));
  printf("atime: %lld.%09ld\n", (long long)st.st_atim.tv_sec, st.st_atim.tv_nsec);
  printf("mtime: %lld.%09ld\n", (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
  struct timespec omit[2] = {{0, UTIME_OMIT}, {1500000000, 5}};
  check("utimensat omit", utimensat(AT_FDCWD, "wasi-probe.dir/a", omit, 0));
  check("stat times again", stat("wasi-probe.dir/a", &st));
  printf("atime: %lld.%09ld\n", (long long)st.st_atim.tv_sec, st.st_atim.tv_nsec);
  printf("mtime: %lld.%09ld\n", (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
  struct timespec bad[2] = {{0, 1000000000}, {0, 0}};
  check("utimensat bad nsec", utimensat(AT_FDCWD, "wasi-probe.dir/a", bad, 0));

  // Directory listing, in name order.
  DIR *d = opendir("wasi-probe.dir");
  check("opendir", d ? 0 : -1);
  char names[512] = "";
  const char *sorted[16];
  int count = 0;
  for (struct dirent *e; d && (e = readdir(d)) && count < 16;) sorted[count++] = strdup(e->d_name);
  for (int i = 0; i < count; i++)
    for (int j = i + 1; j < count; j++)
      if (strcmp(sorted[j], sorted[i]) < 0) {
        const char *t = sorted[i];
        sorted[i] = sorted[j];
        sorted[j] = t;
      }
  for (int i = 0; i < count; i++) strcat(strcat(names, sorted[i]), " ");
  printf("readdir: %s\n", names);
  if (d) closedir(d);

  // Clocks, poll, the rest.
  struct timespec res;
  check("clock_getres monotonic", clock_getres(CLOCK_MONOTONIC, &res));
  say("monotonic resolution positive", res.tv_sec > 0 || res.tv_nsec > 0);
  check("clock_getres realtime", clock_getres(CLOCK_REALTIME, &res));
  say("realtime resolution at most 1 ms", res.tv_sec == 0 && res.tv_nsec > 0 && res.tv_nsec <= 1000000);
  struct timespec t0, t1, nap = {0, 2000000};
  clock_gettime(CLOCK_MONOTONIC, &t0);
  check("nanosleep", nanosleep(&nap, NULL));
  clock_gettime(CLOCK_MONOTONIC, &t1);
  say("slept at least 2 ms", (t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec) >= 2000000);
  // CPU time: it advances while the program computes. (The VM counts it from the process's start; Node's WASI
  // gives the whole host process's.)
  struct timespec c0, c1;
  check("clock_gettime process cputime", clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0));
  volatile unsigned long spin = 0;
  for (unsigned long i = 0; i < 50000000; i++) spin += i;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
  say("process cputime below a minute", c1.tv_sec < 60);
  say("process cputime advances", c1.tv_sec > c0.tv_sec || (c1.tv_sec == c0.tv_sec && c1.tv_nsec > c0.tv_nsec));
  check("clock_getres process cputime", clock_getres(CLOCK_PROCESS_CPUTIME_ID, &res));
  say("process cputime resolution at most 1 ms", res.tv_sec == 0 && res.tv_nsec > 0 && res.tv_nsec <= 1000000);
  int pf = open("wasi-probe.dir/a", O_RDONLY);
  struct pollfd pfd = {pf, POLLIN, 0};
  check("poll file", poll(&pfd, 1, 1000));
  say("poll file revents POLLIN", (pfd.revents & POLLIN) != 0);
  close(pf);
  check("sched_yield", sched_yield());
  check("isatty file", isatty(fd));
  check("shutdown a file", shutdown(fd, SHUT_RDWR));
  check("shutdown bad fd", shutdown(99, SHUT_RDWR));
  check("close", close(fd));
  check("close again", close(fd));
  check("close append", close(ap));

  // Clean up.
  const char *files[] = {"a", "b", "f", "link", "dangling", "renamed"};
  for (unsigned i = 0; i < sizeof files / sizeof *files; i++) {
    char path[64];
    snprintf(path, sizeof path, "wasi-probe.dir/%s", files[i]);
    unlink(path);
  }
  rmdir("wasi-probe.dir/sub");
  check("rmdir", rmdir("wasi-probe.dir"));
  return 0;
}
