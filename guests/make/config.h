/*
 * GNU make 4.3's config.h for wasm32-wasi with guests/libposix, written by hand: make's configure needs
 * gnulib's autotools, and a cross-compiling configure could not run the probes anyway. What WASI lacks is
 * off: no fork (jobs start through job.c's __wasi__ branch, guests/make/spawn.patch), no jobserver (sub-makes
 * get no -j fds: the kernel passes no fd above 2 to a child), no output sync (needs fcntl locks), no archive
 * members (ar.c's struct ar_hdr parsing is kept, `lib(member)` targets work only on archives the VM has), no
 * `load`, no Guile, no NLS.
 */
#define PACKAGE "make"
#define PACKAGE_BUGREPORT "bug-make@gnu.org"
#define PACKAGE_NAME "GNU make"
#define PACKAGE_STRING "GNU make 4.3"
#define PACKAGE_TARNAME "make"
#define PACKAGE_URL "http://www.gnu.org/software/make/"
#define PACKAGE_VERSION "4.3"
#define VERSION "4.3"
#define MAKE_HOST "wasm32-unknown-wasi"

#define STDC_HEADERS 1
#define HAVE_DIRENT_H 1
#define HAVE_FCNTL_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_LIMITS_H 1
#define HAVE_LOCALE_H 1
#define HAVE_MEMORY_H 1
#define HAVE_STDINT_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRINGS_H 1
#define HAVE_STRING_H 1
#define HAVE_SYS_PARAM_H 1
#define HAVE_SYS_SELECT_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_SYS_WAIT_H 1
#define HAVE_UNISTD_H 1
#define HAVE_WCHAR_H 1
#define TIME_WITH_SYS_TIME 1

#define HAVE_ATEXIT 1
#define HAVE_CLOCK_GETTIME 1
#define HAVE_DUP 1
#define HAVE_DUP2 1
#define HAVE_FCNTL 1
#define HAVE_FDOPEN 1
#define HAVE_GETCWD 1
#define HAVE_GETTIMEOFDAY 1
#define HAVE_ISATTY 1
#define HAVE_LSTAT 1
#define HAVE_MEMRCHR 1
#define HAVE_MKSTEMP 1
#define HAVE_PIPE 1
#define HAVE_READLINK 1
#define HAVE_REALPATH 1
#define HAVE_SETVBUF 1
#define HAVE_SIGACTION 1
#define HAVE_STPCPY 1
#define HAVE_STRCASECMP 1
#define HAVE_STRCOLL 1
#define HAVE_STRDUP 1
#define HAVE_STRNCASECMP 1
#define HAVE_STRNDUP 1
#define HAVE_STRSIGNAL 1
#define HAVE_STRUCT_DIRENT_D_TYPE 1
#define HAVE_SYMLINK 1
#define HAVE_UMASK 1
#define HAVE_WAITPID 1
#define HAVE_DECL_GETDTABLESIZE 0
#define HAVE_DECL_SYS_SIGLIST 0
#define HAVE_DECL__SYS_SIGLIST 0
#define HAVE_DECL___SYS_SIGLIST 0
#define HAVE_DECL_BSD_SIGNAL 0
#define HAVE_DECL_DLOPEN 0
#define HAVE_DECL_DLSYM 0
#define HAVE_DECL_DLERROR 0
#define HAVE_DECL_STRERROR_R 1
#define HAVE_DECL_PROGRAM_INVOCATION_NAME 0
#define HAVE_DECL_PROGRAM_INVOCATION_SHORT_NAME 0
#define HAVE_DECL___ARGV 0
#define HAVE_LONG_LONG_INT 1
#define HAVE_UNSIGNED_LONG_LONG_INT 1
#define HAVE_UINTMAX_T 1
#define HAVE_WCHAR_T 1
#define HAVE_WINT_T 1
#define HAVE__BOOL 1

/* Nanosecond timestamps: the VM's file times have them. */
#define FILE_TIMESTAMP_HI_RES 1
#define ST_MTIM_NSEC st_mtim.tv_nsec

#define NO_OUTPUT_SYNC 1
#define PATH_SEPARATOR_CHAR ':'
#define RETSIGTYPE void
#define SCCS_GET "get"
#define _FILE_OFFSET_BITS 64
#define _GNU_SOURCE 1
#define _ALL_SOURCE 1
#define _POSIX_PTHREAD_SEMANTICS 1
#define __EXTENSIONS__ 1
