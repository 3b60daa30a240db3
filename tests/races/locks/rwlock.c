/* A pthread rwlock: the writer takes the write side, the readers the read
 * side; a write side excludes every other holder. `table` and
 * `version` are written only under the write lock and read only under the
 * read lock: NORACE. `reader_calls` is incremented by both readers with no
 * lock at all: RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 3000

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int table[16];
long version;
long reader_calls;

static void *writer(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_rwlock_wrlock(&rw);
        table[i % 16] = i; // NORACE: write lock held
        version++; // NORACE: write lock held
        pthread_rwlock_unlock(&rw);
    }
    return NULL;
}

static void *reader(void *arg)
{
    long s = 0;
    (void)arg;
    reader_calls++; // RACE: both readers, no lock
    for (int i = 0; i < ITER; i++) {
        pthread_rwlock_rdlock(&rw);
        s += table[(i * 7) % 16]; // NORACE: read lock held
        s += version; // NORACE: read lock held
        pthread_rwlock_unlock(&rw);
    }
    return (void *)s;
}

int main(void)
{
    pthread_t w, r1, r2;
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&r1, NULL, reader, NULL);
    pthread_create(&r2, NULL, reader, NULL);
    pthread_join(w, NULL);
    pthread_join(r1, NULL);
    pthread_join(r2, NULL);
    puts("done");
    return 0;
}
