/* GNU `asm goto` (the templates are x86-64; locksmith reads none): control falls through or
 * jumps to one of the listed labels, so the analysis must follow both the code after the
 * statement and the code at its labels. The first one always jumps, the second never does.
 * RACE: `jumped` is written at the label `skip`, reached only by the jump, no lock.
 * RACE: `fell` is written after the second statement's fallthrough, no lock.
 * NORACE: `guarded` is written under `lock`. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int jumped;
int fell;
int guarded;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        asm goto("jmp %l0" : : : : skip);
        goto out; /* not reached: the template always jumps */
    skip:
        jumped++; // RACE: no lock
        asm goto("" : : : : out);
        fell++; // RACE: no lock
    out:
        pthread_mutex_lock(&lock);
        guarded++; // NORACE: lock held
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %d %d\n", jumped, fell, guarded); // NORACE: after the joins
    return 0;
}
