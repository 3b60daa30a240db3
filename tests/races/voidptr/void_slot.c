/* void* slots themselves as shared data. `mailbox` is overwritten by both
 * workers and read by main with no lock: RACE. `safe_box` is exchanged
 * under `m` only: NORACE. The payloads are static strings (never written). */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *mailbox;
void *safe_box;

static void *worker(void *arg)
{
    mailbox = arg; // RACE: the other worker and main, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        void *old = safe_box; // NORACE: m held
        safe_box = arg; // NORACE: m held
        pthread_mutex_unlock(&m);
        (void)old;
    }
    return NULL;
}

int main(void)
{
    static char hello[] = "hello", world[] = "world";
    pthread_t a, b;
    pthread_create(&a, NULL, worker, hello);
    pthread_create(&b, NULL, worker, world);
    void *seen = mailbox; // RACE: the workers write mailbox
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&m);
    printf("%s %s\n", seen ? "x" : "-", (char *)safe_box); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
