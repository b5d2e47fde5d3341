/*
 * wasi-libc's <poll.h> and the event names it lacks. Its poll() waits only for POLLIN (POLLRDNORM) and POLLOUT
 * (POLLWRNORM) and never reports these: a program asking for urgent data (POLLPRI) simply never gets any.
 */
#ifndef AGENTOS_POLL_H
#define AGENTOS_POLL_H
#include_next <poll.h>
#ifndef POLLPRI
#define POLLPRI 0x0004
#endif
#ifndef POLLRDBAND
#define POLLRDBAND 0x0008
#endif
#ifndef POLLWRBAND
#define POLLWRBAND 0x0010
#endif
#endif
