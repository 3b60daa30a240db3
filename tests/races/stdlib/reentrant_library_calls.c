/* Library calls whose state is the caller's own or guarded by the library. gettext and
 * dcgettext (the `_()` of translated programs) only read the catalogue, which glibc guards;
 * gethostbyname_r writes only the caller's result and buffer; a raw system call touches only
 * the buffers it is given. Each worker translates, resolves and asks the kernel into its own
 * stack buffers: NORACE on those calls. The count of lookups is shared
 * and updated without a lock by both workers: RACE. */
#include <libintl.h>
#include <locale.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static long lookups;

static void *worker(void *arg)
{
    struct hostent entry, *found = NULL;
    char buf[1024];
    int err = 0;
    const char *title = gettext("Resolving"); // NORACE
    const char *done = dcgettext(NULL, "done", LC_MESSAGES); // NORACE
    gethostbyname_r("localhost", &entry, buf, sizeof buf, &found, &err); // NORACE
    syscall(SYS_getcwd, buf, sizeof buf); // NORACE
    lookups++; // RACE
    if (found != NULL && title[0] != '\0' && done[0] != '\0')
        return found->h_name[0] ? arg : NULL; // NORACE
    return arg;
}

int main(void)
{
    pthread_t a, b;
    textdomain("messages");
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld\n", lookups);
    return 0;
}
