/*
 * walker.c - recursive directory traversal feeding the work queue.
 *
 * The walker runs in the main thread.  Directory entries are sorted so
 * that the order in which files are handed to the scanners (and hence the
 * progress output) is reproducible from run to run.  With -L, symbolic
 * links are followed and directory cycles are detected by remembering the
 * (device, inode) pairs of the directories on the current path.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "log.h"
#include "walker.h"

/* One directory on the path from the root to the one being read. */
struct dir_frame {
    dev_t dev;
    ino_t ino;
    const struct dir_frame *parent;
};

static int walk_dir(struct walker *w, const char *dir, int depth,
                    const struct dir_frame *parent);

void walker_init(struct walker *w, struct work_queue *q, int max_depth,
                 int show_hidden, int follow_links)
{
    memset(w, 0, sizeof *w);
    w->queue = q;
    w->max_depth = max_depth;
    w->show_hidden = show_hidden;
    w->follow_links = follow_links;
}

void walker_set_hook(struct walker *w, walk_hook_fn hook, void *arg)
{
    w->hook = hook;
    w->hook_arg = arg;
}

static int is_hidden(const char *name)
{
    return name[0] == '.';
}

static int is_dot_or_dotdot(const char *name)
{
    return name[0] == '.' &&
           (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

static int seen_before(const struct dir_frame *f, dev_t dev, ino_t ino)
{
    for (; f != NULL; f = f->parent)
        if (f->dev == dev && f->ino == ino)
            return 1;
    return 0;
}

static void enqueue_file(struct walker *w, const char *path)
{
    int rc = queue_push(w->queue, path);

    if (rc != 0) {
        log_warn("%s: %s", path, strerror(rc));
        w->stats.errors++;
        return;
    }
    w->stats.files++;
    log_debug("queued %s", path);
    if (w->hook != NULL)
        w->hook(w->hook_arg, w->stats.files);
}

static int get_status(const struct walker *w, const char *path, struct stat *st)
{
    return w->follow_links ? stat(path, st) : lstat(path, st);
}

/* Decide what to do with one entry found below a root. */
static void visit(struct walker *w, const char *path, int depth,
                  const struct dir_frame *parent)
{
    struct stat st;

    if (get_status(w, path, &st) < 0) {
        log_warn("%s: %s", path, strerror(errno));
        w->stats.errors++;
        return;
    }

    if (S_ISDIR(st.st_mode)) {
        struct dir_frame here;

        if (w->max_depth >= 0 && depth > w->max_depth) {
            log_debug("%s: deeper than %d, not descending", path, w->max_depth);
            w->stats.skipped++;
            return;
        }
        if (seen_before(parent, st.st_dev, st.st_ino)) {
            log_warn("%s: directory cycle, not descending", path);
            w->stats.skipped++;
            return;
        }
        here.dev = st.st_dev;
        here.ino = st.st_ino;
        here.parent = parent;
        walk_dir(w, path, depth, &here);
    } else if (S_ISREG(st.st_mode)) {
        enqueue_file(w, path);
    } else {
        /* Never open FIFOs, devices or sockets: they may block forever. */
        log_debug("%s: not a regular file, skipped", path);
        w->stats.skipped++;
    }
}

static int walk_dir(struct walker *w, const char *dir, int depth,
                    const struct dir_frame *parent)
{
    struct dirent **names;
    char child[QUEUE_SLOT_SIZE];
    size_t dirlen = strlen(dir);
    int i, n;

    n = scandir(dir, &names, NULL, alphasort);
    if (n < 0) {
        log_warn("%s: %s", dir, strerror(errno));
        w->stats.errors++;
        return -1;
    }
    w->stats.dirs++;

    /* Avoid "dir//name" when the user typed a trailing slash. */
    while (dirlen > 1 && dir[dirlen - 1] == '/')
        dirlen--;

    for (i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        int len;

        if (is_dot_or_dotdot(name))
            continue;
        if (!w->show_hidden && is_hidden(name)) {
            w->stats.skipped++;
            continue;
        }
        len = snprintf(child, sizeof child, "%.*s/%s", (int)dirlen, dir, name);
        if (len < 0 || (size_t)len >= sizeof child) {
            log_warn("%.*s/%s: path too long", (int)dirlen, dir, name);
            w->stats.errors++;
            continue;
        }
        visit(w, child, depth + 1, parent);
    }

    for (i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return 0;
}

int walk_path(struct walker *w, const char *root)
{
    struct stat st;

    /* Roots named on the command line are always followed. */
    if (stat(root, &st) < 0) {
        log_error("%s: %s", root, strerror(errno));
        w->stats.errors++;
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        struct dir_frame top;

        top.dev = st.st_dev;
        top.ino = st.st_ino;
        top.parent = NULL;
        walk_dir(w, root, 0, &top);
    } else if (S_ISREG(st.st_mode)) {
        enqueue_file(w, root);
    } else {
        log_warn("%s: not a regular file or directory, skipped", root);
        w->stats.skipped++;
    }
    return 0;
}
