#ifndef AGENTOS_GRP_H
#define AGENTOS_GRP_H
#include <sys/types.h>
struct group {
  char *gr_name, *gr_passwd;
  gid_t gr_gid;
  char **gr_mem;
};
struct group *getgrgid(gid_t);
struct group *getgrnam(const char *);
#endif
