/* tzset(), which zip calls (wasi.h), for the VM's one time zone, UTC: nothing to read. */
#include "wasi.h"

void tzset(void) {}
