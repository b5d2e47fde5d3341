// Names and services for C guests: getaddrinfo asks the VM's resolver (host_net's net_resolve, the kernel's
// RESOLVE: its network policy, /etc/hosts and pin table apply, and a denied name is never looked up); numeric
// hosts (inet_aton's forms too), service names and hints are handled here. Codes and messages are glibc's, and
// a denied or unknown name (EAI_NONAME), a resolver failing for now (EAI_AGAIN) and anything else (EAI_FAIL)
// stay apart.
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_AF_INET = 2, K_AF_INET6 = 10 };
struct ao_addr {
  uint16_t family, port;
  uint8_t bytes[16];
};
/* At most this many addresses of one name are used (a resolver answer rarely has more than a handful). */
#define MAX_ADDRS 32

__attribute__((import_module("host_net"), import_name("net_resolve")))
uint32_t ao_net_resolve(const char *name, uint32_t name_len, uint32_t family, struct ao_addr *out, uint32_t out_count, uint32_t *count);

static int h_errno_value;
int *__h_errno_location(void) { return &h_errno_value; }

// ---- IPv4 text (wasi-libc has inet_aton, with its forms a, a.b, a.b.c, a.b.c.d in decimal, octal or hex) ----

in_addr_t inet_addr(const char *s) {
  struct in_addr a;
  return inet_aton(s, &a) ? a.s_addr : (in_addr_t)-1;
}

in_addr_t inet_network(const char *s) {
  struct in_addr a;
  return inet_aton(s, &a) ? ntohl(a.s_addr) : (in_addr_t)-1;
}

char *inet_ntoa(struct in_addr a) {
  static char s[16];
  inet_ntop(AF_INET, &a, s, sizeof s);
  return s;
}

// ---- services ----

static const struct {
  const char *name;
  int port;
} services[] = {
    {"ftp", 21}, {"ssh", 22}, {"telnet", 23}, {"smtp", 25}, {"domain", 53}, {"http", 80}, {"pop3", 110},
    {"imap", 143}, {"ldap", 389}, {"https", 443}, {"smtps", 465}, {"submission", 587}, {"ldaps", 636},
    {"imaps", 993}, {"pop3s", 995}, {"mysql", 3306}, {"postgresql", 5432}, {"redis", 6379}, {"git", 9418},
};

/* The port of a service (a number or a name above), host order; -1 when unknown. */
static int service_port(const char *serv, int numeric_only) {
  char *end;
  if (!serv || !*serv) return 0;
  long v = strtol(serv, &end, 10);
  if (*end == '\0' && isdigit((unsigned char)serv[0])) return v >= 0 && v <= 65535 ? (int)v : -1;
  if (numeric_only) return -2;
  for (size_t i = 0; i < sizeof services / sizeof *services; i++)
    if (strcmp(services[i].name, serv) == 0) return services[i].port;
  return -1;
}

struct servent *getservbyname(const char *name, const char *proto) {
  static struct servent s;
  static char *no_aliases[] = {0};
  (void)proto;
  for (size_t i = 0; i < sizeof services / sizeof *services; i++)
    if (strcmp(services[i].name, name) == 0) {
      s = (struct servent){(char *)services[i].name, no_aliases, htons(services[i].port), proto ? (char *)proto : "tcp"};
      return &s;
    }
  return 0;
}

struct servent *getservbyport(int port, const char *proto) {
  static struct servent s;
  static char *no_aliases[] = {0};
  for (size_t i = 0; i < sizeof services / sizeof *services; i++)
    if (htons(services[i].port) == port) {
      s = (struct servent){(char *)services[i].name, no_aliases, port, proto ? (char *)proto : "tcp"};
      return &s;
    }
  return 0;
}

struct protoent *getprotobyname(const char *name) {
  static char *no_aliases[] = {0};
  static struct protoent tcp = {"tcp", no_aliases, IPPROTO_TCP}, udp = {"udp", no_aliases, IPPROTO_UDP};
  return strcmp(name, "tcp") == 0 ? &tcp : strcmp(name, "udp") == 0 ? &udp : 0;
}

struct protoent *getprotobynumber(int proto) {
  return proto == IPPROTO_TCP ? getprotobyname("tcp") : proto == IPPROTO_UDP ? getprotobyname("udp") : 0;
}

// ---- getaddrinfo ----

/* One result: the addrinfo and its sockaddr in one allocation (freeaddrinfo frees both). */
static struct addrinfo *entry(int family, const uint8_t *bytes, int port, int socktype, int flags) {
  struct {
    struct addrinfo ai;
    struct sockaddr_in6 sa;
  } *e = calloc(1, sizeof *e);
  if (!e) return 0;
  e->ai.ai_flags = flags;
  e->ai.ai_family = family;
  e->ai.ai_socktype = socktype;
  e->ai.ai_protocol = socktype == SOCK_DGRAM ? IPPROTO_UDP : IPPROTO_TCP;
  e->ai.ai_addr = (struct sockaddr *)&e->sa;
  if (family == AF_INET) {
    struct sockaddr_in *in = (struct sockaddr_in *)&e->sa;
    in->sin_family = AF_INET;
    in->sin_port = htons(port);
    memcpy(&in->sin_addr, bytes, 4);
    e->ai.ai_addrlen = sizeof *in;
  } else {
    e->sa.sin6_family = AF_INET6;
    e->sa.sin6_port = htons(port);
    memcpy(&e->sa.sin6_addr, bytes, 16);
    e->ai.ai_addrlen = sizeof e->sa;
  }
  return &e->ai;
}

void freeaddrinfo(struct addrinfo *ai) {
  while (ai) {
    struct addrinfo *next = ai->ai_next;
    free(ai->ai_canonname);
    free(ai);
    ai = next;
  }
}

static int resolver_error(uint32_t err) {
  switch (err) {
  case ENOENT: return EAI_NONAME;
  case ETIMEDOUT: return EAI_AGAIN;
  case EINVAL: return EAI_NONAME;
  case ENOMEM: return EAI_MEMORY;
  default: return EAI_FAIL;
  }
}

int getaddrinfo(const char *__restrict node, const char *__restrict serv, const struct addrinfo *__restrict hints,
                struct addrinfo **__restrict res) {
  int family = hints ? hints->ai_family : AF_UNSPEC, socktype = hints ? hints->ai_socktype : 0;
  int flags = hints ? hints->ai_flags : 0;
  struct ao_addr addrs[MAX_ADDRS];
  uint32_t count = 0;
  *res = 0;
  if (flags & ~(AI_PASSIVE | AI_CANONNAME | AI_NUMERICHOST | AI_V4MAPPED | AI_ALL | AI_ADDRCONFIG | AI_NUMERICSERV)) return EAI_BADFLAGS;
  if (!node && !serv) return EAI_NONAME;
  if (family != AF_UNSPEC && family != AF_INET && family != AF_INET6) return EAI_FAMILY;
  if (socktype != 0 && socktype != SOCK_STREAM && socktype != SOCK_DGRAM) return EAI_SOCKTYPE;
  int port = service_port(serv, flags & AI_NUMERICSERV);
  if (port == -2) return EAI_NONAME;
  if (port < 0) return EAI_SERVICE;

  struct in_addr v4;
  struct in6_addr v6;
  if (!node) {
    // No host: the wildcard address to bind (AI_PASSIVE) or the loopback to connect to; IPv6 first as glibc.
    static const uint8_t any6[16], lo6[16] = {[15] = 1};
    uint32_t any4 = 0, lo4 = htonl(INADDR_LOOPBACK);
    if (family != AF_INET) addrs[count++] = (struct ao_addr){K_AF_INET6, 0, {0}}, memcpy(addrs[count - 1].bytes, flags & AI_PASSIVE ? any6 : lo6, 16);
    if (family != AF_INET6) addrs[count++] = (struct ao_addr){K_AF_INET, 0, {0}}, memcpy(addrs[count - 1].bytes, flags & AI_PASSIVE ? &any4 : &lo4, 4);
  } else if (inet_aton(node, &v4)) {
    if (family == AF_INET6) return EAI_ADDRFAMILY;
    addrs[count] = (struct ao_addr){K_AF_INET, 0, {0}};
    memcpy(addrs[count++].bytes, &v4, 4);
  } else if (inet_pton(AF_INET6, node, &v6) == 1) {
    if (family == AF_INET) return EAI_ADDRFAMILY;
    addrs[count] = (struct ao_addr){K_AF_INET6, 0, {0}};
    memcpy(addrs[count++].bytes, &v6, 16);
  } else if (flags & AI_NUMERICHOST) {
    return EAI_NONAME;
  } else {
    size_t len = strlen(node);
    if (len == 0) return EAI_NONAME;
    uint32_t err = ao_net_resolve(node, len, family == AF_INET ? 4 : family == AF_INET6 ? 6 : 0, addrs, MAX_ADDRS, &count);
    if (err) return resolver_error(err);
    if (count > MAX_ADDRS) count = MAX_ADDRS;
    if (count == 0) return EAI_NONAME;
  }

  struct addrinfo *head = 0, **tail = &head;
  const int types[2] = {SOCK_STREAM, SOCK_DGRAM};
  for (uint32_t i = 0; i < count; i++)
    for (int t = 0; t < 2; t++) {
      if (socktype != 0 && socktype != types[t]) continue;
      struct addrinfo *ai = entry(addrs[i].family == K_AF_INET6 ? AF_INET6 : AF_INET, addrs[i].bytes, port, types[t], flags);
      if (!ai) {
        freeaddrinfo(head);
        return EAI_MEMORY;
      }
      *tail = ai;
      tail = &ai->ai_next;
    }
  if (head && (flags & AI_CANONNAME) && node) {
    head->ai_canonname = strdup(node);
    if (!head->ai_canonname) {
      freeaddrinfo(head);
      return EAI_MEMORY;
    }
  }
  *res = head;
  return 0;
}

const char *gai_strerror(int code) {
  switch (code) {
  case 0: return "Success";
  case EAI_BADFLAGS: return "Bad value for ai_flags";
  case EAI_NONAME: return "Name or service not known";
  case EAI_AGAIN: return "Temporary failure in name resolution";
  case EAI_FAIL: return "Non-recoverable failure in name resolution";
  case EAI_NODATA: return "No address associated with hostname";
  case EAI_FAMILY: return "ai_family not supported";
  case EAI_SOCKTYPE: return "ai_socktype not supported";
  case EAI_SERVICE: return "Servname not supported for ai_socktype";
  case EAI_ADDRFAMILY: return "Address family for hostname not supported";
  case EAI_MEMORY: return "Memory allocation failure";
  case EAI_SYSTEM: return "System error";
  case EAI_OVERFLOW: return "Argument buffer overflow";
  default: return "Unknown error";
  }
}

/* Numeric only: the VM has no reverse lookup (NI_NAMEREQD is EAI_NONAME). */
int getnameinfo(const struct sockaddr *__restrict sa, socklen_t salen, char *__restrict host, socklen_t hostlen,
                char *__restrict serv, socklen_t servlen, int flags) {
  const void *addr;
  int port;
  if (!sa) return EAI_FAIL;
  if (sa->sa_family == AF_INET && salen >= sizeof(struct sockaddr_in)) {
    addr = &((const struct sockaddr_in *)sa)->sin_addr;
    port = ntohs(((const struct sockaddr_in *)sa)->sin_port);
  } else if (sa->sa_family == AF_INET6 && salen >= sizeof(struct sockaddr_in6)) {
    addr = &((const struct sockaddr_in6 *)sa)->sin6_addr;
    port = ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
  } else {
    return EAI_FAMILY;
  }
  if (host && hostlen) {
    if (flags & NI_NAMEREQD) return EAI_NONAME;
    if (!inet_ntop(sa->sa_family, addr, host, hostlen)) return EAI_OVERFLOW;
  }
  if (serv && servlen) {
    struct servent *s = flags & NI_NUMERICSERV ? 0 : getservbyport(htons(port), flags & NI_DGRAM ? "udp" : "tcp");
    int n = s ? snprintf(serv, servlen, "%s", s->s_name) : snprintf(serv, servlen, "%d", port);
    if (n < 0 || (socklen_t)n >= servlen) return EAI_OVERFLOW;
  }
  return 0;
}

// ---- the old interface, over getaddrinfo ----

struct hostent *gethostbyname2(const char *name, int family) {
  static struct hostent h;
  static char *aliases[1], *list[MAX_ADDRS + 1], canon[256];
  static uint8_t bytes[MAX_ADDRS][16];
  struct addrinfo hints = {.ai_family = family, .ai_socktype = SOCK_STREAM}, *res, *ai;
  int n = 0, err = getaddrinfo(name, 0, &hints, &res);
  if (err) {
    h_errno_value = err == EAI_AGAIN ? TRY_AGAIN : err == EAI_NONAME ? HOST_NOT_FOUND : NO_RECOVERY;
    return 0;
  }
  for (ai = res; ai && n < MAX_ADDRS; ai = ai->ai_next, n++) {
    if (family == AF_INET) memcpy(bytes[n], &((struct sockaddr_in *)ai->ai_addr)->sin_addr, 4);
    else memcpy(bytes[n], &((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr, 16);
    list[n] = (char *)bytes[n];
  }
  list[n] = 0;
  freeaddrinfo(res);
  snprintf(canon, sizeof canon, "%s", name);
  h = (struct hostent){canon, aliases, family, family == AF_INET ? 4 : 16, list};
  return &h;
}

struct hostent *gethostbyname(const char *name) { return gethostbyname2(name, AF_INET); }

struct hostent *gethostbyaddr(const void *addr, socklen_t len, int family) {
  (void)addr, (void)len, (void)family;
  h_errno_value = HOST_NOT_FOUND;
  return 0;
}

const char *hstrerror(int e) {
  switch (e) {
  case HOST_NOT_FOUND: return "Unknown host";
  case TRY_AGAIN: return "Host name lookup failure";
  case NO_RECOVERY: return "Unknown server error";
  case NO_DATA: return "No address associated with name";
  default: return "Resolver internal error";
  }
}
