/* LOCKSMITH, figure 10, in C (the λ▷ version is paper-examples/lambda/fig10_existential.lam).
 * A pointer to a lock/data pair is either the global pair or a fresh one, so its lock label
 * conflates the global lock with one allocated per run: that label is not linear. Each thread
 * writes its pair's data while holding that pair's own lock: an unpack of the pair, inferred
 * here as LOCKSMITH's `pack`/`unpack` would be written in λ▷. Without existentials
 * (`--no-existentials`, like fig10_without_pack.lam) the write is a race. The paper's `b` is
 * any boolean: here `main` sets it from its arguments, so that neither branch is dead. */
#include <pthread.h>
#include <stdlib.h>

struct pair {
    pthread_mutex_t l;
    int r;
};

static struct pair first = {PTHREAD_MUTEX_INITIALIZER, 1};
static int b;

static void *writer(void *arg) {
    (void)arg;
    struct pair *p;
    pthread_mutex_lock(&first.l);
    int c = b;
    pthread_mutex_unlock(&first.l);
    if (c == 0) {
        p = &first;
    } else {
        p = malloc(sizeof *p);
        pthread_mutex_init(&p->l, NULL);
        p->r = 2;
    }
    pthread_mutex_lock(&p->l);
    p->r = 3;
    pthread_mutex_unlock(&p->l);
    return NULL;
}

int main(int argc, char **argv) {
    pthread_t t1, t2;
    (void)argv;
    b = argc > 1;
    pthread_create(&t1, NULL, writer, NULL);
    pthread_create(&t2, NULL, writer, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    return 0;
}
