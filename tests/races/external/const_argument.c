/* Unknown code given a pointer to `const` reads what it points to and never
 * writes it (C11 6.7.3 p6: writing it would take a cast). Every call of the
 * library holds `lib_m`, which guards the library's own state. A thread
 * looks up `names` while main reads it: both only read, NORACE (a plain
 * `char *` parameter would have been a write). `title` is looked up while
 * main renames it: RACE. `fill` is given a pointer to plain `char` and
 * writes `buf` while main reads it: RACE. */
#include <pthread.h>
#include <unistd.h>

int lookup(const char *key);
void fill(char *buf, int n);

#ifndef __LOCKSMITH__
int lookup(const char *key)
{
    int h = 0;
    while (*key)
        h = h * 31 + *key++;
    return h;
}

void fill(char *buf, int n)
{
    for (int i = 0; i < n - 1; i++)
        buf[i] = 'x';
    buf[n - 1] = 0;
}
#endif

static pthread_mutex_t lib_m = PTHREAD_MUTEX_INITIALIZER;
static char names[16] = "alpha";
static char title[16] = "beta";
static char buf[16];
static int found;

static void *look(void *arg)
{
    pthread_mutex_lock(&lib_m);
    found += lookup(names); // NORACE: lookup only reads names, as main does
    found += lookup(title); // RACE: main renames title meanwhile
    pthread_mutex_unlock(&lib_m);
    return arg;
}

static void *refill(void *arg)
{
    pthread_mutex_lock(&lib_m);
    fill(buf, 16); // RACE: main reads buf meanwhile
    pthread_mutex_unlock(&lib_m);
    return arg;
}

int main(void)
{
    pthread_t t, u;
    pthread_create(&t, 0, look, 0);
    pthread_create(&u, 0, refill, 0);
    int first = names[0]; // NORACE: names is only read
    title[0] = 'B'; // RACE: look looks it up
    usleep(2000);
    first += buf[15]; // RACE: refill writes it
    pthread_join(t, 0);
    pthread_join(u, 0);
    return first + found;
}
