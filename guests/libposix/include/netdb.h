#ifndef AGENTOS_NETDB_H
#define AGENTOS_NETDB_H
/* No name resolution for C guests: every lookup fails (EAI_FAIL, HOST_NOT_FOUND). */
#include <stdio.h>
#include <sys/socket.h>
#include <netinet/in.h>
struct hostent {
  char *h_name;
  char **h_aliases;
  int h_addrtype, h_length;
  char **h_addr_list;
};
#define h_addr h_addr_list[0]
struct addrinfo {
  int ai_flags, ai_family, ai_socktype, ai_protocol;
  socklen_t ai_addrlen;
  struct sockaddr *ai_addr;
  char *ai_canonname;
  struct addrinfo *ai_next;
};
struct servent {
  char *s_name;
  char **s_aliases;
  int s_port;
  char *s_proto;
};
/* No sockets for C guests either: socket and connect fail with ENOSYS. */
#include <errno.h>
#include <arpa/inet.h>
#ifndef SOL_SOCKET
#define SOL_SOCKET 1
#endif
#ifndef SO_KEEPALIVE
#define SO_KEEPALIVE 9
#endif
static inline int socket(int d, int t, int p) { (void)d, (void)t, (void)p; errno = ENOSYS; return -1; }
static inline int connect(int fd, const struct sockaddr *a, socklen_t l) { (void)fd, (void)a, (void)l; errno = ENOSYS; return -1; }
static inline int setsockopt(int fd, int lv, int o, const void *v, socklen_t l) { (void)fd, (void)lv, (void)o, (void)v, (void)l; errno = ENOSYS; return -1; }
static inline char *inet_ntoa(struct in_addr a) { static char s[16]; unsigned char *b = (unsigned char *)&a; snprintf(s, sizeof s, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]); return s; }
#define AI_PASSIVE 0x01
#define AI_CANONNAME 0x02
#define AI_NUMERICHOST 0x04
#define NI_MAXHOST 255
#define NI_MAXSERV 32
#define NI_NUMERICHOST 0x01
#define NI_NUMERICSERV 0x02
#define EAI_FAIL -4
#define HOST_NOT_FOUND 1
#define h_errno (*agentos_h_errno())
static inline int *agentos_h_errno(void) { static int e = HOST_NOT_FOUND; return &e; }
static inline struct hostent *gethostbyname(const char *name) { (void)name; return 0; }
static inline struct servent *getservbyname(const char *n, const char *p) { (void)n, (void)p; return 0; }
static inline int getaddrinfo(const char *n, const char *s, const struct addrinfo *h, struct addrinfo **r) { (void)n, (void)s, (void)h, (void)r; return EAI_FAIL; }
static inline void freeaddrinfo(struct addrinfo *r) { (void)r; }
static inline int getnameinfo(const struct sockaddr *a, socklen_t l, char *h, socklen_t hl, char *s, socklen_t sl, int f) {
  (void)a, (void)l, (void)h, (void)hl, (void)s, (void)sl, (void)f;
  return EAI_FAIL;
}
static inline struct hostent *gethostbyaddr(const void *a, socklen_t l, int t) { (void)a, (void)l, (void)t; return 0; }
static inline struct servent *getservbyport(int port, const char *p) { (void)port, (void)p; return 0; }
static inline const char *gai_strerror(int e) { (void)e; return "name resolution is not available in this VM"; }
static inline const char *hstrerror(int e) { (void)e; return "name resolution is not available in this VM"; }
#endif
