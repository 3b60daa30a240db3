/* Members of anonymous structs and unions, as glibc's headers declare them (`struct tcphdr`'s
 * `source` is inside an anonymous union of anonymous structs; `struct stat`'s `st_size`).
 * RACE: both workers write `hdr.source` and `st.st_size`, no lock.
 * NORACE: `hdr.dest` is written under `lock`. */
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
struct tcphdr hdr;
struct stat st;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        hdr.source++; // RACE: no lock
        st.st_size++; // RACE: no lock
        pthread_mutex_lock(&lock);
        hdr.dest++; // NORACE: lock held
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %ld\n", hdr.source, (long)st.st_size); // NORACE: after the joins
    return 0;
}
