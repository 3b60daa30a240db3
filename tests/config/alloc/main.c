/* Jobs allocated from a memory pool whose library locksmith is not given (pool_get: declared
 * only). Without locksmith.toml, pool_get is code locksmith cannot see and its result may be
 * memory every thread reaches, so each worker's writes to its own job are reported. The
 * configuration makes pool_get an allocator: each call returns fresh memory, which a worker
 * fills before anything else can see it. */
#include <pthread.h>
#include <stddef.h>

struct job {
    int id;
    long result;
};

void *pool_get(size_t size);

static long completed;

static void *worker(void *arg)
{
    struct job *job = pool_get(sizeof *job);
    job->id = (int)(long)arg; // NORACE: fresh memory of this thread
    job->result = job->id * 2L; // NORACE: fresh memory of this thread
    completed += job->result; // RACE: both workers add without a lock
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)1L);
    pthread_create(&b, NULL, worker, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return (int)completed;
}
