/* fgets into shared buffers. Each worker reads lines from its own in-memory
 * stream (fmemopen over a private copy of the text). Lines are read into the
 * shared `line` holding `m`: NORACE. The first line is also read into the
 * shared `first` by both workers without a lock: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
char line[64];
char first[64];
long chars;

static void *worker(void *arg)
{
    char text[] = "alpha\nbeta\ngamma\ndelta\nepsilon\n";
    FILE *in = fmemopen(text, strlen(text), "r");
    (void)arg;
    if (fgets(first, sizeof first, in) == NULL) // RACE: both workers, no lock
        return NULL;
    for (;;) {
        pthread_mutex_lock(&m);
        char *got = fgets(line, sizeof line, in); // NORACE: m held
        if (got != NULL)
            chars += (long)strlen(line); // NORACE: m held
        pthread_mutex_unlock(&m);
        if (got == NULL)
            break;
    }
    fclose(in);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_lock(&m);
    printf("%ld\n", chars); // NORACE: m held
    pthread_mutex_unlock(&m);
    return 0;
}
