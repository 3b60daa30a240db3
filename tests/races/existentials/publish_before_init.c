// A record is published to a global list before its initialisation is complete: the writes
// after the publication race with the readers, even though the readers hold the record's own
// lock (the writer does not).
#include <pthread.h>
#include <stdlib.h>

struct rec {
    pthread_mutex_t lock;
    int ready;
    int data;
    struct rec *next;
};

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rec *list;

static void *reader(void *arg) {
    (void)arg;
    int sum = 0;
    struct rec *r = NULL;
    while (r == NULL) {
        pthread_mutex_lock(&list_lock);
        r = list; // NORACE
        pthread_mutex_unlock(&list_lock);
    }
    for (; r != NULL; r = r->next) { // NORACE: next is written before the publication only
        pthread_mutex_lock(&r->lock);
        if (r->ready) // RACE: written after the publication without the record's lock
            sum += r->data; // RACE: written after the publication without the record's lock
        pthread_mutex_unlock(&r->lock);
    }
    return (void *)(long)sum;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
    for (int i = 0; i < 4; i++) {
        struct rec *r = malloc(sizeof *r);
        pthread_mutex_init(&r->lock, NULL);
        pthread_mutex_lock(&list_lock);
        r->next = list; // NORACE: r is not published yet
        list = r; // NORACE
        pthread_mutex_unlock(&list_lock);
        r->data = i; // RACE: already published
        r->ready = 1; // RACE: already published
    }
    pthread_join(t, NULL);
    return 0;
}
