/* stubs.c — the libc stub unit that locksmith analyses together with every program.
 *
 * Each function defined here stands for the libc function of the same name: it has the real
 * prototype (it is compiled against the system headers, so the two must agree) and a body that
 * models only what matters to a race detector: the memory the real function reads and writes
 * through its pointer arguments, the data flow between them (what the result points to), static
 * storage it hands out, and callbacks it calls. Accesses made inside a stub are reported at the
 * user's call of the stub. Nothing here is ever executed.
 *
 * The analysis handles some functions itself, by name, so they are deliberately NOT defined here:
 * every pthread_* function but pthread_atfork (whose handlers the `fork` stub calls, in
 * unistd.c), malloc, calloc, realloc, free, signal, sigaction, exit, _exit, abort and
 * pthread_exit. Stubs may call them (realloc in getline, exit in err, ...).
 *
 * The statics that make up one library state share the prefix of their names up to the first
 * `_` (`hostent_result` and the strings it points to, `hostent_name`, `hostent_aliases`, ...):
 * races on them are reported as one warning, named after the library functions. A new state
 * takes a prefix of its own.
 *
 * Feature macros: the unit asks for the default glibc feature set (what `gcc -std=gnu11` gives a
 * program that defines nothing), so that prototypes match what most programs see; in particular
 * strerror_r is the POSIX (int) version. GNU-only functions (asprintf, memmem, accept4, ...) are
 * defined with their own prototypes, which agree with glibc's declarations under _GNU_SOURCE.
 *
 * The families live in one file each, next to this one. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1
#endif
#undef _FORTIFY_SOURCE

/* getopt.h before unistd.h: keep the GNU getopt declarations (no __posix_getopt redirect). */
#include <getopt.h>

#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <inttypes.h>
#include <limits.h>
#include <errno.h>
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <sched.h>
#include <semaphore.h>
#include <locale.h>
#include <libgen.h>
#include <pwd.h>
#include <syslog.h>
#include <err.h>
#include <poll.h>
#include <netdb.h>
#include <libintl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/types.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/uio.h>
#include <sys/select.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <pthread.h>

#include "locksmith_stubs.h"

#include "errno.c"
#include "string.c"
#include "stdlib.c"
#include "stdio.c"
#include "unistd.c"
#include "socket.c"
#include "time.c"
#include "getopt.c"
#include "misc.c"
#include "intl.c"
#include "rpc.c"
#include "event.c"
#include "zlib.c"
#include "glib.c"
#include "verifier.c"
#include "atomic.c"
