/* A ticket lock written in inline assembly, defined in the program itself. locksmith cannot
 * read the assembly: without locksmith.toml the lock's own fields race and `total` is reported
 * as unprotected. The configuration says what ticket_lock and ticket_unlock do; their calls
 * then acquire and release the ticket, and their bodies are not analysed. */
#include <pthread.h>
#include <stdio.h>

struct ticket {
    volatile unsigned next;
    volatile unsigned serving;
};

void ticket_lock(struct ticket *t)
{
    unsigned mine = 1;
    __asm__ __volatile__("lock xaddl %0, %1" : "+r"(mine), "+m"(t->next) : : "memory");
    while (t->serving != mine)
        __asm__ __volatile__("pause" : : : "memory");
}

void ticket_unlock(struct ticket *t)
{
    __asm__ __volatile__("lock incl %0" : "+m"(t->serving) : : "memory");
}

static struct ticket lock;
static long total;
static long unguarded;

static void *worker(void *arg)
{
    for (int i = 0; i < 1000; i++) {
        ticket_lock(&lock);
        total += i; // NORACE: the ticket lock is held
        ticket_unlock(&lock);
        unguarded++; // RACE: incremented by both workers without the lock
    }
    return arg;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", total, unguarded);
    return 0;
}
