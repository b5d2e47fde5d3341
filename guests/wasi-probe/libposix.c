// guests/libposix, the POSIX layer of the C guests, as a program sees it: spawn and waitpid, exec, system,
// popen both ways, pipe and dup2, st_mode with permission bits, chmod, realpath, mkstemp, the user.
// test/libposix.test.ts runs it in the VM as `libposix-probe` and checks every line.
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0); // its lines and its children's in the order they happen
  if (argc > 1 && !strcmp(argv[1], "exec")) {
    char *args[] = {"sh", "-c", "echo exec child; exit 4", NULL};
    execvp("sh", args);
    printf("execvp returned: errno %d\n", errno);
    return 1;
  }
  char cwd[256];
  printf("cwd: %s\n", getcwd(cwd, sizeof cwd));

  char *echo[] = {"sh", "-c", "echo child in $(pwd); exit 3", NULL};
  pid_t pid = agentos_spawnvpe("sh", echo, NULL, "sub", 0, 1, 2);
  int status = -1;
  pid_t got = waitpid(pid, &status, 0);
  printf("spawn: reaped %d, exited %d, status %d\n", got == pid, WIFEXITED(status), WEXITSTATUS(status));
  printf("waitpid again: %d errno %s\n", (int)waitpid(pid, &status, 0), errno == ECHILD ? "ECHILD" : "other");
  char *none[] = {"no-such-command", NULL};
  printf("spawn missing: %d errno %s\n", (int)agentos_spawnvpe("no-such-command", none, NULL, NULL, 0, 1, 2), errno == ENOENT ? "ENOENT" : "other");

  // A pipe to a child's stdin, its stdout into another pipe: the child sees EOF once the write end is closed,
  // as no fd but 0-2 is passed on.
  int in[2], out[2];
  pipe(in);
  pipe(out);
  char *tr[] = {"tr", "a-z", "A-Z", NULL};
  pid = agentos_spawnvpe("tr", tr, NULL, NULL, in[0], out[1], 2);
  close(in[0]);
  close(out[1]);
  write(in[1], "piped\n", 6);
  close(in[1]);
  char buf[64] = {0};
  ssize_t n = read(out[0], buf, sizeof buf - 1);
  close(out[0]);
  waitpid(pid, &status, 0);
  printf("pipes: %.*s", (int)n, buf);

  printf("system: %d\n", WEXITSTATUS(system("echo from system; exit 5")));
  FILE *p = popen("echo popen read", "r");
  fgets(buf, sizeof buf, p);
  printf("popen r: %s", buf);
  printf("pclose: %d\n", WEXITSTATUS(pclose(p)));
  p = popen("tr a-z A-Z", "w");
  fputs("popen write\n", p);
  printf("pclose w: %d\n", WEXITSTATUS(pclose(p)));

  // dup2 onto a free fd and onto stdout (and back).
  int saved = dup(1);
  int fd = open("dup2.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  printf("dup2 free: %d\n", dup2(fd, 20));
  dup2(fd, 1);
  printf("into the file\n");
  dup2(saved, 1);
  close(fd);
  close(20);
  close(saved);
  fd = open("dup2.txt", O_RDONLY);
  n = read(fd, buf, sizeof buf - 1);
  close(fd);
  printf("dup2 stdout: %.*s", (int)n, buf);

  pid = fork();
  printf("fork: %d errno %s\n", (int)pid, errno == ENOSYS ? "ENOSYS" : "other");
  char *exec[] = {"libposix-probe", "exec", NULL};
  pid = agentos_spawnvpe("libposix-probe", exec, NULL, NULL, 0, 1, 2);
  waitpid(pid, &status, 0);
  printf("exec: status %d\n", WEXITSTATUS(status));

  struct stat st;
  chmod("dup2.txt", 0750);
  stat("dup2.txt", &st);
  printf("stat: mode %o uid %d size %lld\n", (unsigned)st.st_mode, (int)st.st_uid, (long long)st.st_size);
  symlink("dup2.txt", "link");
  lstat("link", &st);
  printf("lstat link: %s\n", S_ISLNK(st.st_mode) ? "symlink" : "other");
  stat("sub", &st);
  printf("stat dir: mode %o\n", (unsigned)st.st_mode);
  fd = open("dup2.txt", O_RDONLY);
  fchmod(fd, 0600);
  fstat(fd, &st);
  close(fd);
  printf("fstat: mode %o\n", (unsigned)st.st_mode);
  printf("stat missing: %d errno %s\n", stat("missing", &st), errno == ENOENT ? "ENOENT" : "other");
  close(open("exec.sh", O_WRONLY | O_CREAT | O_EXCL, 0777));
  close(open("new.txt", O_WRONLY | O_CREAT | O_TRUNC, 0600));
  close(open("dup2.txt", O_WRONLY | O_CREAT, 0755));
  stat("exec.sh", &st);
  printf("open O_EXCL 0777: mode %o\n", (unsigned)st.st_mode);
  stat("new.txt", &st);
  printf("open new 0600: mode %o\n", (unsigned)st.st_mode);
  stat("dup2.txt", &st);
  printf("open existing 0755: mode %o\n", (unsigned)st.st_mode);
  char *real = realpath("sub/../link", NULL);
  printf("realpath: %s\n", real);
  free(real);
  char tmpl[] = "tmp-XXXXXX";
  fd = mkstemp(tmpl);
  fstat(fd, &st);
  printf("mkstemp: %d mode %o\n", strncmp(tmpl, "tmp-", 4) == 0 && strcmp(tmpl, "tmp-XXXXXX") != 0, (unsigned)st.st_mode);
  close(fd);
  unlink(tmpl);
  struct passwd *pw = getpwuid(getuid());
  printf("user: %s %d %s %s\n", pw->pw_name, (int)pw->pw_uid, pw->pw_dir, pw->pw_shell);
  printf("isatty: %d\n", isatty(1));
  printf("getppid: %d\n", getppid() > 0);
  return 0;
}
