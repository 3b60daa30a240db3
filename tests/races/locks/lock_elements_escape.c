/* The address of one element of a global array of mutexes is kept in a
 * pointer, and a thread locks through that pointer: the elements are then not
 * locks of their own (a lock through the pointer is some element), so the
 * array keeps its one label and protects nothing. `total` is always updated
 * under locks[0], directly or through `current`, which points to locks[0] or
 * locks[1] at run time: RACE when it points to locks[1]. */
#include <pthread.h>
#include <stdlib.h>

pthread_mutex_t locks[2];
pthread_mutex_t *current;
long total;

static void *direct(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2000; i++) {
        pthread_mutex_lock(&locks[0]);
        total++; // RACE: the other thread may hold locks[1] instead
        pthread_mutex_unlock(&locks[0]);
    }
    return NULL;
}

static void *through_pointer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2000; i++) {
        pthread_mutex_lock(current);
        total++; // RACE: current may be &locks[1]
        pthread_mutex_unlock(current);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    (void)argv;
    pthread_t a, b;
    pthread_mutex_init(&locks[0], NULL);
    pthread_mutex_init(&locks[1], NULL);
    current = argc > 5 ? &locks[0] : &locks[1];
    pthread_create(&a, NULL, direct, NULL);
    pthread_create(&b, NULL, through_pointer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
