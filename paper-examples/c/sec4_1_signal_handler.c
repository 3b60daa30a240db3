/* In the spirit of the paper's §4.1 aget warning: downloader threads add to `bwritten` holding
 * `bwritten_mutex`, while a signal handler (installed with sigaction) saves the progress by
 * reading `bwritten` without the lock. If the user interrupts the download, the saved count can
 * be torn or stale. Expected: one warning on bwritten, listing the locked writes in the
 * downloader thread and the unlocked read in the handler's thread (exit 1). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

long bwritten;
pthread_mutex_t bwritten_mutex = PTHREAD_MUTEX_INITIALIZER;

static void save_state(long n) {
    FILE *f = fopen("/tmp/locksmith-progress", "w");
    if (f) {
        fprintf(f, "%ld\n", n);
        fclose(f);
    }
}

static void sigint_handler(int sig) {
    (void)sig;
    save_state(bwritten);
}

static void *http_get(void *arg) {
    (void)arg;
    for (int i = 0; i < 100; i++) {
        pthread_mutex_lock(&bwritten_mutex);
        bwritten += 512;
        pthread_mutex_unlock(&bwritten_mutex);
    }
    return 0;
}

int main(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = sigint_handler;
    sigaction(SIGINT, &sa, 0);

    pthread_t threads[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&threads[i], 0, http_get, 0);
    for (int i = 0; i < 4; i++)
        pthread_join(threads[i], 0);
    return 0;
}
