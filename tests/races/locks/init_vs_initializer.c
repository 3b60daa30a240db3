/* A mutex initialised statically with PTHREAD_MUTEX_INITIALIZER (m_static)
 * and one initialised by pthread_mutex_init in main before the first fork
 * (m_dyn). `a` is always accessed under m_static and `b` under m_dyn:
 * NORACE. `c` is accessed under m_static by one thread and under m_dyn by
 * the other: no common lock, RACE. */
#include <pthread.h>
#include <stdio.h>

#define ITER 4000

pthread_mutex_t m_static = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m_dyn;
long a, b, c;

static void *first(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m_static);
        a++; // NORACE: m_static
        c++; // RACE: the other thread holds m_dyn
        pthread_mutex_unlock(&m_static);
    }
    return NULL;
}

static void *second(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&m_dyn);
        b++; // NORACE: m_dyn
        c--; // RACE: the other thread holds m_static
        pthread_mutex_unlock(&m_dyn);
    }
    return NULL;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_mutex_init(&m_dyn, NULL);
    pthread_create(&t1, NULL, first, NULL);
    pthread_create(&t2, NULL, second, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_mutex_lock(&m_static);
    printf("%ld\n", a); // NORACE: m_static
    pthread_mutex_unlock(&m_static);
    pthread_mutex_lock(&m_dyn);
    printf("%ld\n", b); // NORACE: m_dyn
    pthread_mutex_unlock(&m_dyn);
    pthread_mutex_destroy(&m_dyn);
    return 0;
}
