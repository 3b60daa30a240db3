/* locksmith.h — annotations for the locksmith race detector.
 *
 * Every macro here compiles to nothing unless the file is analysed by locksmith, which defines
 * __LOCKSMITH__ while preprocessing. Include it freely in programs built with any C compiler
 * (C11, or gcc/clang in any mode: LOCKSMITH_EXISTENTIAL is a _Static_assert).
 *
 * Existential packages (LOCKSMITH, PLDI 2006, section 3.3): a struct that keeps a lock together
 * with the data it guards, each object's data protected by that object's own lock.
 *
 *   struct node { pthread_mutex_t lock; int count; struct node *next; };
 *   LOCKSMITH_EXISTENTIAL(node, lock, count);   // at file scope, after the struct: its lock,
 *                                               // then the fields that lock guards
 *
 *   struct node *n = malloc(sizeof *n);  // initialise without the lock while unpublished,
 *   n->count = 0;
 *   LOCKSMITH_PACK(n);                   // then pack: the object is complete
 *   publish(n);
 *
 *   LOCKSMITH_UNPACK(p);                 // start an unpack of the object p points to
 *   pthread_mutex_lock(&p->lock);
 *   p->count++;
 *   pthread_mutex_unlock(&p->lock);
 *   LOCKSMITH_END_UNPACK(p);             // and end it (not necessarily in the same block)
 *
 * locksmith infers the unpacks of the common shapes itself (an object's fields used through the
 * pointer its lock was taken through); writing them makes the intent checked: a declared
 * struct's fields accessed by another thread outside an unpack, an unpack of a struct that is
 * not declared, an end without a start, a pointer to a guarded field taken (the data would
 * escape its package) and a pack of an object already published are reported. */
#ifndef LOCKSMITH_H
#define LOCKSMITH_H

#ifdef __LOCKSMITH__
void __locksmith_pack(const volatile void *object);
void __locksmith_unpack(const volatile void *object);
void __locksmith_end_unpack(const volatile void *object);
#define LOCKSMITH_EXISTENTIAL(tag, lock, ...)                                                     \
    _Static_assert(sizeof(((struct tag *)0)->lock) > 0,                                           \
                   "locksmith:existential:" #tag ":" #lock ":" #__VA_ARGS__)
#define LOCKSMITH_PACK(p) __locksmith_pack(p)
#define LOCKSMITH_UNPACK(p) __locksmith_unpack(p)
#define LOCKSMITH_END_UNPACK(p) __locksmith_end_unpack(p)
#else
#define LOCKSMITH_EXISTENTIAL(tag, lock, ...)                                                     \
    _Static_assert(sizeof(((struct tag *)0)->lock) > 0, "locksmith: " #tag " keeps " #lock)
#define LOCKSMITH_PACK(p) ((void)0)
#define LOCKSMITH_UNPACK(p) ((void)0)
#define LOCKSMITH_END_UNPACK(p) ((void)0)
#endif

#endif
