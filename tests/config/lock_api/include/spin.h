/* A spin-lock library. Its code (lib/spin.c) is not given to locksmith: without
 * locksmith.toml these are functions it cannot see. */
#ifndef SPIN_H
#define SPIN_H

struct spin {
    volatile int held;
};

void spin_acquire(struct spin *s);
void spin_release(struct spin *s);
/* Returns 1 when it took the lock, 0 when the lock was busy. */
int spin_try(struct spin *s);

#endif
