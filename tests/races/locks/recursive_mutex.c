/* A recursive mutex held by its caller and locked again by helpers: the
 * account helpers lock `m` themselves, and `transfer` calls them with `m`
 * held, so after each helper returns `m` is still held (it counts its holds).
 * `balance` and `moves` are touched only with `m` held: NORACE. `log_len` is
 * written after the last unlock in one thread and under `m` in the other:
 * RACE on both lines. */
#include <pthread.h>

static pthread_mutex_t m;
static long balance;
static long moves;
long log_len;

static void deposit(long n)
{
    pthread_mutex_lock(&m);
    balance += n; // NORACE: m held, once or twice
    pthread_mutex_unlock(&m);
}

static void transfer(long n)
{
    pthread_mutex_lock(&m);
    deposit(n);
    moves++; // NORACE: m still held after deposit's unlock
    pthread_mutex_lock(&m);
    deposit(-n);
    pthread_mutex_unlock(&m);
    moves++; // NORACE: locked twice, unlocked once
    pthread_mutex_unlock(&m);
}

static void *teller(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++)
        transfer(i);
    log_len++; // RACE: after the last unlock
    return NULL;
}

static void *auditor(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&m);
        moves += balance > 0; // NORACE: m held
        log_len++; // RACE: the teller writes it without m
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_mutexattr_t attr;
    pthread_t a, b;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&m, &attr);
    pthread_create(&a, NULL, teller, NULL);
    pthread_create(&b, NULL, auditor, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return (int)(moves & 1);
}
