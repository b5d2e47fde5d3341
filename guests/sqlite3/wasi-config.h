/*
 * SQLite 3.40 for wasm32-wasi (force-included in the amalgamation; no edit of SQLite's sources).
 * SQLite learnt WASI itself in 3.41 (SQLITE_WASI); these are the same settings for 3.40: wasi-libc has no
 * POSIX advisory locks (fcntl F_SETLK), so the default VFS is "unix-dotfile" (a lock is a directory
 * `<db>.lock`), and the lock constants the unused fcntl code names are given values. No WAL (it needs
 * shared memory), no threads, no loadable extensions, no memory-mapped I/O.
 */
#ifndef AGENTOS_SQLITE_WASI_CONFIG_H
#define AGENTOS_SQLITE_WASI_CONFIG_H
#define SQLITE_DEFAULT_UNIX_VFS "unix-dotfile"
#ifndef F_RDLCK
#define F_RDLCK 0
#define F_WRLCK 1
#define F_UNLCK 2
#define F_GETLK 12
#define F_SETLK 13
#define F_SETLKW 14
#endif
#endif
