/* Readers sections that are not: every reader posts the semaphore on its way
 * out, not only the last one, so a reader leaving early lets the writer in
 * while another reader is still inside. The semaphore is then no lock for
 * anyone, and the writer's update of `config` races with the sleeping
 * reader's read (RACE). */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>

static sem_t config_sem;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static int readers;
static int config;

static void *reader(void *arg)
{
    pthread_mutex_lock(&count_lock);
    if (!readers)
        sem_wait(&config_sem);
    readers++;
    pthread_mutex_unlock(&count_lock);
    if (arg)
        usleep(200000);
    printf("%d\n", config); // RACE: the other reader's post lets the writer in
    pthread_mutex_lock(&count_lock);
    readers--;
    sem_post(&config_sem);
    pthread_mutex_unlock(&count_lock);
    return NULL;
}

static void *writer(void *arg)
{
    (void)arg;
    usleep(50000);
    sem_wait(&config_sem);
    config = 2; // RACE: a reader is still inside
    sem_post(&config_sem);
    return NULL;
}

int main(void)
{
    pthread_t r1, r2, w;
    sem_init(&config_sem, 0, 1);
    pthread_create(&r1, NULL, reader, (void *)1L);
    usleep(10000);
    pthread_create(&r2, NULL, reader, NULL);
    pthread_create(&w, NULL, writer, NULL);
    pthread_join(r1, NULL);
    pthread_join(r2, NULL);
    pthread_join(w, NULL);
    return 0;
}
