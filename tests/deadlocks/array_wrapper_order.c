/* Elements of one global array of mutexes, named by constants through lock wrappers: two
 * threads take elements 0 and 1 in opposite orders (a deadlock), and elements 2 then 3 always
 * in one order (no cycle). Each element named by a constant is a lock of its own. */
#include <pthread.h>

enum { A, B, LOW, HIGH, N };

static pthread_mutex_t table[N];
static long x, y, z;

static void take(int k)
{
    pthread_mutex_lock(&table[k]); // DEADLOCK: table[0] and table[1] in opposite orders
}

static void put(int k)
{
    pthread_mutex_unlock(&table[k]);
}

static void *forwards(void *arg)
{
    (void)arg;
    take(A);
    take(B);
    x++;
    put(B);
    put(A);
    take(LOW);
    take(HIGH);
    z++;
    put(HIGH);
    put(LOW);
    return NULL;
}

static void *backwards(void *arg)
{
    (void)arg;
    take(B);
    take(A);
    y++;
    put(A);
    put(B);
    take(LOW);
    take(HIGH);
    z++;
    put(HIGH);
    put(LOW);
    return NULL;
}

int main(void)
{
    pthread_t t, u;
    for (int i = 0; i < N; i++)
        pthread_mutex_init(&table[i], NULL);
    pthread_create(&t, NULL, forwards, NULL);
    pthread_create(&u, NULL, backwards, NULL);
    pthread_join(t, NULL);
    pthread_join(u, NULL);
    return 0;
}
