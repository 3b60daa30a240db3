/* A record handed around as void* and viewed two ways: the stamper writes the
 * record's `seq` field through `struct rec *`, the scrubber clears the record
 * byte by byte through `unsigned char *`. Neither holds a lock: RACE between
 * the byte writes and the field accesses — a character type may access any
 * object, so the byte view must not be kept apart from the struct view.
 * `owner` is written only before the threads start and read after they are
 * joined, but the byte view conflates the whole record into one location and
 * the report lists every access of it: FALSE-ALARM. */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 3000

struct rec { long seq; int owner; };

struct rec the_rec;
void *slot = &the_rec;

static void *stamper(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        struct rec *r = slot;
        r->seq = r->seq + 1; // RACE: the scrubber clears these bytes without a lock
    }
    return NULL;
}

static void *scrubber(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        unsigned char *b = slot;
        for (unsigned k = 0; k < sizeof(long); k++)
            b[k] = 0; // RACE: the stamper writes seq without a lock
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    the_rec.owner = 7; // NORACE: before the threads (in the warning's context: the byte view makes the record one location)
    pthread_create(&a, NULL, stamper, NULL);
    pthread_create(&b, NULL, scrubber, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %d\n", the_rec.seq, the_rec.owner); // NORACE: after the joins (in the warning's context: the byte view makes the record one location)
    return 0;
}
