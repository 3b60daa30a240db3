/* A generic stack of void* payloads guarded by `sm`. main pushes pointers to
 * four points before the first fork. Workers pop a payload, move the point
 * and push it back, all while holding `sm`: NORACE on the stack slots, on
 * `top` and on the point fields. `pops` is bumped after the unlock by both
 * workers: RACE. */
#include <pthread.h>
#include <stdio.h>

#define CAP 8
#define ITER 3000

struct point { int x, y; };

pthread_mutex_t sm = PTHREAD_MUTEX_INITIALIZER;
void *stack[CAP];
int top;
struct point pts[4];
long pops;

static void push(void *p)
{
    stack[top] = p; // NORACE: every caller holds sm
    top++; // NORACE: every caller holds sm
}

static void *pop(void)
{
    if (top == 0) // NORACE: every caller holds sm
        return NULL;
    return stack[--top]; // NORACE: every caller holds sm
}

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITER; i++) {
        pthread_mutex_lock(&sm);
        struct point *p = pop();
        if (p != NULL) {
            p->x++; // NORACE: sm held
            p->y--; // NORACE: sm held
            push(p);
        }
        pthread_mutex_unlock(&sm);
        pops++; // RACE: after the unlock, both workers
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    for (int i = 0; i < 4; i++)
        stack[i] = &pts[i];
    top = 4;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    puts("done");
    return 0;
}
