/* An interpreter whose operations each hold their module's lock while they call back into the
 * interpreter, through a table of function pointers: every path around the cycle holds its
 * own set of the six module locks, taken in every order. Both threads run the interpreter
 * under its big lock, held on every path, so only one of them is ever inside: no deadlock.
 * The module locks are recursive, so an operation that comes back to its own module takes
 * its lock again without waiting. The lock order keeps eight states per lock call and
 * function of the cycle, then their join, whose gate is the big lock all of them hold. */
#include <pthread.h>

static pthread_mutex_t m0, m1, m2, m3, m4, m5;
static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
static long c0, c1, c2, c3, c4, c5;

static void step(int d);

static void op0(int d) { pthread_mutex_lock(&m0); c0++; step(d); pthread_mutex_unlock(&m0); } // NODEADLOCK
static void op1(int d) { pthread_mutex_lock(&m1); c1++; step(d); pthread_mutex_unlock(&m1); } // NODEADLOCK
static void op2(int d) { pthread_mutex_lock(&m2); c2++; step(d); pthread_mutex_unlock(&m2); } // NODEADLOCK
static void op3(int d) { pthread_mutex_lock(&m3); c3++; step(d); pthread_mutex_unlock(&m3); } // NODEADLOCK
static void op4(int d) { pthread_mutex_lock(&m4); c4++; step(d); pthread_mutex_unlock(&m4); } // NODEADLOCK
static void op5(int d) { pthread_mutex_lock(&m5); c5++; step(d); pthread_mutex_unlock(&m5); } // NODEADLOCK

static void (*const ops[6])(int) = { op0, op1, op2, op3, op4, op5 };

/* One step of the interpreter: the next operation, chosen by the depth left. */
static void step(int d)
{
    if (d > 0)
        ops[(d * 5) % 6](d - 1);
}

static void *run(void *arg)
{
    pthread_mutex_lock(&big); // NODEADLOCK
    step(30);
    pthread_mutex_unlock(&big);
    return arg;
}

int main(void)
{
    pthread_mutexattr_t recursive;
    pthread_t a, b;

    pthread_mutexattr_init(&recursive);
    pthread_mutexattr_settype(&recursive, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&m0, &recursive);
    pthread_mutex_init(&m1, &recursive);
    pthread_mutex_init(&m2, &recursive);
    pthread_mutex_init(&m3, &recursive);
    pthread_mutex_init(&m4, &recursive);
    pthread_mutex_init(&m5, &recursive);
    pthread_create(&a, NULL, run, NULL);
    pthread_create(&b, NULL, run, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return c0 + c1 + c2 + c3 + c4 + c5 > 0 ? 0 : 1;
}
