/* glib.c — GLib's memory, strings, hash tables, lists and pointer arrays (<glib.h>). None of
 * these is synchronised by GLib: a hash table, a list or an array is the program's data, and two
 * threads that use one without a common lock race on it, exactly as on a struct of their own.
 * So each is modelled as memory of its own: a table's entries are fields of the table object
 * (inserting and removing write it, looking up and counting read it), a list is its nodes, an
 * array its header and its block of pointers. What a table keeps is what it hands back: a
 * lookup returns a value inserted, and `foreach` hands the program's function the keys and
 * values, as does the value destroy notifier when an entry is replaced or removed, in the
 * calling thread. Two callbacks are not called, which keeps the many call sites of a table from
 * each calling them (the thread analysis pays for every such call): the hash and equality
 * functions are taken to be what GLib's contract says they are, functions of the keys, and are
 * reads of both keys; a key destroy notifier is taken to free the key (programs pass `g_free`
 * or `free`). README lists both among the model's assumptions. Allocation functions return
 * fresh memory; `g_free` frees.
 *
 * The stub unit has no GLib headers. `GList`, `GSList` and `GPtrArray` are GLib's public structs,
 * declared here with their tags and members so that the program's are these; a `GHashTable` is
 * opaque to the program, and this unit gives it the members that stand for its contents. */

typedef unsigned int (*glib_hash_func)(const void *key);
typedef int (*glib_equal_func)(const void *a, const void *b);
typedef void (*glib_destroy_func)(void *data);
typedef void (*glib_h_func)(void *key, void *value, void *user_data);
typedef int (*glib_hr_func)(void *key, void *value, void *user_data);

struct _GHashTable {
    void *key;
    void *value;
    glib_hash_func hash;
    glib_equal_func equal;
    glib_destroy_func key_destroy;
    glib_destroy_func value_destroy;
};

struct _GList {
    void *data;
    struct _GList *next;
    struct _GList *prev;
};

struct _GSList {
    void *data;
    struct _GSList *next;
};

struct _GPtrArray {
    void **pdata;
    unsigned int len;
};

/* ---- memory ---- */

void *g_malloc(size_t size)
{
    return __locksmith_alloc();
}

void *g_malloc0(size_t size)
{
    return __locksmith_alloc();
}

void *g_try_malloc(size_t size)
{
    return __locksmith_alloc();
}

void *g_try_malloc0(size_t size)
{
    return __locksmith_alloc();
}

void *g_malloc_n(size_t n, size_t size)
{
    return __locksmith_alloc();
}

void *g_malloc0_n(size_t n, size_t size)
{
    return __locksmith_alloc();
}

void *g_realloc(void *mem, size_t size)
{
    return realloc(mem, size);
}

void *g_realloc_n(void *mem, size_t n, size_t size)
{
    return realloc(mem, size);
}

void g_free(void *mem)
{
    free(mem);
}

void *g_memdup(const void *mem, unsigned int size)
{
    void *copy = __locksmith_alloc();
    __locksmith_copy(copy, mem);
    return copy;
}

/* ---- strings ---- */

char *g_strdup(const char *s)
{
    return strdup(s);
}

char *g_strndup(const char *s, size_t n)
{
    return strndup(s, n);
}

char *g_strdup_printf(const char *format, ...)
{
    char *text = __locksmith_alloc();
    __locksmith_read(format);
    __locksmith_read_varargs();
    __locksmith_write(text);
    return text;
}

char *g_strconcat(const char *first, ...)
{
    char *text = __locksmith_alloc();
    __locksmith_read(first);
    __locksmith_read_varargs();
    __locksmith_write(text);
    return text;
}

char **g_strsplit(const char *s, const char *delimiter, int max_tokens)
{
    char **parts = __locksmith_alloc();
    char *part = __locksmith_alloc();
    __locksmith_read(s);
    __locksmith_read(delimiter);
    __locksmith_copy(part, s);
    parts[0] = part;
    return parts;
}

void g_strfreev(char **parts)
{
    if (parts != NULL) {
        free(parts[0]);
        free(parts);
    }
}

unsigned int g_str_hash(const void *key)
{
    __locksmith_read(key);
    return __locksmith_nondet();
}

int g_str_equal(const void *a, const void *b)
{
    __locksmith_read(a);
    __locksmith_read(b);
    return __locksmith_nondet();
}

/* ---- hash tables ---- */

struct _GHashTable *g_hash_table_new_full(glib_hash_func hash, glib_equal_func equal,
                                          glib_destroy_func key_destroy,
                                          glib_destroy_func value_destroy)
{
    struct _GHashTable *table = __locksmith_alloc();
    table->hash = hash;
    table->equal = equal;
    table->key_destroy = key_destroy;
    table->value_destroy = value_destroy;
    return table;
}

struct _GHashTable *g_hash_table_new(glib_hash_func hash, glib_equal_func equal)
{
    return g_hash_table_new_full(hash, equal, NULL, NULL);
}

/* Finds `key`'s entry: hashes it and compares it with a key the table holds (reads of both
 * keys, the hash and equality functions being functions of the keys). */
static void glib_hash_find(struct _GHashTable *table, const void *key)
{
    __locksmith_read(key);
    __locksmith_read(table->key);
}

/* Ends the entry the table holds: its key freed (by the key destroy notifier, `g_free` or
 * `free`), its value handed to the value destroy notifier. */
static void glib_hash_end(struct _GHashTable *table)
{
    if (table->key_destroy != NULL)
        free(table->key);
    if (table->value_destroy != NULL)
        table->value_destroy(table->value);
}

int g_hash_table_insert(struct _GHashTable *table, void *key, void *value)
{
    glib_hash_find(table, key);
    glib_hash_end(table);
    table->key = key;
    table->value = value;
    return __locksmith_nondet();
}

int g_hash_table_replace(struct _GHashTable *table, void *key, void *value)
{
    return g_hash_table_insert(table, key, value);
}

int g_hash_table_add(struct _GHashTable *table, void *key)
{
    return g_hash_table_insert(table, key, key);
}

void *g_hash_table_lookup(struct _GHashTable *table, const void *key)
{
    glib_hash_find(table, key);
    return table->value;
}

int g_hash_table_lookup_extended(struct _GHashTable *table, const void *key, void **orig_key,
                                 void **value)
{
    glib_hash_find(table, key);
    if (orig_key != NULL)
        *orig_key = table->key;
    if (value != NULL)
        *value = table->value;
    return __locksmith_nondet();
}

int g_hash_table_contains(struct _GHashTable *table, const void *key)
{
    glib_hash_find(table, key);
    return __locksmith_nondet();
}

int g_hash_table_remove(struct _GHashTable *table, const void *key)
{
    glib_hash_find(table, key);
    glib_hash_end(table);
    table->key = NULL;
    table->value = NULL;
    return __locksmith_nondet();
}

int g_hash_table_steal(struct _GHashTable *table, const void *key)
{
    glib_hash_find(table, key);
    table->key = NULL;
    table->value = NULL;
    return __locksmith_nondet();
}

/* The count is read where the entries are: counting races with what changes them. */
unsigned int g_hash_table_size(struct _GHashTable *table)
{
    if (table->key == NULL)
        return 0;
    return __locksmith_nondet();
}

void g_hash_table_foreach(struct _GHashTable *table, glib_h_func func, void *user_data)
{
    func(table->key, table->value, user_data);
}

unsigned int g_hash_table_foreach_remove(struct _GHashTable *table, glib_hr_func func,
                                         void *user_data)
{
    if (func(table->key, table->value, user_data)) {
        glib_hash_end(table);
        table->key = NULL;
        table->value = NULL;
        }
    return __locksmith_nondet();
}

void g_hash_table_remove_all(struct _GHashTable *table)
{
    glib_hash_end(table);
    table->key = NULL;
    table->value = NULL;
}

void g_hash_table_destroy(struct _GHashTable *table)
{
    glib_hash_end(table);
    free(table);
}

void g_hash_table_unref(struct _GHashTable *table)
{
    glib_hash_end(table);
    free(table);
}

struct _GHashTable *g_hash_table_ref(struct _GHashTable *table)
{
    __locksmith_read(table);
    return table;
}

/* ---- doubly linked lists ---- */

struct _GList *g_list_append(struct _GList *list, void *data)
{
    struct _GList *node = __locksmith_alloc();
    node->data = data;
    node->next = NULL;
    node->prev = list;
    if (list == NULL)
        return node;
    list->next = node;
    return list;
}

struct _GList *g_list_prepend(struct _GList *list, void *data)
{
    struct _GList *node = __locksmith_alloc();
    node->data = data;
    node->next = list;
    node->prev = NULL;
    if (list != NULL)
        list->prev = node;
    return node;
}

struct _GList *g_list_first(struct _GList *list)
{
    if (list != NULL && list->prev != NULL)
        return list->prev;
    return list;
}

struct _GList *g_list_last(struct _GList *list)
{
    if (list != NULL && list->next != NULL)
        return list->next;
    return list;
}

unsigned int g_list_length(struct _GList *list)
{
    if (list != NULL)
        __locksmith_read(list->next);
    return __locksmith_nondet();
}

void *g_list_nth_data(struct _GList *list, unsigned int n)
{
    if (list == NULL)
        return NULL;
    list = list->next;
    return list->data;
}

struct _GList *g_list_find(struct _GList *list, const void *data)
{
    if (list == NULL || list->data == data)
        return list;
    return list->next;
}

struct _GList *g_list_delete_link(struct _GList *list, struct _GList *link)
{
    if (link->prev != NULL)
        link->prev->next = link->next;
    if (link->next != NULL)
        link->next->prev = link->prev;
    free(link);
    return list;
}

struct _GList *g_list_remove(struct _GList *list, const void *data)
{
    if (list != NULL && list->data == data)
        return g_list_delete_link(list, list);
    return list;
}

void g_list_free(struct _GList *list)
{
    if (list != NULL)
        free(list->next);
    free(list);
}

void g_list_free_full(struct _GList *list, glib_destroy_func free_func)
{
    if (list != NULL)
        free_func(list->data);
    g_list_free(list);
}

/* ---- singly linked lists ---- */

struct _GSList *g_slist_append(struct _GSList *list, void *data)
{
    struct _GSList *node = __locksmith_alloc();
    node->data = data;
    node->next = NULL;
    if (list == NULL)
        return node;
    list->next = node;
    return list;
}

struct _GSList *g_slist_prepend(struct _GSList *list, void *data)
{
    struct _GSList *node = __locksmith_alloc();
    node->data = data;
    node->next = list;
    return node;
}

struct _GSList *g_slist_remove(struct _GSList *list, const void *data)
{
    if (list != NULL && list->data == data) {
        struct _GSList *rest = list->next;
        free(list);
        return rest;
    }
    return list;
}

unsigned int g_slist_length(struct _GSList *list)
{
    if (list != NULL)
        __locksmith_read(list->next);
    return __locksmith_nondet();
}

void g_slist_free(struct _GSList *list)
{
    if (list != NULL)
        free(list->next);
    free(list);
}

/* ---- pointer arrays ---- */

struct _GPtrArray *g_ptr_array_new(void)
{
    struct _GPtrArray *array = __locksmith_alloc();
    array->pdata = __locksmith_alloc();
    array->len = 0;
    return array;
}

struct _GPtrArray *g_ptr_array_sized_new(unsigned int reserved)
{
    return g_ptr_array_new();
}

void g_ptr_array_add(struct _GPtrArray *array, void *data)
{
    array->pdata = realloc(array->pdata, array->len + 1);
    array->pdata[array->len] = data;
    array->len = array->len + 1;
}

void **g_ptr_array_free(struct _GPtrArray *array, int free_segment)
{
    void **block = array->pdata;
    free(array);
    if (free_segment) {
        free(block);
        return NULL;
    }
    return block;
}
