/* wasi-libc's <arpa/inet.h> and the IPv4 text calls it hides (guests/libposix/netdb.c). */
#ifndef AGENTOS_ARPA_INET_H
#define AGENTOS_ARPA_INET_H
#include_next <arpa/inet.h>
#ifdef __cplusplus
extern "C" {
#endif
in_addr_t inet_addr(const char *);
in_addr_t inet_network(const char *);
char *inet_ntoa(struct in_addr);
#ifdef __cplusplus
}
#endif
#endif
