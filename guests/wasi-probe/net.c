// Sockets and name resolution of guests/libposix (socket.c, netdb.c), run in the VM by test/libposix-net.test.ts:
//   net-probe local            loopback TCP (IPv4, IPv6), UDP, socketpair, options, numeric getaddrinfo
//   net-probe get HOST PORT     getaddrinfo + blocking connect + an HTTP/1.0 GET, first line of the answer
//   net-probe nb HOST PORT      the same with a non-blocking connect: EINPROGRESS, poll POLLOUT, SO_ERROR
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

static const char *err_name(int e) {
  switch (e) {
  case 0: return "0";
  case EACCES: return "EACCES";
  case EAGAIN: return "EAGAIN";
  case ECONNREFUSED: return "ECONNREFUSED";
  case ECONNRESET: return "ECONNRESET";
  case EINPROGRESS: return "EINPROGRESS";
  case EINVAL: return "EINVAL";
  case ENETUNREACH: return "ENETUNREACH";
  case EHOSTUNREACH: return "EHOSTUNREACH";
  case ENOPROTOOPT: return "ENOPROTOOPT";
  case ENOTCONN: return "ENOTCONN";
  case ETIMEDOUT: return "ETIMEDOUT";
  case EAFNOSUPPORT: return "EAFNOSUPPORT";
  case EPERM: return "EPERM";
  default: return "other";
  }
}

static const char *gai_name(int e) {
  switch (e) {
  case EAI_NONAME: return "EAI_NONAME";
  case EAI_AGAIN: return "EAI_AGAIN";
  case EAI_FAIL: return "EAI_FAIL";
  case EAI_SERVICE: return "EAI_SERVICE";
  case EAI_FAMILY: return "EAI_FAMILY";
  case EAI_ADDRFAMILY: return "EAI_ADDRFAMILY";
  default: return "other";
  }
}

static void show(const char *what, const struct sockaddr *sa) {
  char host[64], serv[16];
  int e = getnameinfo(sa, sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in), host, sizeof host, serv,
                      sizeof serv, NI_NUMERICHOST | NI_NUMERICSERV);
  if (e) printf("%s: getnameinfo %s\n", what, gai_name(e));
  else printf("%s: %s %s\n", what, sa->sa_family == AF_INET6 ? "inet6" : "inet", host);
}

static void lookup(const char *node, const char *serv, int family, int flags) {
  struct addrinfo hints = {.ai_family = family, .ai_socktype = SOCK_STREAM, .ai_flags = flags}, *res;
  int e = getaddrinfo(node, serv, &hints, &res);
  printf("getaddrinfo %s %s:", node ? node : "(null)", serv ? serv : "(null)");
  if (e) {
    printf(" %s (%s)\n", gai_name(e), gai_strerror(e));
    return;
  }
  for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
    char host[64];
    const void *a = ai->ai_family == AF_INET6 ? (void *)&((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr : (void *)&((struct sockaddr_in *)ai->ai_addr)->sin_addr;
    int port = ntohs(ai->ai_family == AF_INET6 ? ((struct sockaddr_in6 *)ai->ai_addr)->sin6_port : ((struct sockaddr_in *)ai->ai_addr)->sin_port);
    inet_ntop(ai->ai_family, a, host, sizeof host);
    printf(" %s/%d", host, port);
  }
  printf("\n");
  freeaddrinfo(res);
}

/* A listening TCP socket on the loopback of `family`, a client connected to it, and bytes both ways. */
static void tcp_loopback(int family) {
  const char *tag = family == AF_INET6 ? "tcp6" : "tcp4";
  struct sockaddr_storage ss = {0};
  socklen_t len;
  if (family == AF_INET6) {
    struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
    a->sin6_family = AF_INET6;
    a->sin6_addr = in6addr_loopback;
    len = sizeof *a;
  } else {
    struct sockaddr_in *a = (struct sockaddr_in *)&ss;
    a->sin_family = AF_INET;
    a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    len = sizeof *a;
  }
  int l = socket(family, SOCK_STREAM, 0);
  int one = 1;
  if (setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0) printf("%s: SO_REUSEADDR %s\n", tag, err_name(errno));
  if (bind(l, (struct sockaddr *)&ss, len) != 0 || listen(l, 4) != 0) {
    printf("%s: bind/listen %s\n", tag, err_name(errno));
    return;
  }
  len = sizeof ss;
  getsockname(l, (struct sockaddr *)&ss, &len);
  int port = ntohs(family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port : ((struct sockaddr_in *)&ss)->sin_port);
  printf("%s: bound to an ephemeral port: %d\n", tag, port >= 49152);
  int c = socket(family, SOCK_STREAM, 0);
  if (connect(c, (struct sockaddr *)&ss, len) != 0) printf("%s: connect %s\n", tag, err_name(errno));
  struct sockaddr_storage peer;
  socklen_t plen = sizeof peer;
  int s = accept(l, (struct sockaddr *)&peer, &plen);
  if (s < 0) {
    printf("%s: accept %s\n", tag, err_name(errno));
    return;
  }
  show("accepted from", (struct sockaddr *)&peer);
  plen = sizeof peer;
  getpeername(c, (struct sockaddr *)&peer, &plen);
  printf("%s: client's peer port matches: %d\n", tag, ntohs(family == AF_INET6 ? ((struct sockaddr_in6 *)&peer)->sin6_port : ((struct sockaddr_in *)&peer)->sin_port) == port);
  char buf[64] = {0};
  send(c, "ping", 4, MSG_NOSIGNAL);
  ssize_t n = recv(s, buf, sizeof buf - 1, 0);
  printf("%s: server got %zd '%.*s'\n", tag, n, (int)n, buf);
  write(s, "pong", 4);
  struct pollfd p = {c, POLLIN, 0};
  printf("%s: poll %d revents POLLIN %d\n", tag, poll(&p, 1, 10000), (p.revents & POLLIN) != 0);
  n = read(c, buf, sizeof buf);
  printf("%s: client read %zd '%.*s'\n", tag, n, (int)n, buf);
  shutdown(s, SHUT_WR);
  printf("%s: after shutdown recv %zd\n", tag, recv(c, buf, sizeof buf, 0));
  close(c);
  close(s);
  close(l);
}

static int local(void) {
  tcp_loopback(AF_INET);
  tcp_loopback(AF_INET6);

  // UDP on the loopback: a datagram and its sender.
  int u1 = socket(AF_INET, SOCK_DGRAM, 0), u2 = socket(AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)}, from;
  socklen_t len = sizeof a;
  bind(u1, (struct sockaddr *)&a, sizeof a);
  getsockname(u1, (struct sockaddr *)&a, &len);
  ssize_t n = sendto(u2, "datagram", 8, 0, (struct sockaddr *)&a, sizeof a);
  char buf[64];
  len = sizeof from;
  ssize_t got = recvfrom(u1, buf, sizeof buf, 0, (struct sockaddr *)&from, &len);
  printf("udp: sent %zd got %zd '%.*s'\n", n, got, (int)got, buf);
  show("udp from", (struct sockaddr *)&from);
  close(u1);
  close(u2);

  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) printf("socketpair: %s\n", err_name(errno));
  else {
    write(sv[0], "pair", 4);
    fd_set r;
    FD_ZERO(&r);
    FD_SET(sv[1], &r);
    struct timeval tv = {10, 0};
    int ready = select(sv[1] + 1, &r, 0, 0, &tv);
    n = read(sv[1], buf, sizeof buf);
    printf("socketpair: select %d read %zd '%.*s'\n", ready, n, (int)n, buf);
    close(sv[0]);
    close(sv[1]);
  }

  int s = socket(AF_INET, SOCK_STREAM, 0), one = 1, v = 0;
  socklen_t vl = sizeof v;
  printf("TCP_NODELAY %d SO_KEEPALIVE %d TCP_KEEPIDLE %d\n", setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one),
         setsockopt(s, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one), setsockopt(s, IPPROTO_TCP, TCP_KEEPIDLE, &one, sizeof one));
  getsockopt(s, SOL_SOCKET, SO_TYPE, &v, &vl);
  printf("SO_TYPE is SOCK_STREAM: %d\n", v == SOCK_STREAM);
  struct timeval tv = {1, 0};
  printf("SO_RCVTIMEO: %d %s\n", setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv), err_name(errno));
  close(s);
  printf("socket AF 99: %d %s\n", socket(99, SOCK_STREAM, 0), err_name(errno));
  printf("connect unconnected peer: %d %s\n", getpeername(0, (struct sockaddr *)&a, &len), errno == ENOTSOCK ? "ENOTSOCK" : err_name(errno));

  lookup("127.1", "80", AF_UNSPEC, 0);
  lookup("0x7f.1", "http", AF_UNSPEC, 0);
  lookup("::1", "443", AF_UNSPEC, AI_NUMERICHOST);
  lookup("example.test", "80", AF_UNSPEC, AI_NUMERICHOST);
  lookup(NULL, "8080", AF_INET, AI_PASSIVE);
  lookup(NULL, "8080", AF_INET, 0);
  lookup("127.0.0.1", "no-such-service", AF_UNSPEC, 0);
  lookup("::1", "80", AF_INET, 0);
  lookup("localhost", "80", AF_INET, 0);
  return 0;
}

static int get(const char *host, const char *port, int nonblocking) {
  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res;
  int e = getaddrinfo(host, port, &hints, &res);
  if (e) {
    printf("getaddrinfo: %s (%s)\n", gai_name(e), gai_strerror(e));
    return 6;
  }
  int s = socket(res->ai_family, res->ai_socktype, res->ai_protocol);
  if (nonblocking) fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK);
  int r = connect(s, res->ai_addr, res->ai_addrlen);
  freeaddrinfo(res);
  if (nonblocking) {
    printf("connect: %d %s\n", r, r ? err_name(errno) : "0");
    if (r != 0 && errno != EINPROGRESS) return 7;
    struct pollfd p = {s, POLLOUT, 0};
    int ready = poll(&p, 1, 30000);
    int soerr = -1;
    socklen_t l = sizeof soerr;
    getsockopt(s, SOL_SOCKET, SO_ERROR, &soerr, &l);
    printf("poll: %d POLLOUT %d SO_ERROR %s\n", ready, (p.revents & POLLOUT) != 0, err_name(soerr));
    if (soerr) return 7;
  } else if (r != 0) {
    printf("connect: %s\n", err_name(errno));
    return 7;
  }
  struct sockaddr_storage peer;
  socklen_t plen = sizeof peer;
  getpeername(s, (struct sockaddr *)&peer, &plen);
  show("peer", (struct sockaddr *)&peer);
  char req[256];
  int n = snprintf(req, sizeof req, "GET /probe HTTP/1.0\r\nHost: %s\r\n\r\n", host);
  for (int off = 0; off < n;) {
    ssize_t w = send(s, req + off, n - off, 0);
    if (w < 0 && errno == EAGAIN) {
      struct pollfd p = {s, POLLOUT, 0};
      poll(&p, 1, 30000);
      continue;
    }
    if (w <= 0) return 1;
    off += w;
  }
  static char resp[65536];
  size_t got = 0;
  for (;;) {
    ssize_t m = recv(s, resp + got, sizeof resp - 1 - got, 0);
    if (m < 0 && errno == EAGAIN) {
      struct pollfd p = {s, POLLIN, 0};
      poll(&p, 1, 30000);
      continue;
    }
    if (m <= 0) break;
    got += m;
  }
  resp[got] = 0;
  char *eol = strstr(resp, "\r\n");
  char *body = strstr(resp, "\r\n\r\n");
  printf("status: %.*s\nbody: %s", eol ? (int)(eol - resp) : 0, resp, body ? body + 4 : "(none)\n");
  close(s);
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, 0, _IONBF, 0);
  if (argc == 2 && strcmp(argv[1], "local") == 0) return local();
  if (argc == 4 && strcmp(argv[1], "get") == 0) return get(argv[2], argv[3], 0);
  if (argc == 4 && strcmp(argv[1], "nb") == 0) return get(argv[2], argv[3], 1);
  fprintf(stderr, "usage: net-probe local | get HOST PORT | nb HOST PORT\n");
  return 2;
}
