/* Workers that take the lock or stop the program: fail() prints its message and exits (it is
 * in a library locksmith is not given: declared only). Without locksmith.toml, locksmith must
 * assume fail returns, and the update after a failed try-lock then runs without the lock. The
 * configuration says fail never returns, so every path to the update holds the lock. */
#include <pthread.h>

void fail(const char *why);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long updates;
static long attempts;
static long gave_up;

/* Counts the failure, then fails: it never returns either, which the configuration also says
 * (its body is still analysed). */
void give_up(const char *why)
{
    gave_up++; // RACE: both workers may give up at the same time
    fail(why);
}

static void *worker(void *arg)
{
    if (pthread_mutex_trylock(&lock) != 0)
        give_up("the lock is busy");
    updates++; // NORACE: the lock is held unless fail() ended the program
    pthread_mutex_unlock(&lock);
    attempts++; // RACE: both workers count without the lock
    return arg;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return (int)(updates + attempts);
}
