/* Indices claimed through a function: `next_row` returns the value it took from `rows` under
 * `m`, adding one, so a worker's `r` holds a claimed value and `sums[r]` is its own element;
 * `fill`, which every caller hands such a value, writes its own element of `squares` too:
 * NORACE. `peek_row` returns `shown` without adding to it, so both peekers get one value
 * and their writes of `marked[v]` race. Before, every element access of `sums` and `squares`
 * was reported as written by two threads. */
#include <pthread.h>
#include <stdio.h>

#define ROWS 32
static long sums[ROWS], squares[ROWS], marked[ROWS];
static int rows, shown;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static int next_row(void)
{
    int r;
    pthread_mutex_lock(&m);
    r = rows++;
    pthread_mutex_unlock(&m);
    return r;
}

static int peek_row(void)
{
    int v;
    pthread_mutex_lock(&m);
    v = shown;
    pthread_mutex_unlock(&m);
    return v;
}

static void fill(int r)
{
    squares[r] = (long)r * r; // NORACE needs=existentials
}

static void *worker(void *arg)
{
    int r;
    (void)arg;
    while ((r = next_row()) < ROWS) {
        sums[r] = r + 1; // NORACE needs=existentials
        fill(r);
    }
    return NULL;
}

static void *peeker(void *arg)
{
    int v = peek_row();
    (void)arg;
    marked[v] = 1; // RACE
    return NULL;
}

int main(void)
{
    pthread_t workers[2], peekers[2];
    long total = 0;
    int k;
    for (k = 0; k < 2; k++) {
        pthread_create(&workers[k], NULL, worker, NULL);
        pthread_create(&peekers[k], NULL, peeker, NULL);
    }
    for (k = 0; k < 2; k++) {
        pthread_join(workers[k], NULL);
        pthread_join(peekers[k], NULL);
    }
    for (k = 0; k < ROWS; k++)
        total += sums[k] + squares[k] + marked[k]; // NORACE
    printf("%ld\n", total);
    return 0;
}
