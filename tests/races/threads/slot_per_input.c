/* main starts one worker per job, handing each the job's number, counted
 * by a local that grows after every create: each worker owns lengths[n]
 * (NORACE). A second loop numbers only the jobs that are not blank, but
 * starts a marker for every job: the blank job's marker gets the next
 * job's number too, and two markers write one flags[] element (RACE). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define MAX 8

static const char *jobs[] = {"alpha", "", "gamma", "delta", NULL};
static long lengths[MAX];
static long flags[MAX];

static void *measure(void *arg)
{
    long n = (long)arg;
    lengths[n] = (long)strlen(jobs[n]); // NORACE needs=existentials: only this worker got n
    return NULL;
}

static void *mark(void *arg)
{
    long n = (long)arg;
    flags[n]++; // RACE: the blank job's marker and the next one share n
    return NULL;
}

int main(void)
{
    pthread_t t[MAX], u[MAX];
    long n = 0, m = 0;
    int i, k = 0;
    while (n < MAX && jobs[n] != NULL) {
        pthread_create(&t[n], NULL, measure, (void *)n);
        n++;
    }
    for (i = 0; jobs[i] != NULL; i++) {
        pthread_create(&u[k++], NULL, mark, (void *)m);
        if (jobs[i][0] != '\0')
            m++;
    }
    while (n > 0)
        pthread_join(t[--n], NULL);
    while (k > 0)
        pthread_join(u[--k], NULL);
    return 0;
}
