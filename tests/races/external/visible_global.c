/* A global other files can see may be what unknown code hands back. `settings` is not static,
 * so the library can name it, and `current_settings()` (unknown to locksmith) returns
 * `&settings`: main's write through the returned pointer races with the reporter thread's
 * read of `settings.level` by name (RACE on both). `settings.limit` is read by the thread and
 * written by main through the pointer, both under `settings_lock`: NORACE. `private_stats` is
 * static: no other file can name it, so the library's `struct stats *` is some other object,
 * and main's write through it does not race with the thread's read of `private_stats.hits`. */
#include <pthread.h>
#include <stdio.h>

struct settings {
    int level;
    int limit;
};

struct stats {
    long hits;
};

struct settings settings;
static struct stats private_stats;
static pthread_mutex_t settings_lock = PTHREAD_MUTEX_INITIALIZER;

struct settings *current_settings(void);
struct stats *library_stats(void);

#ifndef __LOCKSMITH__
static struct stats library_own_stats;

struct settings *current_settings(void)
{
    return &settings;
}

struct stats *library_stats(void)
{
    return &library_own_stats;
}
#endif

static void *reporter(void *arg)
{
    int level = settings.level; // RACE: main writes it through current_settings()
    pthread_mutex_lock(&settings_lock);
    int limit = settings.limit; // NORACE: settings_lock held
    pthread_mutex_unlock(&settings_lock);
    long hits = private_stats.hits; // NORACE: the library's stats are another object
    (void)arg;
    return (void *)(long)(level + limit + hits);
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, reporter, NULL);
    current_settings()->level = 3; // RACE: the reporter reads settings.level
    pthread_mutex_lock(&settings_lock);
    current_settings()->limit = 10; // NORACE: settings_lock held
    pthread_mutex_unlock(&settings_lock);
    library_stats()->hits = 1; // NORACE: not private_stats
    pthread_join(t, NULL);
    printf("%d %ld\n", settings.level, private_stats.hits);
    return 0;
}
