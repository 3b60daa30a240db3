/* Threads started with the create loop's counter hand their value on to
 * helpers: `record` is called only by the workers, each time with the
 * worker's own value, so each writes only its own slot of `totals`: NORACE.
 * `stamp` is also called by main with 0 while the workers run: RACE with the
 * first worker. `shift` is handed the value but overwrites its parameter, so
 * every worker writes `marks[0]`: RACE. The scanners are declared with an
 * integer parameter and index by it directly: NORACE; their helper `probe`
 * is handed `id + 1`, the next scanner's value: RACE. The counters index by
 * their argument converted back, and hand it so to `note`: NORACE; the
 * element after theirs is the next counter's: RACE. */
#include <pthread.h>
#include <stdio.h>

#define N 4

static long totals[N], stamps[N], marks[N], seen[N + 1], hits[N + 1], notes[N], tally[N];

static void record(long id, long v) { totals[id] += v; } // NORACE needs=existentials: only this worker's value reaches it

static void stamp(long id) { stamps[id] = id; } // RACE: main stamps slot 0 too

static void shift(long id)
{
    id = 0;
    marks[id]++; // RACE: every worker writes slot 0
}

static void *worker(void *arg)
{
    long id = (long)arg;
    record(id, 1);
    stamp(id);
    shift(id);
    return NULL;
}

static void probe(long at) { seen[at]++; } // RACE: the previous scanner probes this scanner's slot

static int scanner(long id)
{
    seen[id]++; // RACE: the previous scanner's probe writes this slot
    probe(id + 1);
    return 0;
}

static void note(long id) { notes[id]++; } // NORACE needs=existentials: only this counter's value reaches it

static void *counter(void *arg)
{
    tally[(long)arg] = 1; // NORACE needs=existentials: the value converted back is the slot
    hits[(long)arg]++; // RACE: the previous counter writes this element as its next
    hits[(long)arg + 1]++; // RACE: the next counter writes this element as its own
    note((long)arg);
    return NULL;
}

int main(void)
{
    pthread_t t[N], s[N], c[N];
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    stamp(0);
    for (long i = 0; i < N; i++)
        pthread_create(&s[i], NULL, (void *(*)(void *))(void (*)(void))scanner, (void *)i);
    for (long i = 0; i < N; i++)
        pthread_create(&c[i], NULL, counter, (void *)i);
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        pthread_join(s[i], NULL);
        pthread_join(c[i], NULL);
    }
    printf("%ld %ld %ld %ld %ld %ld\n", totals[1], stamps[0], marks[0], seen[1], hits[1], notes[1] + tally[1]);
    return 0;
}
