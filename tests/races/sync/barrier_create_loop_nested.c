/* A barrier of count 2, one checker and writers started by a counted loop
 * nested in another loop: two writers, not one, so three threads wait on
 * the barrier and a trip need not include the checker's partner of the
 * model. The checker may pass the barrier with the first writer and read
 * `data` without the writers' lock while the second writer still writes it
 * before its own wait: RACE. The second writer then waits alone for ever, which main does not
 * wait for. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_barrier_t gate;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int data;

static void *writer(void *arg)
{
    pthread_mutex_lock(&m);
    data = (int)(long)arg; // RACE: the checker may read it in the next phase
    pthread_mutex_unlock(&m);
    pthread_barrier_wait(&gate);
    return NULL;
}

static void *checker(void *arg)
{
    pthread_barrier_wait(&gate);
    usleep(20000);
    return (void *)(long)(data + (long)arg); // RACE: a writer may still write it
}

int main(void)
{
    pthread_t c, w;
    pthread_barrier_init(&gate, NULL, 2);
    pthread_create(&c, NULL, checker, NULL);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 1; i++) {
            pthread_create(&w, NULL, writer, (void *)(long)(round + 1));
            pthread_detach(w);
        }
        usleep(5000);
    }
    pthread_join(c, NULL);
    printf("done\n");
    return 0;
}
