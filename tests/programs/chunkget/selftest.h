/*
 * selftest.h - built-in end-to-end test against a loopback server.
 */
#ifndef CHUNKGET_SELFTEST_H
#define CHUNKGET_SELFTEST_H

/*
 * Phase 1 (resume_output == NULL): download from a local server that
 * drops one range at a fixed offset, expect the download to fail with a
 * consistent state file, then re-execute argv0 for phase 2.
 * Phase 2: resume that download from a healthy server and check the
 * result byte for byte.  Returns the process exit status.
 */
int selftest_run(const char *argv0, const char *resume_output, int verbosity);

#endif /* CHUNKGET_SELFTEST_H */
