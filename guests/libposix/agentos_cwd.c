// Moves libc to the directory the kernel keeps for the process, as guests/cwd/cwd.rs does for the Rust guests:
// wasi-libc starts in "/". Default priority: an earlier constructor runs before wasi-libc has read its
// preopens, and chdir fails then. Linked as an object, since nothing references it.
#include <unistd.h>
#include <stdint.h>

__attribute__((import_module("host_process"), import_name("proc_getcwd")))
uint32_t agentos_proc_getcwd(char *buf, uint32_t len, uint32_t *used);

__attribute__((constructor)) static void agentos_follow_cwd(void) {
  static char dir[4096];
  uint32_t n = 0;
  if (agentos_proc_getcwd(dir, sizeof dir - 1, &n) == 0) {
    dir[n] = 0;
    chdir(dir);
  }
}
