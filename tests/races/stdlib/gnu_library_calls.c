/* GNU and POSIX library calls real programs make from many threads: regexec on one compiled
 * pattern (glibc locks the automaton it caches in), qsort_r with a comparator argument, times.
 * Each worker matches, sorts and times into its own locals: NORACE on those calls (the
 * comparator runs in the worker that sorts, on its own array). Both add up their matches in one
 * global without a lock: RACE. */
#define _GNU_SOURCE
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/times.h>

static regex_t word;
static long matched;

static int by_key(const void *a, const void *b, void *arg)
{
    (void)arg;
    return *(const int *)a - *(const int *)b; // NORACE
}

static void *worker(void *arg)
{
    regmatch_t m[2];
    struct tms t;
    int keys[4] = {4, 3, 2, 1};
    qsort_r(keys, 4, sizeof keys[0], by_key, arg); // NORACE
    times(&t); // NORACE
    if (regexec(&word, "hello world", 2, m, 0) == 0) // NORACE
        matched += m[0].rm_eo; // RACE
    return arg;
}

int main(void)
{
    pthread_t a, b;
    if (regcomp(&word, "w[a-z]*", REG_EXTENDED) != 0)
        return 1;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    regfree(&word);
    printf("%ld\n", matched);
    return 0;
}
