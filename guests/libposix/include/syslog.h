#ifndef AGENTOS_SYSLOG_H
#define AGENTOS_SYSLOG_H
/* No system log in the VM: messages are dropped. */
#define LOG_PID 0x01
#define LOG_DAEMON (3 << 3)
#define LOG_ERR 3
#define LOG_INFO 6
static inline void openlog(const char *ident, int option, int facility) { (void)ident; (void)option; (void)facility; }
static inline void syslog(int priority, const char *format, ...) { (void)priority; (void)format; }
#endif
