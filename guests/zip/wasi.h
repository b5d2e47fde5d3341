/*
 * Force-included into every file of zip on WASI (guests/c.ts ZIP): zip calls tzset(), which wasi-libc leaves
 * out (it has no time-zone tables: its local time is UTC, as the VM's is); wasi.c gives it, for UTC.
 */
#ifndef AGENTOS_ZIP_WASI_H
#define AGENTOS_ZIP_WASI_H
#include <time.h>
void tzset(void);
#endif
