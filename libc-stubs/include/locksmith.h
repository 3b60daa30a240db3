/* locksmith.h — annotations for the locksmith race detector.
 *
 * Every macro here compiles to nothing unless the file is analysed by locksmith, which defines
 * __LOCKSMITH__ while preprocessing. Include it freely in programs built with any C compiler. */
#ifndef LOCKSMITH_H
#define LOCKSMITH_H
#endif
