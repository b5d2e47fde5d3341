/*
 * What gnulib expects of the C library and wasi-libc lacks, for diff3 (guests/c.ts DIFF3):
 * - tzset(): wasi-libc has no time zones (its local time is UTC, as the VM's); nothing to read.
 * - mtx_* and call_once of C11 threads, which gnulib's setlocale_null locks with: a WASI process has one thread.
 * - program_invocation_short_name, which gnulib's error() prints before a message: wasi-libc never sets it
 *   (musl's start code does), so set_program_name() is wrapped (-Wl,--wrap=set_program_name) to set it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

void tzset(void) {}

typedef struct {
  int unused;
} ao_mtx;
int mtx_init(ao_mtx *m, int type) {
  (void)m, (void)type;
  return 0;
}
int mtx_lock(ao_mtx *m) {
  (void)m;
  return 0;
}
int mtx_unlock(ao_mtx *m) {
  (void)m;
  return 0;
}
void call_once(int *flag, void (*f)(void)) {
  if (!*flag) {
    *flag = 1;
    f();
  }
}

void __real_set_program_name(const char *argv0);
void __wrap_set_program_name(const char *argv0) {
  __real_set_program_name(argv0);
  const char *slash = strrchr(program_invocation_name, '/');
  program_invocation_short_name = (char *)(slash ? slash + 1 : program_invocation_name);
}
