/*
 * What GNU make calls that neither wasi-libc nor guests/libposix has.
 */
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>

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
