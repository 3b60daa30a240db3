// A call through a pointer that may reach a function that never returns (it exits) or one
// that returns: the code after the call still runs when the returning one was called, so its
// accesses race as usual.
#include <pthread.h>
#include <stdlib.h>

static int x;
static int sel;

static void carry_on(void) {}

static void give_up(void) { exit(1); }

static void (*const table[2])(void) = {carry_on, give_up};

static void *worker(void *arg) {
    table[sel]();
    x++; // RACE: both workers get here when sel selects carry_on
    return arg;
}

int main(int argc, char **argv) {
    (void)argv;
    sel = argc > 5;
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, NULL);
    pthread_create(&t2, NULL, worker, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    return 0;
}
