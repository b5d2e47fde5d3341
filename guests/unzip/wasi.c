/* The System V time-zone interface unzip's unix/ port calls (wasi.h), for the VM's one zone, UTC. */
#include "wasi.h"

long timezone = 0;

void tzset(void) {}
