/* The spin-lock library, for building the program (gcc -Iinclude src/main.c lib/spin.c
 * -lpthread); locksmith is given src/main.c only. */
#include "spin.h"

void spin_acquire(struct spin *s)
{
    while (__atomic_exchange_n(&s->held, 1, __ATOMIC_ACQUIRE))
        ;
}

void spin_release(struct spin *s)
{
    __atomic_store_n(&s->held, 0, __ATOMIC_RELEASE);
}

int spin_try(struct spin *s)
{
    return !__atomic_exchange_n(&s->held, 1, __ATOMIC_ACQUIRE);
}
