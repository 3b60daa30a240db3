/* Every misuse of the annotations of locksmith.h, one per line marked with its code. */
#include <pthread.h>
#include <stdlib.h>
#include "locksmith.h"

struct box {
    pthread_mutex_t lock;
    int value;
};
LOCKSMITH_EXISTENTIAL(box, lock, value);
LOCKSMITH_EXISTENTIAL(box, lock, missing); /* existential/unknown-field */

struct plain {
    int value;
};

static struct box *shared;
static int *leak;

static void *peek(void *arg) {
    (void)arg;
    struct box *b = shared;
    LOCKSMITH_UNPACK(b);
    b = NULL; /* existential/assigned-in-unpack */
    LOCKSMITH_END_UNPACK(b); /* existential/end-without-start */
    if (b != NULL)
        return b;
    struct box *c = shared;
    c->value++; /* existential/outside-unpack */
    leak = &c->value; /* existential/escape */
    return NULL;
}

int main(void) {
    struct plain *p = malloc(sizeof *p);
    LOCKSMITH_PACK(p); /* existential/not-declared */
    shared = calloc(1, sizeof *shared);
    LOCKSMITH_PACK(shared); /* existential/pack-after-publish */
    pthread_t t1, t2;
    pthread_create(&t1, NULL, peek, NULL);
    pthread_create(&t2, NULL, peek, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    free(p);
    return 0;
}
