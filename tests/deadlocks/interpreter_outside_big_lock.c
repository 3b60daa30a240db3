/* interpreter_under_big_lock.c with one of its two threads running the interpreter without
 * the big lock: each module lock may be held while another is waited for, in every order, by
 * two threads that may be inside at once, so every two module locks may deadlock. The lock
 * order keeps eight states per lock call and function of the cycle, then their join, which
 * still makes every edge of the states it stands for. */
#include <pthread.h>

static pthread_mutex_t m0, m1, m2, m3, m4, m5;
static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
static long c0, c1, c2, c3, c4, c5;

static void step(int d);

static void op0(int d) { pthread_mutex_lock(&m0); c0++; step(d); pthread_mutex_unlock(&m0); } // DEADLOCK
static void op1(int d) { pthread_mutex_lock(&m1); c1++; step(d); pthread_mutex_unlock(&m1); } // DEADLOCK
static void op2(int d) { pthread_mutex_lock(&m2); c2++; step(d); pthread_mutex_unlock(&m2); } // DEADLOCK
static void op3(int d) { pthread_mutex_lock(&m3); c3++; step(d); pthread_mutex_unlock(&m3); } // DEADLOCK
static void op4(int d) { pthread_mutex_lock(&m4); c4++; step(d); pthread_mutex_unlock(&m4); } // DEADLOCK
static void op5(int d) { pthread_mutex_lock(&m5); c5++; step(d); pthread_mutex_unlock(&m5); } // DEADLOCK

static void (*const ops[6])(int) = { op0, op1, op2, op3, op4, op5 };

/* One step of the interpreter: the next operation, chosen by the depth left. */
static void step(int d)
{
    if (d > 0)
        ops[(d * 5) % 6](d - 1);
}

static void *run_free(void *arg)
{
    step(30);
    return arg;
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
    pthread_create(&b, NULL, run_free, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return c0 + c1 + c2 + c3 + c4 + c5 > 0 ? 0 : 1;
}
