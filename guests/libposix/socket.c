// Sockets for C guests on the VM's host_net imports (workers/net-imports.ts), which call the kernel's socket
// system calls: loopback sockets inside the VM and outbound connections under its network policy. wasi-libc's
// constants (AF_INET 1, SOCK_STREAM 6, SOL_SOCKET 0x7fffffff, MSG_PEEK 1) are mapped here to the kernel's,
// which are Linux's. Bytes also flow through read/write, readiness through poll/select (kernel fds both).
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#define IMPORT(name) __attribute__((import_module("host_net"), import_name(name)))

/* The kernel's numbers (src/abi/net.ts). */
enum { K_AF_UNIX = 1, K_AF_INET = 2, K_AF_INET6 = 10 };
enum { K_STREAM = 1, K_DGRAM = 2, K_NONBLOCK = 0x800, K_CLOEXEC = 0x80000 };
enum { K_SOL_SOCKET = 1, K_MSG_PEEK = 0x2, K_MSG_DONTWAIT = 0x40, K_MSG_NOSIGNAL = 0x4000 };

/* An address as host_net takes it: family and port (host order), then 4 or 16 address bytes. */
struct ao_addr {
  uint16_t family, port;
  uint8_t bytes[16];
};

IMPORT("sock_open") uint32_t ao_sock_open(uint32_t domain, uint32_t type, uint32_t *fd);
IMPORT("sock_pair") uint32_t ao_sock_pair(uint32_t domain, uint32_t type, uint32_t fds[2]);
IMPORT("sock_bind") uint32_t ao_sock_bind(uint32_t fd, const struct ao_addr *addr);
IMPORT("sock_listen") uint32_t ao_sock_listen(uint32_t fd, uint32_t backlog);
IMPORT("sock_accept") uint32_t ao_sock_accept(uint32_t fd, uint32_t flags, uint32_t *newfd, struct ao_addr *addr);
IMPORT("sock_connect") uint32_t ao_sock_connect(uint32_t fd, const struct ao_addr *addr);
IMPORT("sock_name") uint32_t ao_sock_name(uint32_t fd, uint32_t peer, struct ao_addr *addr);
IMPORT("sock_setopt") uint32_t ao_sock_setopt(uint32_t fd, uint32_t level, uint32_t name, uint32_t value);
IMPORT("sock_getopt") uint32_t ao_sock_getopt(uint32_t fd, uint32_t level, uint32_t name, uint32_t *value);
IMPORT("sock_send")
uint32_t ao_sock_send(uint32_t fd, const void *buf, uint32_t len, uint32_t flags, const struct ao_addr *to, uint32_t *sent);
IMPORT("sock_recv") uint32_t ao_sock_recv(uint32_t fd, void *buf, uint32_t len, uint32_t flags, struct ao_addr *from, uint32_t *got);

static int fail(uint32_t err) {
  errno = (int)err;
  return -1;
}

static int kernel_domain(int domain) {
  switch (domain) {
  case AF_INET: return K_AF_INET;
  case AF_INET6: return K_AF_INET6;
  case AF_UNIX: return K_AF_UNIX;
  default: return -1;
  }
}

static int guest_domain(int domain) {
  return domain == K_AF_INET ? AF_INET : domain == K_AF_INET6 ? AF_INET6 : domain == K_AF_UNIX ? AF_UNIX : AF_UNSPEC;
}

/* The kernel's SOCKET type for wasi-libc's type | SOCK_NONBLOCK | SOCK_CLOEXEC; -1 for a type it has not. */
static int kernel_type(int type) {
  int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC), k;
  if (base == SOCK_STREAM) k = K_STREAM;
  else if (base == SOCK_DGRAM) k = K_DGRAM;
  else return -1;
  return k | (type & SOCK_NONBLOCK ? K_NONBLOCK : 0) | (type & SOCK_CLOEXEC ? K_CLOEXEC : 0);
}

static int kernel_flags(int flags) {
  if (flags & ~(MSG_PEEK | MSG_DONTWAIT | MSG_NOSIGNAL | MSG_WAITALL)) return -1;
  return (flags & MSG_PEEK ? K_MSG_PEEK : 0) | (flags & MSG_DONTWAIT ? K_MSG_DONTWAIT : 0) | (flags & MSG_NOSIGNAL ? K_MSG_NOSIGNAL : 0);
}

/* A sockaddr to host_net's record: EAFNOSUPPORT for a family other than IPv4 and IPv6, EINVAL when too short. */
static int to_record(const struct sockaddr *sa, socklen_t len, struct ao_addr *out) {
  memset(out, 0, sizeof *out);
  if (!sa || len < sizeof(sa_family_t)) return EINVAL;
  if (sa->sa_family == AF_INET) {
    if (len < sizeof(struct sockaddr_in)) return EINVAL;
    const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
    out->family = K_AF_INET;
    out->port = ntohs(in->sin_port);
    memcpy(out->bytes, &in->sin_addr, 4);
    return 0;
  }
  if (sa->sa_family == AF_INET6) {
    if (len < sizeof(struct sockaddr_in6)) return EINVAL;
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
    out->family = K_AF_INET6;
    out->port = ntohs(in6->sin6_port);
    memcpy(out->bytes, &in6->sin6_addr, 16);
    return 0;
  }
  return EAFNOSUPPORT;
}

/* host_net's record to a sockaddr, cut to *len as POSIX says; *len becomes the address's whole length. */
static void from_record(const struct ao_addr *rec, struct sockaddr *sa, socklen_t *len) {
  struct sockaddr_storage ss;
  socklen_t n;
  memset(&ss, 0, sizeof ss);
  if (rec->family == K_AF_INET6) {
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(rec->port);
    memcpy(&in6->sin6_addr, rec->bytes, 16);
    n = sizeof *in6;
  } else if (rec->family == K_AF_INET) {
    struct sockaddr_in *in = (struct sockaddr_in *)&ss;
    in->sin_family = AF_INET;
    in->sin_port = htons(rec->port);
    memcpy(&in->sin_addr, rec->bytes, 4);
    n = sizeof *in;
  } else {
    ss.ss_family = guest_domain(rec->family);
    n = sizeof(sa_family_t);
  }
  if (!sa || !len) return;
  memcpy(sa, &ss, *len < n ? *len : n);
  *len = n;
}

int socket(int domain, int type, int protocol) {
  int d = kernel_domain(domain), t = kernel_type(type);
  uint32_t fd;
  if (d < 0) return fail(EAFNOSUPPORT);
  if (t < 0) return fail(EPROTOTYPE);
  // The protocol must be the type's own (0, TCP for a stream, UDP for datagrams), as Linux has it.
  if (protocol != 0 && !((t & 0xf) == K_STREAM && protocol == IPPROTO_TCP) && !((t & 0xf) == K_DGRAM && protocol == IPPROTO_UDP))
    return fail(EPROTONOSUPPORT);
  uint32_t err = ao_sock_open(d, t, &fd);
  return err ? fail(err) : (int)fd;
}

int socketpair(int domain, int type, int protocol, int fds[2]) {
  int d = kernel_domain(domain), t = kernel_type(type);
  uint32_t pair[2];
  if (d < 0) return fail(EAFNOSUPPORT);
  if (t < 0) return fail(EPROTOTYPE);
  if (protocol != 0) return fail(EPROTONOSUPPORT);
  uint32_t err = ao_sock_pair(d, t, pair);
  if (err) return fail(err);
  fds[0] = (int)pair[0];
  fds[1] = (int)pair[1];
  return 0;
}

int bind(int fd, const struct sockaddr *sa, socklen_t len) {
  struct ao_addr rec;
  int e = to_record(sa, len, &rec);
  if (e) return fail(e);
  uint32_t err = ao_sock_bind(fd, &rec);
  return err ? fail(err) : 0;
}

int connect(int fd, const struct sockaddr *sa, socklen_t len) {
  struct ao_addr rec;
  int e = to_record(sa, len, &rec);
  if (e) return fail(e);
  uint32_t err = ao_sock_connect(fd, &rec);
  return err ? fail(err) : 0;
}

int listen(int fd, int backlog) {
  uint32_t err = ao_sock_listen(fd, backlog < 0 ? 0 : backlog);
  return err ? fail(err) : 0;
}

int accept4(int fd, struct sockaddr *__restrict sa, socklen_t *__restrict len, int flags) {
  struct ao_addr rec;
  uint32_t newfd;
  if (flags & ~(SOCK_NONBLOCK | SOCK_CLOEXEC)) return fail(EINVAL);
  uint32_t err = ao_sock_accept(fd, flags & SOCK_NONBLOCK ? K_NONBLOCK : 0, &newfd, &rec);
  if (err) return fail(err);
  from_record(&rec, sa, len);
  return (int)newfd;
}

int accept(int fd, struct sockaddr *__restrict sa, socklen_t *__restrict len) {
  return accept4(fd, sa, len, 0);
}

static int name_of(int fd, int peer, struct sockaddr *sa, socklen_t *len) {
  struct ao_addr rec;
  if (!sa || !len) return fail(EFAULT);
  uint32_t err = ao_sock_name(fd, peer, &rec);
  if (err) return fail(err);
  from_record(&rec, sa, len);
  return 0;
}

int getsockname(int fd, struct sockaddr *__restrict sa, socklen_t *__restrict len) { return name_of(fd, 0, sa, len); }
int getpeername(int fd, struct sockaddr *__restrict sa, socklen_t *__restrict len) { return name_of(fd, 1, sa, len); }

/* Options accepted and ignored: tuning the kernel has no use for (keep-alive timing, lingering, low-water marks). */
static int ignored_option(int level, int name) {
  if (level == IPPROTO_TCP) return name == TCP_KEEPIDLE || name == TCP_KEEPINTVL || name == TCP_KEEPCNT;
  if (level == SOL_SOCKET) return name == SO_LINGER || name == SO_RCVLOWAT || name == SO_SNDLOWAT || name == SO_OOBINLINE;
  return 0;
}

int setsockopt(int fd, int level, int name, const void *value, socklen_t len) {
  if (ignored_option(level, name)) {
    uint32_t v;
    uint32_t err = ao_sock_getopt(fd, K_SOL_SOCKET, SO_TYPE, &v); // still EBADF / ENOTSOCK for a bad fd
    return err ? fail(err) : 0;
  }
  if (!value || len < sizeof(int)) return fail(EINVAL);
  int v;
  memcpy(&v, value, sizeof v);
  uint32_t err = ao_sock_setopt(fd, level == SOL_SOCKET ? K_SOL_SOCKET : level, name, (uint32_t)v);
  return err ? fail(err) : 0;
}

int getsockopt(int fd, int level, int name, void *__restrict value, socklen_t *__restrict len) {
  uint32_t v;
  if (!value || !len) return fail(EFAULT);
  if (level == SOL_SOCKET && name == SO_LINGER) {
    struct linger l = {0, 0};
    uint32_t err = ao_sock_getopt(fd, K_SOL_SOCKET, SO_TYPE, &v);
    if (err) return fail(err);
    memcpy(value, &l, *len < sizeof l ? *len : sizeof l);
    *len = sizeof l;
    return 0;
  }
  uint32_t err = ao_sock_getopt(fd, level == SOL_SOCKET ? K_SOL_SOCKET : level, name, &v);
  if (err) return fail(err);
  int out = (int)v;
  if (level == SOL_SOCKET && name == SO_TYPE) out = v == K_DGRAM ? SOCK_DGRAM : SOCK_STREAM;
  if (level == SOL_SOCKET && name == SO_DOMAIN) out = guest_domain(v);
  if (*len < sizeof out) return fail(EINVAL);
  memcpy(value, &out, sizeof out);
  *len = sizeof out;
  return 0;
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *sa, socklen_t salen) {
  struct ao_addr rec;
  uint32_t sent;
  int f = kernel_flags(flags);
  if (f < 0) return fail(EOPNOTSUPP);
  if (sa) {
    int e = to_record(sa, salen, &rec);
    if (e) return fail(e);
  }
  uint32_t err = ao_sock_send(fd, buf, len, f, sa ? &rec : 0, &sent);
  return err ? fail(err) : (ssize_t)sent;
}

ssize_t send(int fd, const void *buf, size_t len, int flags) {
  // A blocking stream send takes everything (host_net sends one channel's worth per call).
  size_t done = 0;
  do {
    ssize_t n = sendto(fd, (const char *)buf + done, len - done, flags, 0, 0);
    if (n < 0) return done > 0 ? (ssize_t)done : -1;
    done += (size_t)n;
    if (n == 0 || (flags & MSG_DONTWAIT)) break;
  } while (done < len);
  return (ssize_t)done;
}

ssize_t recvfrom(int fd, void *__restrict buf, size_t len, int flags, struct sockaddr *__restrict sa, socklen_t *__restrict salen) {
  struct ao_addr rec;
  uint32_t got;
  int f = kernel_flags(flags);
  if (f < 0) return fail(EOPNOTSUPP);
  uint32_t err = ao_sock_recv(fd, buf, len, f, sa ? &rec : 0, &got);
  if (err) return fail(err);
  if (sa) from_record(&rec, sa, salen);
  // MSG_WAITALL: more receives until the buffer is full or the stream ends.
  if ((flags & MSG_WAITALL) && !(flags & MSG_PEEK))
    while (got > 0 && got < len) {
      uint32_t more;
      if (ao_sock_recv(fd, (char *)buf + got, len - got, f, 0, &more) || more == 0) break;
      got += more;
    }
  return (ssize_t)got;
}

ssize_t recv(int fd, void *buf, size_t len, int flags) { return recvfrom(fd, buf, len, flags, 0, 0); }
