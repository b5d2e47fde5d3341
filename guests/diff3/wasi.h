/* Force-included into every file of diffutils on WASI (guests/c.ts DIFF3): wasi.c's tzset(), which wasi-libc lacks. */
#ifndef AGENTOS_DIFF3_WASI_H
#define AGENTOS_DIFF3_WASI_H
void tzset(void);
#endif
