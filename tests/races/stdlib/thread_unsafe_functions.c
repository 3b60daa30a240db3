/* Library functions that keep hidden static state (POSIX XSH 2.9.1 lets them
 * be thread-unsafe): two threads calling `strtok`, `rand` or `localtime`
 * without a common lock race on that state: RACE at each call. Their
 * reentrant variants (`strtok_r`, `rand_r`, `localtime_r`) keep the state in
 * the caller's variables: NORACE. (`strtok` also keeps a pointer into the
 * caller's buffer, so `line` counts as shared from then on; the reentrant
 * calls work on their own buffer.) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void *worker(void *arg)
{
    char line[32];
    char mine_line[32];
    char *save = NULL;
    unsigned seed = (unsigned)(long)arg;
    time_t now = 0;
    struct tm mine;
    long sum = 0;

    snprintf(line, sizeof line, "a b c %ld", (long)arg);
    char *tok = strtok(line, " "); // RACE: strtok's position is shared
    sum += rand(); // RACE: rand's seed is shared
    struct tm *tm = localtime(&now); // RACE: localtime's result is shared
    sum += tok != NULL;
    sum += tm != NULL;

    snprintf(mine_line, sizeof mine_line, "d e f");
    sum += strtok_r(mine_line, " ", &save) != NULL; // NORACE: the position is in `save`
    sum += rand_r(&seed); // NORACE: the seed is the caller's
    sum += localtime_r(&now, &mine) != NULL; // NORACE: the result is the caller's
    return (void *)sum;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)1L);
    pthread_create(&b, NULL, worker, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    puts("done");
    return 0;
}
