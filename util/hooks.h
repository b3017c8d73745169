/*
** Process-wide hooks that tests and signals reach the library through:
** crash points that kill the process at a named commit, and the
** SIGINT/SIGTERM/SIGHUP handler that takes the
** exec oracles' process groups down with ladder. libc only.
**
** Crash points (docs/store.md lists them): LADDER_CRASH_AT=<name>:<n>
** makes the n-th pass through the point called name (counted from 1) kill
** the process with SIGKILL, as a power cut would, before that commit is
** made. Unset, a pass costs one branch. The variable is read at the first
** pass; a malformed one is ignored (no point is named by it).
**
** Signals: lad_sig_track registers an oracle's process group; the first
** SIGINT, SIGTERM or SIGHUP kills every registered group. Unless
** lad_sig_graceful was called the handler then dies of the signal at once;
** after it, the handler only records the signal (lad_sig_pending), so that
** the command can mark its run interrupted and close the store before
** lad_sig_reraise ends the process the way the signal would have. A second
** signal always kills at once.
*/
#ifndef LADDER_UTIL_HOOKS_H
#define LADDER_UTIL_HOOKS_H

#include <stddef.h>
#include <sys/types.h>

/* The decimal value of environment variable name: dflt when it is unset or
** empty, bad when it is not a number within lo..hi. */
long lad_env_number(const char *name, long lo, long hi, long dflt, long bad);

/* How long a store waits for another writer's lock, in milliseconds:
** LADDER_BUSY_TIMEOUT_MS (0..3600000) when set, -2 (no limit: concurrent
** writers take turns) when unset or empty, -1 when malformed or out of
** range (the store refuses to open). Tests set it to see "database is
** locked" without waiting. */
int lad_busy_timeout_ms(void);

/* The most pages a store may grow to: LADDER_MAX_PAGES (1..2^31-1) when set,
** 0 (SQLite's own limit) when unset or empty, -1 when malformed or out of
** range (the store refuses to open). Tests set it to see a full
** disk: "database or disk is full" at the first write that needs a page. */
long lad_max_pages(void);

/* Kills the process (SIGKILL) when LADDER_CRASH_AT names this pass. */
void lad_crash_point(const char *name);

/* Registers (on 1) or forgets (on 0) the process group pgid, with the
** temporary stderr file the handler removes when it is empty (may be NULL).
** At most 64 groups at a time; more are not killed by the handler. */
void lad_sig_track(pid_t pgid, const char *errpath, int on);

/* Installs the handler in its recording mode (see above). */
void lad_sig_graceful(void);

/* The signal caught in recording mode, 0 when none. */
int lad_sig_pending(void);

/* Dies of the pending signal (no-op when none). */
void lad_sig_reraise(void);

#endif
