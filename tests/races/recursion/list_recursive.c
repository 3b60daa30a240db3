/* Recursion over a shared linked list. main builds the list before the
 * first fork (the nodes come from one allocation site in a loop; that is
 * fine for data). bump_all() recursively increments `count` in every node
 * and is always called holding `list_m`: NORACE. mark_all() recursively
 * toggles `flag` in every node with no lock, from both workers: RACE.
 * needs=field: with one location per struct object, the race on `flag`
 * would cover the NORACE fields too. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define LEN 20
#define ROUNDS 200

struct item {
    long count;
    int flag;
    struct item *next;
};

pthread_mutex_t list_m = PTHREAD_MUTEX_INITIALIZER;
struct item *head;

static void bump_all(struct item *it)
{
    if (it == NULL)
        return;
    it->count++; // NORACE needs=field: list_m held by the caller
    bump_all(it->next);
}

static void mark_all(struct item *it)
{
    if (it == NULL)
        return;
    it->flag = !it->flag; // RACE: both workers, no lock
    mark_all(it->next);
}

static void *worker(void *arg)
{
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        pthread_mutex_lock(&list_m);
        bump_all(head);
        pthread_mutex_unlock(&list_m);
        mark_all(head);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    for (int i = 0; i < LEN; i++) {
        struct item *it = calloc(1, sizeof *it);
        it->next = head;
        head = it;
    }
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    puts("done");
    return 0;
}
