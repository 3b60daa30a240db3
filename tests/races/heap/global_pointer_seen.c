/* Global pointers that main points at one object and then another before it
 * starts its threads, where a thread can still reach the first object, so
 * it must stay reported. `spare` first holds `a`, which note() copies into
 * `kept` before main replaces it: the reader reads `kept->hits` while main
 * writes `a.hits`: RACE. `shown` is replaced on one branch only, so it may
 * still point to `b` when the threads start: RACE. `active` points to `c`
 * when launch() starts a thread that reads through it, and only then does
 * main replace it (a race on `active` too): RACE. `cfg` points to `d` for a
 * moment, and `peek`, kept by unknown code, is taken to run any number of
 * times from the start of main, so main's write of `d.hits` is reported
 * though the library runs `peek` once, at the end: FALSE-ALARM. */
#include <pthread.h>
#include <stdio.h>

struct stats {
    long hits;
};

struct hook {
    void (*fn)(void);
};

void lib_keep(void *hook);

#ifndef __LOCKSMITH__
void lib_keep(void *hook) { ((struct hook *)hook)->fn(); }
#endif

static struct stats a, b, c, d, *spare, *kept, *shown, *active, *cfg;
static long seen;
static pthread_t extra;

static void note(void) { kept = spare; }

static void peek(void)
{
    struct stats *s = cfg; // FALSE-ALARM: peek is taken to run at any time
    seen += s ? s->hits : 0; // FALSE-ALARM: peek is taken to run at any time
}

static void *reader(void *arg)
{
    long n = kept->hits; // RACE: main writes a.hits
    if (shown)
        n += shown->hits; // RACE: main writes b.hits
    return (void *)(n + (long)arg);
}

static void *watcher(void *arg)
{
    struct stats *s = active; // RACE: main replaces active
    return (void *)((s ? s->hits : 0) + (long)arg); // RACE: main writes c.hits
}

static void launch(void) { pthread_create(&extra, NULL, watcher, NULL); }

static struct hook h = {peek};

int main(int argc, char **argv)
{
    pthread_t t;
    (void)argv;
    cfg = &d;
    d.hits = 1; // FALSE-ALARM: peek is taken to run from the start of main
    cfg = NULL;
    spare = &a;
    note();
    spare = NULL;
    shown = &b;
    if (argc > 5)
        shown = NULL;
    active = &c;
    launch();
    active = NULL; // RACE: the watcher reads active
    pthread_create(&t, NULL, reader, NULL);
    a.hits = 2; // RACE: the reader reads kept->hits
    b.hits = 2; // RACE: the reader reads shown->hits
    c.hits = 2; // RACE: the watcher reads active->hits
    pthread_join(t, NULL);
    pthread_join(extra, NULL);
    lib_keep(&h);
    printf("%ld\n", seen);
    return 0;
}
