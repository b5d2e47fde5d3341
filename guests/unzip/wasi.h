/*
 * Force-included into every file of unzip on WASI (guests/c.ts UNZIP). Info-ZIP's unix/ port expects the System V
 * time-zone interface, which wasi-libc leaves out (it has no time-zone tables: its local time is UTC, as the
 * VM's is): tzset() and `timezone` are given by wasi.c, for UTC. <utime.h> is included where unxcfg.h would
 * include it on Linux (it tests `linux` or __GLIBC__).
 */
#ifndef AGENTOS_UNZIP_WASI_H
#define AGENTOS_UNZIP_WASI_H
#include <time.h>
#include <utime.h>
void tzset(void);
extern long timezone;
#endif
