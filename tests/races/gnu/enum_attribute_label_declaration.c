/* Two more constructs gcc reads under -std=gnu11: attributes between `enum` and its tag, and a
 * declaration right after a label. Each hid its function from the analysis before.
 * RACE: `level` is written by `tune` (through the enum) and by `retry` (after the label), no
 * lock.
 * NORACE: `attempts` is written holding `m`. */
#include <pthread.h>
#include <stdio.h>

enum __attribute__((packed)) mode { QUIET, LOUD = 3 };

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int level;
static int attempts;

static void *tune(void *arg)
{
    enum mode chosen = LOUD;
    (void)arg;
    level = chosen; // RACE: retry writes it too
    return NULL;
}

static void *retry(void *arg)
{
    int tries = 0;
    (void)arg;
again:
    int next = tries + 1;
    tries = next;
    pthread_mutex_lock(&m);
    attempts++; // NORACE: m held
    pthread_mutex_unlock(&m);
    if (tries < 3)
        goto again;
    level = tries; // RACE: tune writes it too
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, tune, NULL);
    pthread_create(&b, NULL, retry, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %d\n", level, attempts);
    return 0;
}
