/* Each worker hangs the results of its probes off its own host record.
 * `h->probes` and every `h->probes[k]` only ever hold a fresh block stored
 * there and are only dereferenced, so those blocks belong to the record,
 * which is the worker's own (it was started with the record's index):
 * NORACE, and main reads them after the joins. `h->stats` is not such a
 * place: main makes hosts 0 and 1 share one block through it, and both
 * workers write it: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4
#define PROBES 3

struct probe {
    int port;
    int open;
};

struct stats {
    int count;
};

struct host {
    struct probe **probes;
    struct stats *stats;
};

static struct host **hosts;

static void *scan(void *arg)
{
    long id = (long)arg;
    int k;
    hosts[id]->probes = malloc(PROBES * sizeof(struct probe *));
    for (k = 0; k < PROBES; k++) {
        hosts[id]->probes[k] = malloc(sizeof(struct probe));
        hosts[id]->probes[k]->port = 20 + k; // NORACE needs=existentials: only this worker reaches the probe
        hosts[id]->probes[k]->open = k % 2; // NORACE needs=existentials: only this worker reaches the probe
    }
    if (hosts[id]->probes[0]->open == 0)
        hosts[id]->stats->count = (int)id; // RACE: hosts 0 and 1 share one block
    return NULL;
}

int main(void)
{
    pthread_t t[N];
    long i;
    int k;
    hosts = malloc(N * sizeof *hosts);
    for (i = 0; i < N; i++) {
        hosts[i] = malloc(sizeof(struct host));
        hosts[i]->stats = malloc(sizeof(struct stats));
    }
    free(hosts[1]->stats);
    hosts[1]->stats = hosts[0]->stats;
    for (i = 0; i < N; i++)
        pthread_create(&t[i], NULL, scan, (void *)i);
    for (i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    for (i = 0; i < N; i++) {
        printf("%d\n", hosts[i]->probes[PROBES - 1]->open); // NORACE: after the joins
        for (k = 0; k < PROBES; k++)
            free(hosts[i]->probes[k]);
        free(hosts[i]->probes);
    }
    return 0;
}
