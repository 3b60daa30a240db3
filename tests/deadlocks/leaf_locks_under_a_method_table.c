/* Files read through a table of methods, holding the file's lock (`file_read`); each method
 * counts under a lock of its own. No lock call is ever made holding `data_count_lock`, so
 * waiting for it closes no cycle, however many callers reach it. `journal_count_lock` looks
 * the same inside `journal_read`, but `flush` holds it while it calls `file_lock`, which waits
 * for the journal's lock: with `read_journal`, which holds the journal's lock while
 * `journal_read` waits for the count lock, the two may wait for each other. The lock `flush`
 * holds is seen at its call, not at a lock call of its own. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct file;

struct file_methods {
    int (*read)(struct file *f, char *buf, int n);
};

struct file {
    pthread_mutex_t mu;
    const struct file_methods *methods;
    long reads;
    char page[16];
};

static pthread_mutex_t data_count_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t journal_count_lock = PTHREAD_MUTEX_INITIALIZER;
static long data_bytes, journal_bytes, flushed;

static int data_read(struct file *f, char *buf, int n)
{
    memcpy(buf, f->page, (size_t)n);
    pthread_mutex_lock(&data_count_lock); // NODEADLOCK: no lock call is made holding it
    data_bytes += n;
    pthread_mutex_unlock(&data_count_lock);
    return n;
}

static int journal_read(struct file *f, char *buf, int n)
{
    memcpy(buf, f->page, (size_t)n);
    pthread_mutex_lock(&journal_count_lock); // DEADLOCK: holds the journal's lock
    journal_bytes += n;
    pthread_mutex_unlock(&journal_count_lock);
    return n;
}

static const struct file_methods data_methods = { data_read };
static const struct file_methods journal_methods = { journal_read };
static struct file data = { PTHREAD_MUTEX_INITIALIZER, &data_methods, 0, "data" };
static struct file journal = { PTHREAD_MUTEX_INITIALIZER, &journal_methods, 0, "journal" };

static int file_read(struct file *f, char *buf, int n)
{
    int r;

    pthread_mutex_lock(&f->mu); // NODEADLOCK: holds nothing
    r = f->methods->read(f, buf, n);
    f->reads++;
    pthread_mutex_unlock(&f->mu);
    return r;
}

static void *read_data(void *arg)
{
    char buf[8];

    (void)arg;
    return (void *)(long)file_read(&data, buf, (int)sizeof buf);
}

static void *read_journal(void *arg)
{
    char buf[8];

    (void)arg;
    return (void *)(long)file_read(&journal, buf, (int)sizeof buf);
}

static void file_lock(struct file *f)
{
    pthread_mutex_lock(&f->mu); // DEADLOCK: `flush` holds journal_count_lock at its call
}

static void *flush(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&journal_count_lock); // NODEADLOCK: holds nothing
    file_lock(&journal);
    flushed += journal.reads;
    pthread_mutex_unlock(&journal.mu);
    pthread_mutex_unlock(&journal_count_lock);
    return NULL;
}

int main(void)
{
    pthread_t a, b, c;

    pthread_create(&a, NULL, read_data, NULL);
    pthread_create(&b, NULL, read_journal, NULL);
    pthread_create(&c, NULL, flush, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    printf("%ld %ld %ld\n", data_bytes, journal_bytes, flushed);
    return 0;
}
