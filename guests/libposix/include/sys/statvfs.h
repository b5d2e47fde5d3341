#ifndef AGENTOS_SYS_STATVFS_H
#define AGENTOS_SYS_STATVFS_H
/* No file system statistics in the VM: statvfs fails with ENOSYS. */
#include <errno.h>
#include <sys/types.h>
struct statvfs {
  unsigned long f_bsize, f_frsize;
  unsigned long long f_blocks, f_bfree, f_bavail, f_files, f_ffree, f_favail;
  unsigned long f_fsid, f_flag, f_namemax;
};
static inline int statvfs(const char *path, struct statvfs *buf) { (void)path, (void)buf; errno = ENOSYS; return -1; }
static inline int fstatvfs(int fd, struct statvfs *buf) { (void)fd, (void)buf; errno = ENOSYS; return -1; }
#endif
