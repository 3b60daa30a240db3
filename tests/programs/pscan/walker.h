/*
 * walker.h - recursive directory traversal feeding the work queue.
 */
#ifndef PSCAN_WALKER_H
#define PSCAN_WALKER_H

#include "queue.h"

/* Called after every path the walker queues (used by the self-test). */
typedef void (*walk_hook_fn)(void *arg, unsigned long nqueued);

struct walk_stats {
    unsigned long dirs;         /* directories read */
    unsigned long files;        /* regular files queued */
    unsigned long skipped;      /* hidden, too deep, special files, ... */
    unsigned long errors;       /* unreadable directories, stat failures */
};

struct walker {
    struct work_queue *queue;
    int max_depth;              /* -1 = unlimited */
    int show_hidden;
    int follow_links;
    walk_hook_fn hook;
    void *hook_arg;
    struct walk_stats stats;
};

void walker_init(struct walker *w, struct work_queue *q, int max_depth,
                 int show_hidden, int follow_links);

void walker_set_hook(struct walker *w, walk_hook_fn hook, void *arg);

/*
 * Queue every regular file below `root` (or `root` itself if it is a file).
 * Returns 0, or -1 if `root` could not be examined at all.  Errors further
 * down are logged and counted in w->stats.errors.
 */
int walk_path(struct walker *w, const char *root);

#endif /* PSCAN_WALKER_H */
