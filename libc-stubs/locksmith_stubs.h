/* locksmith_stubs.h — the analysis intrinsics, for the libc stub unit (stubs.c) only.
 *
 * locksmith recognises these functions by name and gives them a meaning that plain C cannot express
 * (an untyped copy of a whole object, a fresh heap object, an unknown value, an access through the
 * variadic arguments). They are declared here and never defined: the analysis supplies their effect.
 * An access made by an intrinsic inside a stub is reported at the user's call of that stub. */
#ifndef LOCKSMITH_STUBS_H
#define LOCKSMITH_STUBS_H

/* Reads the object p points to (all of it: an array is one location). */
void __locksmith_read(const void *p);

/* Writes the object p points to. */
void __locksmith_write(void *p);

/* *dst = *src as an untyped copy: reads *src, writes *dst, and whatever pointers *src holds may now
 * also be in *dst (memcpy, strcpy, struct copies through void *). */
void __locksmith_copy(void *dst, const void *src);

/* A fresh heap object, one per calling context (like a malloc site in the caller). */
void *__locksmith_alloc(void);

/* An unknown int: a result the analysis must not assume anything about. */
int __locksmith_nondet(void);

/* Reads through every pointer among the calling stub's variadic arguments (printf's %s). */
void __locksmith_read_varargs(void);

/* Writes through every pointer among the calling stub's variadic arguments (scanf's %d, %s). */
void __locksmith_write_varargs(void);

#endif
