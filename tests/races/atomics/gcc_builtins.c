/* gcc's __atomic and __sync builtins are atomic accesses: two of them never
 * race with each other, whatever memory order they name. `tickets` is taken
 * with __sync_fetch_and_add and read with __atomic_load_n, `head` is pushed
 * with a compare-and-swap loop and `max_id` with __atomic_compare_exchange_n:
 * NORACE. `expected`, the local a compare-exchange writes back, is the
 * thread's own. `hits` is bumped with a builtin by the workers but with a
 * plain `++` by main: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 1000

struct node {
    struct node *next;
    int value;
};

unsigned long tickets;
struct node *head;
int max_id;
int hits;

static void push(struct node *n)
{
    struct node *old;
    do {
        old = __atomic_load_n(&head, __ATOMIC_ACQUIRE); // NORACE: atomic load
        n->next = old;
    } while (!__sync_bool_compare_and_swap(&head, old, n)); // NORACE: atomic CAS
}

static void *worker(void *arg)
{
    int id = (int)(long)arg;
    for (int i = 0; i < ROUNDS; i++) {
        unsigned long t = __sync_fetch_and_add(&tickets, 1); // NORACE: atomic update
        int expected = __atomic_load_n(&max_id, __ATOMIC_RELAXED); // NORACE
        while (expected < id
               && !__atomic_compare_exchange_n(&max_id, &expected, id, 0, // NORACE
                                               __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            ;
        __atomic_add_fetch(&hits, 1, __ATOMIC_RELAXED); // RACE: main bumps it plainly
        if (t % 100 == 0) {
            struct node *n = malloc(sizeof *n);
            n->value = (int)t;
            push(n);
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)1);
    pthread_create(&b, NULL, worker, (void *)2);
    for (int i = 0; i < ROUNDS; i++)
        hits++; // RACE: a plain update racing with the workers' atomic ones
    unsigned long seen = __atomic_load_n(&tickets, __ATOMIC_SEQ_CST); // NORACE
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%lu %d %d %p\n", seen, max_id, hits, (void *)head);
    return 0;
}
