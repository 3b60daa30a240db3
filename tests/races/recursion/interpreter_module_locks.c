/* An interpreter whose operations each update their module's counter under the module's own
 * lock, then call back into the interpreter: a cycle of calls through a table of function
 * pointers, run under the interpreter's big lock. Every path around the cycle releases a
 * different set of the ten module locks, which once gave each function a context per subset
 * (2^10); the counters stay race-free. `last` is written by every interpreter step, under
 * the big lock the watcher does not take. */
#include <pthread.h>

static pthread_mutex_t m0 = PTHREAD_MUTEX_INITIALIZER, m1 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER, m3 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m4 = PTHREAD_MUTEX_INITIALIZER, m5 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m6 = PTHREAD_MUTEX_INITIALIZER, m7 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m8 = PTHREAD_MUTEX_INITIALIZER, m9 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
static long c0, c1, c2, c3, c4, c5, c6, c7, c8, c9;
static int last;

static void step(int d);

static void op0(int d) { pthread_mutex_lock(&m0); c0++; pthread_mutex_unlock(&m0); step(d); } // NORACE
static void op1(int d) { pthread_mutex_lock(&m1); c1++; pthread_mutex_unlock(&m1); step(d); } // NORACE
static void op2(int d) { pthread_mutex_lock(&m2); c2++; pthread_mutex_unlock(&m2); step(d); } // NORACE
static void op3(int d) { pthread_mutex_lock(&m3); c3++; pthread_mutex_unlock(&m3); step(d); } // NORACE
static void op4(int d) { pthread_mutex_lock(&m4); c4++; pthread_mutex_unlock(&m4); step(d); } // NORACE
static void op5(int d) { pthread_mutex_lock(&m5); c5++; pthread_mutex_unlock(&m5); step(d); } // NORACE
static void op6(int d) { pthread_mutex_lock(&m6); c6++; pthread_mutex_unlock(&m6); step(d); } // NORACE
static void op7(int d) { pthread_mutex_lock(&m7); c7++; pthread_mutex_unlock(&m7); step(d); } // NORACE
static void op8(int d) { pthread_mutex_lock(&m8); c8++; pthread_mutex_unlock(&m8); step(d); } // NORACE
static void op9(int d) { pthread_mutex_lock(&m9); c9++; pthread_mutex_unlock(&m9); step(d); } // NORACE

static void (*const ops[10])(int) = { op0, op1, op2, op3, op4, op5, op6, op7, op8, op9 };

/* One step of the interpreter: the next operation, chosen by the depth left. */
static void step(int d)
{
    if (d <= 0)
        return;
    last = d; // RACE: with the watcher's read
    ops[(d * 7) % 10](d - 1);
}

static void *run(void *arg)
{
    pthread_mutex_lock(&big);
    step(40);
    pthread_mutex_unlock(&big);
    return arg;
}

static void *watch(void *arg)
{
    return last > 0 ? arg : NULL; // RACE: with the interpreter's write
}

int main(void)
{
    pthread_t a, b, w;

    pthread_create(&a, NULL, run, NULL);
    pthread_create(&b, NULL, run, NULL);
    pthread_create(&w, NULL, watch, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(w, NULL);
    return c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8 + c9 > 0 ? 0 : 1;
}
