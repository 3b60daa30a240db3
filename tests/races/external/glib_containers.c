/* GLib's hash tables and lists are the program's data: GLib does not lock them. Two workers
 * look an entry up in one table and append to one list holding a mutex (NORACE), and insert
 * into another table without it (RACE: the insert writes the table). The key hashing and
 * comparison GLib calls back run in the calling worker, under its lock (locksmith's model
 * takes them to be functions of the keys and reads the keys instead). The library is
 * compiled by gcc only (a stand-in for GLib); locksmith uses its GLib model. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *gpointer;
typedef const void *gconstpointer;
typedef unsigned int guint;
typedef int gboolean;
typedef char gchar;
typedef guint (*GHashFunc)(gconstpointer key);
typedef gboolean (*GEqualFunc)(gconstpointer a, gconstpointer b);
typedef void (*GDestroyNotify)(gpointer data);
typedef struct _GHashTable GHashTable;
typedef struct _GList GList;
struct _GList {
    gpointer data;
    GList *next;
    GList *prev;
};

GHashTable *g_hash_table_new_full(GHashFunc hash, GEqualFunc equal, GDestroyNotify key_destroy,
                                  GDestroyNotify value_destroy);
gboolean g_hash_table_insert(GHashTable *table, gpointer key, gpointer value);
gpointer g_hash_table_lookup(GHashTable *table, gconstpointer key);
GList *g_list_append(GList *list, gpointer data);
gchar *g_strdup(const gchar *s);
void g_free(gpointer mem);

#ifndef __LOCKSMITH__
struct _GHashTable {
    gpointer keys[64], values[64];
    guint used;
    GHashFunc hash;
    GEqualFunc equal;
};
GHashTable *g_hash_table_new_full(GHashFunc hash, GEqualFunc equal, GDestroyNotify key_destroy,
                                  GDestroyNotify value_destroy)
{
    (void)key_destroy, (void)value_destroy;
    GHashTable *t = calloc(1, sizeof *t);
    t->hash = hash, t->equal = equal;
    return t;
}
gboolean g_hash_table_insert(GHashTable *table, gpointer key, gpointer value)
{
    guint at = table->hash(key) % 64;
    table->keys[at] = key;
    table->values[at] = value;
    table->used++;
    return 1;
}
gpointer g_hash_table_lookup(GHashTable *table, gconstpointer key)
{
    guint at = table->hash(key) % 64;
    return table->keys[at] && table->equal(table->keys[at], key) ? table->values[at] : NULL;
}
GList *g_list_append(GList *list, gpointer data)
{
    GList *node = calloc(1, sizeof *node), *last = list;
    node->data = data;
    if (list == NULL)
        return node;
    while (last->next != NULL)
        last = last->next;
    last->next = node;
    node->prev = last;
    return list;
}
gchar *g_strdup(const gchar *s)
{
    return strdup(s);
}
void g_free(gpointer mem)
{
    free(mem);
}
#endif

struct entry {
    int hits;
};

static GHashTable *cache, *seen;
static GList *names;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long hashed;

static guint hash_name(gconstpointer key)
{
    hashed++; // NORACE: called back under the caller's lock only
    return (guint)strlen(key);
}

static gboolean same_name(gconstpointer a, gconstpointer b)
{
    return strcmp(a, b) == 0;
}

static guint hash_unlocked(gconstpointer key)
{
    return (guint)((const char *)key)[0];
}

static void *worker(void *arg)
{
    pthread_mutex_lock(&lock);
    struct entry *e = g_hash_table_lookup(cache, "config"); // NORACE
    if (e != NULL)
        e->hits++; // NORACE
    names = g_list_append(names, g_strdup("worker")); // NORACE
    pthread_mutex_unlock(&lock);
    g_hash_table_insert(seen, g_strdup("worker"), arg); // RACE
    return arg;
}

int main(void)
{
    pthread_t a, b;
    struct entry config = {0};
    cache = g_hash_table_new_full(hash_name, same_name, g_free, NULL);
    seen = g_hash_table_new_full(hash_unlocked, same_name, g_free, NULL);
    g_hash_table_insert(cache, g_strdup("config"), &config);
    pthread_create(&a, NULL, worker, (void *)1);
    pthread_create(&b, NULL, worker, (void *)2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d %ld %p\n", config.hits, hashed, (void *)names);
    return 0;
}
