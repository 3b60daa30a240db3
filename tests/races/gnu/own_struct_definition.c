/* A file preprocessed against another C library's headers defines `struct stat` with a member
 * this machine's headers (and locksmith's library model) do not have, `__pad1`. It is the
 * file's own struct, so `refresh` is analysed and its race found.
 * RACE: `cached` is written by both workers, no lock.
 * NORACE: `checked` is written holding `m`. */
#include <pthread.h>
#include <stdio.h>

struct stat {
    unsigned long long st_dev;
    unsigned short __pad1;
    unsigned long st_ino;
    long st_size;
};

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long cached;
static long checked;

static long refresh(void)
{
    struct stat st;
    st.st_dev = 1;
    st.__pad1 = 0;
    st.st_size = 42;
    cached = st.st_size; // RACE: both workers write it
    return st.st_size + st.__pad1;
}

static void *worker(void *arg)
{
    (void)arg;
    refresh();
    pthread_mutex_lock(&m);
    checked++; // NORACE: m held
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", cached, checked);
    return 0;
}
