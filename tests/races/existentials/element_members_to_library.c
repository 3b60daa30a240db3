/* Each thread is handed its own element of an array (`&slots[i]` in a counted create loop)
 * and fills that element's members through library functions: `snprintf` into its name,
 * `memset` of its histogram, `strcpy` of its label. Those calls touch only the member they are
 * given, so they stay inside the thread's element: NORACE (each was reported: a library call
 * through the argument was taken to touch the whole array). Every thread also writes the
 * note of element 0 and the one global buffer `banner` by library calls: RACE. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define WORKERS 4

struct slot {
    int id;
    char name[16];
    unsigned hist[8];
    char label[8];
    char note[8];
};

static struct slot slots[WORKERS];
static char banner[32];

static void *worker(void *arg)
{
    struct slot *mine = arg;
    snprintf(mine->name, sizeof mine->name, "worker-%d", mine->id); // NORACE needs=existentials
    memset(mine->hist, 0, sizeof mine->hist); // NORACE needs=existentials
    mine->hist[mine->id % 8]++; // NORACE needs=existentials
    strcpy(mine->label, "busy"); // NORACE needs=existentials
    strcpy(slots[0].note, mine->label); // RACE
    snprintf(banner, sizeof banner, "last %d", mine->id); // RACE
    return NULL;
}

int main(void)
{
    pthread_t threads[WORKERS];
    for (int i = 0; i < WORKERS; i++) {
        slots[i].id = i;
        pthread_create(&threads[i], NULL, worker, &slots[i]);
    }
    for (int i = 0; i < WORKERS; i++)
        pthread_join(threads[i], NULL);
    for (int i = 0; i < WORKERS; i++)
        printf("%s %s %s %u\n", slots[i].name, slots[i].label, slots[i].note, slots[i].hist[i % 8]);
    printf("%s\n", banner);
    return 0;
}
