// Threads whose ids are array elements named by constants, as verification tasks write them:
// created one by one (`&t[0]`, `&t[1]`) and joined one by one or by a loop over the array.
// What follows the joins of every element is ordered with the threads; an element left out of
// the joins (or out of the join loop's range) keeps its thread running.
#include <pthread.h>
#include <unistd.h>

static int a, b, c;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *bump_a(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    a++; // NORACE
    pthread_mutex_unlock(&m);
    return NULL;
}

static void *bump_b(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    b++; // NORACE
    pthread_mutex_unlock(&m);
    return NULL;
}

static void *bump_c(void *arg) {
    if (arg != NULL)
        usleep(20000); // the thread left unjoined runs after main's write
    pthread_mutex_lock(&m);
    c++; // RACE: main writes c while t3[0] may still run
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    pthread_t t1[2], t2[2], t3[2];
    pthread_create(&t1[0], NULL, bump_a, NULL);
    pthread_create(&t1[1], NULL, bump_a, NULL);
    pthread_join(t1[0], NULL);
    pthread_join(t1[1], NULL);
    a = 10; // NORACE needs=joins
    pthread_create(&t2[0], NULL, bump_b, NULL);
    pthread_create(&t2[1], NULL, bump_b, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t2[i], NULL);
    b = 10; // NORACE needs=joins
    pthread_create(&t3[0], NULL, bump_c, &c);
    pthread_create(&t3[1], NULL, bump_c, NULL);
    for (int i = 1; i < 2; i++)
        pthread_join(t3[i], NULL);
    c = 10; // RACE: t3[0] is not joined
    pthread_join(t3[0], NULL);
    return 0;
}
