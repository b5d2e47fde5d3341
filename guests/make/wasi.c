/*
 * What GNU make calls that neither wasi-libc nor guests/libposix has, and its spawn (job.c's __wasi__ branch).
 */
#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

pid_t agentos_spawnvpe(const char *file, char *const argv[], char *const envp[], const char *dir, int in, int out, int err);

__attribute__((import_module("host_process"), import_name("proc_roomfd"))) uint32_t ao_proc_roomfd(uint32_t *fd);

/*
 * A recipe's process. When the VM runs as many processes as it may (EAGAIN), make waits for room as bash
 * retries a fork: up to 1, 2, 4 and 8 s, each wait ended as soon as a process of the VM exits (the kernel's
 * room fd polls readable), then gives up with EAGAIN (`make -j` of more targets than the VM's maxProcesses
 * then runs them as room frees, and a VM full of processes that wait on make fails instead of hanging).
 */
pid_t agentos_make_spawn(char *const argv[], char *const envp[], int in, int out, int err) {
  static const int waits_ms[] = {1000, 2000, 4000, 8000};
  for (unsigned i = 0;; i++) {
    pid_t pid = agentos_spawnvpe(argv[0], argv, envp, NULL, in, out, err);
    if (pid >= 0 || errno != EAGAIN || i == sizeof waits_ms / sizeof waits_ms[0]) return pid;
    uint32_t room;
    if (ao_proc_roomfd(&room) != 0) {
      errno = EAGAIN;
      return -1;
    }
    struct pollfd p = {.fd = (int)room, .events = POLLIN};
    poll(&p, 1, waits_ms[i]);
    close((int)room);
  }
}

/* `~` with no HOME (read.c, glob.c): the user the VM runs as.  */
char *getlogin(void) {
  struct passwd *pw = getpwuid(getuid());
  return pw ? pw->pw_name : NULL;
}

/* `-l load`: the VM reports no load average, so make never holds a job back for it (as where none is known).  */
int getloadavg(double loadavg[], int nelem) {
  (void)loadavg;
  (void)nelem;
  errno = ENOSYS;
  return -1;
}
