/* A readers/writer lock made of a semaphore and a count of readers: writers
 * wait for the semaphore; the first reader in waits for it and the last one
 * out posts it, counting under `count_lock`. The writer's update of `table`
 * and the readers' reads of it are NORACE; the readers' own updates of
 * `lookups`, both under the read side, race with each other (RACE). */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>

static sem_t table_sem;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static int readers;
static int table[8];
static long lookups;

static int lookup(int k)
{
    pthread_mutex_lock(&count_lock);
    if (!readers)
        sem_wait(&table_sem);
    readers++;
    pthread_mutex_unlock(&count_lock);
    usleep(50000);
    int v = table[k]; // NORACE: the writer waits for the semaphore the readers hold
    lookups++; // RACE: the other reader is inside too
    pthread_mutex_lock(&count_lock);
    readers--;
    if (!readers)
        sem_post(&table_sem);
    pthread_mutex_unlock(&count_lock);
    return v;
}

static void *reader(void *arg)
{
    printf("%d\n", lookup((int)(long)arg));
    return NULL;
}

static void *writer(void *arg)
{
    (void)arg;
    sem_wait(&table_sem);
    table[1] = 7; // NORACE: readers hold the semaphore as a group
    sem_post(&table_sem);
    return NULL;
}

int main(void)
{
    pthread_t r1, r2, w;
    sem_init(&table_sem, 0, 1);
    pthread_create(&r1, NULL, reader, (void *)1L);
    pthread_create(&r2, NULL, reader, (void *)2L);
    pthread_create(&w, NULL, writer, NULL);
    pthread_join(r1, NULL);
    pthread_join(r2, NULL);
    pthread_join(w, NULL);
    return 0;
}
