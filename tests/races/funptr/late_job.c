/* Jobs handed one at a time to a queue of function pointers that two
 * workers run. Between the first job and the last, the queue's slots are
 * merged with the slots of another table (the conditional makes one pointer
 * to either), so the last job reaches the workers only if functions added to
 * a list after it was merged still flow on. The first two jobs count under
 * `mu` (NORACE); the last one counts with no lock, in both workers: RACE.
 * `nqueue` and the slots are written by main before the workers start. */
#include <pthread.h>

typedef void (*job_fn)(void);

static job_fn queue[4];
static job_fn spare[4];
static int nqueue;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long first_count, mid_count, last_count;

static void job_first(void)
{
    pthread_mutex_lock(&mu);
    first_count++; // NORACE: mu held
    pthread_mutex_unlock(&mu);
}

static void job_mid(void)
{
    pthread_mutex_lock(&mu);
    mid_count++; // NORACE: mu held
    pthread_mutex_unlock(&mu);
}

static void job_last(void)
{
    last_count++; // RACE: both workers, no lock
}

static void submit(job_fn run)
{
    queue[nqueue++] = run;
}

static void *worker(void *arg)
{
    int i;

    (void)arg;
    for (i = 0; i < nqueue; i++)
        queue[i]();
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    job_fn *slots;

    submit(job_first);
    spare[0] = job_mid;
    slots = nqueue > 0 ? queue : spare;
    slots[nqueue++] = spare[0];
    submit(job_last);
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
