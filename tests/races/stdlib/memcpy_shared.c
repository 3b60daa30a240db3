/* memcpy into and out of shared buffers. `record` is copied in and out by
 * both workers holding `m`: NORACE on those memcpy calls. `scratch` is
 * filled with memcpy by both workers with no lock: RACE. The source and
 * destination `local` arrays belong to each thread. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define LEN 32
#define ITER 2000

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
char record[LEN];
char scratch[LEN];

static void *worker(void *arg)
{
    char local[LEN];
    long id = (long)arg;
    memset(local, 'a' + (int)id, sizeof local);
    memcpy(scratch, local, sizeof scratch); // RACE: both workers, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m);
        memcpy(record, local, sizeof record); // NORACE: m held
        pthread_mutex_unlock(&m);
        pthread_mutex_lock(&m);
        memcpy(local, record, sizeof local); // NORACE: m held
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    char out[LEN + 1] = { 0 };
    pthread_create(&a, NULL, worker, (void *)0L);
    pthread_create(&b, NULL, worker, (void *)1L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&m);
    memcpy(out, record, LEN); // NORACE: m held
    pthread_mutex_unlock(&m);
    printf("%c\n", out[0]);
    return 0;
}
