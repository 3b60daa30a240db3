/* A global pointer that main points at one object while it sets up, then at
 * another before it starts the threads. `current` first points to main's
 * `draft` (filled in and checked), then to a heap record the workers
 * update under `lock`: the two are never both in `current` once a thread
 * exists, so main's later unlocked writes of `draft` do not race with the
 * workers: NORACE. `label` points to `title` when the reader starts,
 * so the reader's read of `label[0]` races with main's write of `title[0]`:
 * RACE. `spare` first holds `backup`, which setup() copies into `saved`
 * before main replaces it; the auditor reads `saved->hits` while main writes
 * `backup.hits`: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct stats {
    long hits;
    long misses;
};

static struct stats *current;
static struct stats *spare;
static struct stats *saved;
static char *label;
static struct stats draft, backup;
static char title[16] = "title";
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2000; i++) {
        pthread_mutex_lock(&lock);
        current->hits++; // NORACE: lock held
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static void *reader(void *arg)
{
    long seen = 0;
    (void)arg;
    for (int i = 0; i < 2000; i++)
        seen += label[0]; // RACE: main writes title[0]
    return (void *)seen;
}

static void *auditor(void *arg)
{
    long seen = 0;
    (void)arg;
    for (int i = 0; i < 2000; i++)
        seen += saved->hits; // RACE: main writes backup.hits
    return (void *)seen;
}

static void setup(void)
{
    saved = spare;
}

int main(int argc, char **argv)
{
    (void)argv;
    pthread_t t[4];

    current = &draft;
    current->misses = argc;
    if (argc > 5)
        current = malloc(sizeof *current);
    else
        current = calloc(1, sizeof *current);
    current->hits = 0;

    spare = &backup;
    setup();
    spare = NULL;

    label = title;
    pthread_create(&t[0], NULL, worker, NULL);
    pthread_create(&t[1], NULL, worker, NULL);
    pthread_create(&t[2], NULL, reader, NULL);
    pthread_create(&t[3], NULL, auditor, NULL);
    draft.hits++; // NORACE: no thread reaches draft
    title[0] = 'T'; // RACE: the reader reads label[0]
    backup.hits++; // RACE: the auditor reads saved->hits
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    printf("%ld %ld\n", draft.hits, current->hits);
    return 0;
}
