/*
** Progress of the slow steps (`run`, `infer`, `fit`, `validate`, `survey`,
** `gemm`): what is being done, how far it got and the time left, on
** stderr. One lad_progress per command, owned by cli/; library layers
** never print: they take a lad_progress_fn and its ctx (or, in libladder,
** a callback of the same shape) and the command passes lad_progress_step
** with its lad_progress.
**
** What is shown depends on where stderr goes (docs/progress.md):
**
**   terminal   one live line, redrawn in place with "\r" at most ten
**              times a second, once the stage is PROGRESS_LIVE_AFTER old,
**              and wiped when the stage ends or a note is printed; as
**              wide as the terminal less one column (COLUMNS when set,
**              else the terminal's width, else 80), and with the whole
**              command's count and time left when it has one
**              (lad_progress_overall: a survey's datapaths);
**   not one    (a log, nohup, CI, a SLURM job's .out) plain lines: the
**              stage's begin line once it is PROGRESS_LOG_AFTER (2 s) old,
**              a line with the counts and the time left at most every
**              PROGRESS_LOG_EVERY (30 s) while it runs, and its end line
**              with the seconds it took, only when the stage lasted 2 s
**              or more. So a stage shorter than 2 s prints nothing, and
**              short commands and the test suite's outputs are unchanged.
**
** LADDER_PROGRESS=1 in the environment makes the plain lines eager: every
** stage's begin and end line at once, whatever its length, and the notes
** (scripts/slurm sets it, so the survey's steps reach the job's output).
** LADDER_PROGRESS=0 shows nothing, as -q does (tests/lib.sh sets it, so
** no check ever depends on how fast the machine is). -q wins over both.
**
** A watcher thread does the timed part (the deferred begin line, the
** periodic lines, the redraws): lad_progress_update only stores counts
** under a mutex, so it may be called from any thread (a worker of
** validation or of lad_gemm) and costs one lock, never a write. Call it
** per piece of work (a batch of cases, a block of rows), not per case.
** Times are host seconds (CLOCK_MONOTONIC) and only ever printed.
*/
#ifndef LADDER_UTIL_PROGRESS_H
#define LADDER_UTIL_PROGRESS_H

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

/* Seconds a stage runs before it shows on a terminal; before its begin
** line in a log; and between two count lines in a log. */
#define PROGRESS_LIVE_AFTER 0.5
#define PROGRESS_LOG_AFTER 2.0
#define PROGRESS_LOG_EVERY 30.0

/*
** How a library layer reports progress: ctx is the caller's (for cli/, a
** lad_progress), step names the part under way ("random", "beam round 3";
** NULL keeps the last), done of total units of it so far (total 0: not
** known). Called from one thread at a time per part; lad_progress_step is
** safe from any thread.
*/
typedef void (*lad_progress_fn)(void *ctx, const char *step, size_t done, size_t total);

enum lad_progress_mode {
    LAD_PROGRESS_OFF,   /* -q, LADDER_PROGRESS=0: nothing */
    LAD_PROGRESS_LIVE,  /* stderr is a terminal: the live line */
    LAD_PROGRESS_LOG    /* otherwise: plain lines */
};

typedef struct lad_progress {
    int mode;               /* enum lad_progress_mode */
    int eager;              /* LADDER_PROGRESS=1: lines at once, and notes */
    FILE *out;              /* stderr */
    double (*clock)(void);  /* seconds; a test may set its own before begin */
    pthread_mutex_t mu;
    pthread_cond_t wake;
    pthread_t watcher;
    int watching;           /* the watcher thread runs */
    int stop;               /* asks it to end */
    int open;               /* a stage is under way */
    char stage[96];         /* its label: "validate run 3: 1000000 cases" */
    char step[48];          /* its part under way; "" none */
    size_t done, total;     /* of the step: units done, of total (0: unknown) */
    double t0;              /* clock() when the stage began */
    double step_t0;         /* ... when the step began (for its rate) */
    double last;            /* ... of the last log line or redraw */
    int begun;              /* log: the begin line is out */
    int shown;              /* live: columns of the line on screen, 0 none */
    int hidden;             /* live: wiped for other output until the next update */
    int fd;                 /* live: the descriptor whose terminal's width is asked */
    char whole[24];         /* lad_progress_overall: "survey"; "" none */
    size_t wdone, wtotal;   /* ... units of the whole done, of total */
    size_t wfrom;           /* ... done at the first call (a resume's) */
    double wt0;             /* ... clock() at the first call */
} lad_progress;

/* Sets p up for stderr: off when quiet or LADDER_PROGRESS=0, live when
** stderr is a terminal, else plain lines (eager with LADDER_PROGRESS=1);
** starts the watcher thread unless off. Pair with lad_progress_free. */
void lad_progress_init(lad_progress *p, int quiet);

/* The same with the mode, the stream and the clock given (for tests:
** no watcher thread; lad_progress_poll does its work). */
void lad_progress_init_with(lad_progress *p, int mode, int eager, FILE *out,
                            double (*clock)(void));

/* Ends any stage (as done), stops the watcher thread. */
void lad_progress_free(lad_progress *p);

/* Begins a stage labelled printf(fmt, ...), ending one under way (as done).
** Eager: its begin line now; otherwise shown later, if it lasts. */
void lad_progress_begin(lad_progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Counts of the stage under way: see lad_progress_fn. A new step name, or
** done going back, starts the step's rate afresh. Prints nothing. */
void lad_progress_update(lad_progress *p, const char *step, size_t done, size_t total);

/* lad_progress_update as a lad_progress_fn (ctx is the lad_progress);
** with no stage under way it begins one labelled step. */
void lad_progress_step(void *ctx, const char *step, size_t done, size_t total);

/* Ends the stage under way: wipes the live line; in a log its end line,
** "<stage>: done in 12.3 s" (rc 0) or "<stage>: stopped after 12.3 s",
** when its begin line was printed or it lasted 2 s or more (eager: always).
** Nothing when no stage is under way. */
void lad_progress_end(lad_progress *p, int rc);

/* The whole command's count, across its stages: done of total units
** (a survey's datapaths) of what ("survey"). The live line ends with
** "; survey 3/10, about 95 s left", the time from the pace of the units
** done since the first call (so a resume's finished ones do not count);
** the log lines do not change. */
void lad_progress_overall(lad_progress *p, const char *what, size_t done, size_t total);

/* A line of its own (a survey's step): printed on a terminal and when
** eager, never in a plain log; the live line is wiped first. */
void lad_progress_note(lad_progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Wipes the live line before the caller writes to stdout (which may be
** the same terminal); it comes back at the next update. */
void lad_progress_hide(lad_progress *p);

/* The watcher's work, once: the deferred begin line, a count line, a
** redraw, each when due. Tests call it with their clock. */
void lad_progress_poll(lad_progress *p);

#endif
