/*
 * wasi-libc's <sys/socket.h> and what it hides or lacks: the socket calls of guests/libposix/socket.c (on the VM's
 * host_net imports) and the Linux option and flag names programs test for. wasi-libc's own constants (AF_INET 1,
 * SOCK_STREAM 6, SOL_SOCKET 0x7fffffff, MSG_PEEK 1) stay as they are: socket.c maps them to the kernel's.
 */
#ifndef AGENTOS_SYS_SOCKET_H
#define AGENTOS_SYS_SOCKET_H
#include_next <sys/socket.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PF_UNSPEC AF_UNSPEC
#define PF_INET AF_INET
#define PF_INET6 AF_INET6
#define PF_UNIX AF_UNIX
#define PF_LOCAL AF_UNIX
#define AF_LOCAL AF_UNIX
#define SOMAXCONN 4096
#define SOL_IP 0
#define SOL_IPV6 41
#define SOL_TCP 6

#define SO_DEBUG 1
#define SO_REUSEADDR 2
#define SO_ERROR 4
#define SO_DONTROUTE 5
#define SO_BROADCAST 6
#define SO_SNDBUF 7
#define SO_RCVBUF 8
#define SO_KEEPALIVE 9
#define SO_OOBINLINE 10
#define SO_LINGER 13
#define SO_REUSEPORT 15
#define SO_RCVLOWAT 18
#define SO_SNDLOWAT 19
#define SO_RCVTIMEO 66
#define SO_SNDTIMEO 67
#define SO_ACCEPTCONN 30
#define SO_PROTOCOL 38
#define SO_DOMAIN 39

#define MSG_OOB 0x0001
#define MSG_DONTROUTE 0x0004
#define MSG_DONTWAIT 0x0040
#define MSG_NOSIGNAL 0x4000

int socket(int, int, int);
int socketpair(int, int, int, int[2]);
int bind(int, const struct sockaddr *, socklen_t);
int connect(int, const struct sockaddr *, socklen_t);
int listen(int, int);
int getsockname(int, struct sockaddr *__restrict, socklen_t *__restrict);
int getpeername(int, struct sockaddr *__restrict, socklen_t *__restrict);
ssize_t sendto(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
ssize_t recvfrom(int, void *__restrict, size_t, int, struct sockaddr *__restrict, socklen_t *__restrict);
int setsockopt(int, int, int, const void *, socklen_t);

#ifdef __cplusplus
}
#endif
#endif
