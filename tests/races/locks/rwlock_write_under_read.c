/* Writing under the read side of an rwlock protects nothing against other
 * readers: several threads may hold the read side at once. Both readers bump
 * `hits` holding only the read side of `rw`: RACE (the read and the write of
 * the increment). `cache` is written under the write side and read under the
 * read side: NORACE. `refills` is written under the write side by the
 * writer and read under the read side by the readers: NORACE. */
#include <pthread.h>
#include <stdio.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
long hits;
long refills;
int cache[8];

static void *writer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 8; i++) {
        pthread_rwlock_wrlock(&rw);
        cache[i] = 3 * i; // NORACE: write side held
        refills++; // NORACE: write side held
        pthread_rwlock_unlock(&rw);
    }
    return NULL;
}

static void *reader(void *arg)
{
    long seen = 0;
    (void)arg;
    for (int i = 0; i < 20000; i++) {
        pthread_rwlock_rdlock(&rw);
        if (cache[i % 8] % 3 == 0) // NORACE: read side held, the writer holds the write side
            hits++; // RACE: two readers at once
        seen += refills; // NORACE: read side held, the writer holds the write side
        pthread_rwlock_unlock(&rw);
    }
    return (void *)seen;
}

int main(void)
{
    pthread_t w, a, b;
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&a, NULL, reader, NULL);
    pthread_create(&b, NULL, reader, NULL);
    pthread_join(w, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", hits, refills);
    return 0;
}
