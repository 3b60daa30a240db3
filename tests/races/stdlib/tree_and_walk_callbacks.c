/* nftw, tsearch and twalk call the program's functions in the calling thread, not in threads of
 * their own. Each worker walks a directory counting files under a lock (NORACE), adds its name
 * to one tree and walks it under the same lock (NORACE), and then counts a total without the
 * lock that the walk's action also updates: RACE on both. */
#define _GNU_SOURCE
#include <ftw.h>
#include <pthread.h>
#include <search.h>
#include <stdio.h>
#include <string.h>

static long files, letters;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *names;

static int count(const char *path, const struct stat *st, int flag, struct FTW *at)
{
    (void)path, (void)st, (void)flag, (void)at;
    pthread_mutex_lock(&lock);
    files++; // NORACE
    pthread_mutex_unlock(&lock);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(a, b); // NORACE
}

static void add_up(const void *node, VISIT which, int depth)
{
    (void)depth;
    if (which == leaf || which == postorder)
        letters += (long)strlen(*(char *const *)node); // RACE
}

static void *worker(void *arg)
{
    nftw("/proc/self/fdinfo", count, 4, FTW_PHYS); // NORACE
    pthread_mutex_lock(&lock);
    tsearch(arg, &names, by_name); // NORACE
    twalk(names, add_up); // NORACE
    pthread_mutex_unlock(&lock);
    letters++; // RACE
    return arg;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, "first");
    pthread_create(&b, NULL, worker, "second");
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", files, letters);
    return 0;
}
