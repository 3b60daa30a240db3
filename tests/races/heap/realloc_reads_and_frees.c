/* realloc copies the old block (a read) and frees it (a write, like free).
 * The reader scans `samples` with no lock while main grows the array with
 * realloc: RACE on the reader's load and on the realloc. `grow_count` is
 * only touched by main: not shared. `hist` is filled by the reader holding
 * `hm` and read by main holding `hm`: NORACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

pthread_mutex_t hm = PTHREAD_MUTEX_INITIALIZER;
int *samples;
long hist[4];

static void *reader(void *arg)
{
    long s = 0;
    (void)arg;
    for (int i = 0; i < 4; i++) {
        s += samples[i]; // RACE: main may be reallocating the block
        pthread_mutex_lock(&hm);
        hist[i] += s; // NORACE: hm held
        pthread_mutex_unlock(&hm);
    }
    return (void *)s;
}

int main(void)
{
    pthread_t t;
    int grow_count = 0;
    samples = calloc(4, sizeof *samples);
    if (samples == NULL)
        return 1;
    pthread_create(&t, NULL, reader, NULL);
    usleep(1000);
    int *bigger = realloc(samples, 64 * sizeof *samples); // RACE: reads and frees the old block
    grow_count++;
    pthread_join(t, NULL);
    pthread_mutex_lock(&hm);
    printf("%ld %d\n", hist[0], grow_count); // NORACE: hm held
    pthread_mutex_unlock(&hm);
    free(bigger ? bigger : samples);
    return 0;
}
