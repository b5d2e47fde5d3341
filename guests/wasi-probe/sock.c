// sock_send, sock_recv and sock_shutdown on a socket of the VM: fd 3, one end of a socket pair its parent (a
// `node` script of test/wasi-posix.test.ts) made. It sends "ping", peeks at the answer, waits for all 9 bytes
// of it (MSG_WAITALL: the parent writes them in two parts), then shuts its side down.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  printf("send: %zd\n", send(3, "ping", 4, 0));
  char buf[16] = {0};
  ssize_t n = recv(3, buf, 2, MSG_PEEK);
  printf("peek: %zd %.*s\n", n, (int)n, buf);
  memset(buf, 0, sizeof buf);
  n = recv(3, buf, 9, MSG_WAITALL);
  printf("recv waitall: %zd %.*s\n", n, (int)n, buf);
  printf("shutdown: %d\n", shutdown(3, SHUT_WR));
  n = recv(3, buf, sizeof buf, 0);
  printf("recv at end: %zd\n", n);
  printf("shutdown a non-socket: %d %s\n", shutdown(1, SHUT_RD), errno == ENOTSOCK ? "ENOTSOCK" : "other");
  return 0;
}
