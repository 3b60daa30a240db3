/* A recursive structure built through a constructor called from several
 * places: each call makes its own node, and `add` links a node after the
 * list head. The thread's `add` writes `head->next` while main writes and
 * then reads it, with no lock: RACE on the link and on main's read (the
 * link's line also clears the new node's own `next`, which only its maker
 * touches). */
#include <pthread.h>
#include <stdlib.h>

struct s {
    struct s *next;
};

struct s *head;

static struct s *new_node(void)
{
    struct s *n = malloc(sizeof(struct s));
    if (n == NULL)
        abort();
    return n;
}

static void add(struct s *node, struct s *list)
{
    list->next = node; node->next = NULL; // RACE: head->next from two threads
}

static void *t_fun(void *arg)
{
    add(new_node(), head);
    return arg;
}

int main(void)
{
    pthread_t t;
    head = new_node();
    head->next = NULL;
    pthread_create(&t, NULL, t_fun, NULL);
    add(new_node(), head);
    struct s *x = head->next; // RACE: the thread may be linking its node
    pthread_join(t, NULL);
    return x == NULL;
}
