/* Two threads take the same two mutexes in opposite orders: the classic deadlock. */
#include <pthread.h>

static pthread_mutex_t accounts = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t journal = PTHREAD_MUTEX_INITIALIZER;
static int balance, entries;

static void *deposit(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&accounts);
    balance += 10;
    pthread_mutex_lock(&journal); // DEADLOCK: holds accounts, waits for journal
    entries++;
    pthread_mutex_unlock(&journal);
    pthread_mutex_unlock(&accounts);
    return NULL;
}

static void *audit(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&journal);
    entries++;
    pthread_mutex_lock(&accounts); // DEADLOCK: holds journal, waits for accounts
    balance -= 1;
    pthread_mutex_unlock(&accounts);
    pthread_mutex_unlock(&journal);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, deposit, NULL);
    pthread_create(&b, NULL, audit, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
