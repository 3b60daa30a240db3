/*
 * selftest.h - built-in, self-contained load test (-T / --selftest).
 *
 * selftest_prepare() creates a temporary document root under /tmp and
 * points the configuration at it (loopback, ephemeral port, small cache,
 * admin requests allowed).  selftest_run() starts a few client threads
 * that fire a deterministic mix of requests at the running server and
 * returns the number of failed checks.  selftest_cleanup() removes the
 * temporary files again.
 */
#ifndef WEBCACHE_SELFTEST_H
#define WEBCACHE_SELFTEST_H

#include "config.h"
#include "stats.h"

int  selftest_prepare(struct config *cfg);
long selftest_run(void);
int  selftest_verdict(long failures, const struct server_stats *st);
void selftest_cleanup(void);

#endif /* WEBCACHE_SELFTEST_H */
