/*
** The evidence store: one SQLite file (ladder.db by default) that keeps every
** run, every raw word a device answered, what each rung of the ladder
** observed, the parameters inferred from those words and the validations of
** models. The schema is db/schema.sql (docs/store.md explains it); anything
** written here can be read back with plain SQL (docs/queries/).
**
** Workload: one writer at a time (the command running), a few thousand to
** ~10,000 probe cases per run written in batches, a few hundred observation
** and inference rows, and per validation a count plus its mismatches (never
** one row per validated case). Readers (history, show, report) are small.
**
** Crash safety: WAL, synchronous=NORMAL, foreign keys on. A run row is
** committed as 'running' (with this host and pid) before any case is written;
** cases are committed in transactions of at most LAD_STORE_BATCH rows. A
** process killed at any point therefore leaves a consistent database whose
** run says 'running'; the next lad_store_open on the same host sees that the
** pid is gone and marks the run 'interrupted'.
**
** Words: A and B words are stored per case as JSON arrays of integers (first
** k lanes, logical K order), C and D as INTEGER columns; the view case_words
** shows one row per (case, operand, lane). Nothing goes through a double.
**
** Every function returns a LAD_* code and fills err on failure: SQLite errors
** are LAD_EINTERNAL with SQLite's message; a file that is not a ladder
** database is LAD_EDATA; an unknown run is LAD_EDATA.
**
** Plain data only: the store knows words, strings and integers, not probes,
** devices or models, so that it can be read by anything (a report, a
** script) without the model behind it. Callers convert their lad_case to
** lad_case_data (probes/case.h). Errors are util/err.h's lad_err and
** LAD_* codes: that header includes nothing and needs only libc, so using
** it does not tie db/ to the model.
*/
#ifndef LADDER_DB_STORE_H
#define LADDER_DB_STORE_H

#include <stddef.h>
#include <stdint.h>
#include "../util/err.h"

#define LAD_STORE_APP_ID 0x4c414452 /* PRAGMA application_id: "LADR" */
#define LAD_STORE_VERSION 7         /* PRAGMA user_version of the schema */
#define LAD_STORE_BATCH 4096        /* cases per transaction */
#define LAD_STORE_DEFAULT "ladder.db"

/* The most words a case has; probes/case.c checks that they equal the
** model's LAD_KMAX, LAD_SCALEMAX and LAD_METAMAX. */
#define LAD_STORE_KMAX 128    /* A and B words (lanes) */
#define LAD_STORE_SCALEMAX 8  /* scale bytes of A and of B */
#define LAD_STORE_METAMAX 4   /* sparsity metadata words */

typedef struct lad_store lad_store;

/* The words of one case: lanes past k, scales past nscale and metadata
** past nmeta are not stored (and read back as 0). */
typedef struct lad_case_data {
    uint64_t a[LAD_STORE_KMAX];       /* A row, logical K order */
    uint64_t b[LAD_STORE_KMAX];       /* B column, logical K order */
    uint64_t c;                       /* addend */
    uint8_t sa[LAD_STORE_SCALEMAX];   /* scale byte of A per K block */
    uint8_t sb[LAD_STORE_SCALEMAX];   /* scale byte of B per K block */
    uint32_t meta[LAD_STORE_METAMAX]; /* sparsity metadata words */
} lad_case_data;

/* lad_store_open flags. */
enum lad_store_flags {
    LAD_STORE_CREATE = 1,  /* create the file (and the schema) when missing */
    LAD_STORE_READONLY = 2 /* readers: open read-only (no interrupted-marking
                              is written, but history still shows such runs
                              as 'interrupted': see lad_run_row.status) */
};

/* Run status, stored as text. */
enum lad_run_status {
    LAD_RUN_RUNNING = 0,    /* "running": begun, not ended */
    LAD_RUN_OK = 1,         /* "ok": ended normally */
    LAD_RUN_FAILED = 2,     /* "failed": ended with an error */
    LAD_RUN_INTERRUPTED = 3 /* "interrupted": the process died before ending */
};

/* "running", "ok", "failed", "interrupted"; "?" past the end. */
const char *lad_run_status_name(int status);

/*
** Opens (with LAD_STORE_CREATE: creates) the store at path, applies pending
** schema migrations, and marks 'interrupted' every 'running' run of this host
** whose process is gone. Returns LAD_OK and *out; LAD_EDATA when the file is
** missing (without CREATE), is not a ladder database ("'x.db' is not a ladder
** database") or is newer than this build; LAD_EINTERNAL for SQLite errors.
*/
int lad_store_open(const char *path, int flags, lad_store **out, lad_err *err);

/* Closes the store (checkpointing the WAL); NULL is allowed. */
void lad_store_close(lad_store *st);

/* Number of runs lad_store_open marked interrupted. */
int lad_store_marked(const lad_store *st);

/* The path given to lad_store_open. */
const char *lad_store_path(const lad_store *st);

/* ---- writing a run ----------------------------------------------------- */

/* The device a run ran on. NULL strings are stored as "". */
typedef struct lad_run_device {
    const char *kind;               /* "sim", "exec", "cuda" */
    const char *name;               /* GPU name, model name or command line */
    const char *uuid;               /* GPU UUID, "" elsewhere */
    int cc;                         /* compute capability * 10, 0 elsewhere */
    const char *driver, *toolkit;
    const char *sass;               /* tensor opcode executed, "" unknown */
    /* Stored with the run (not the device): what opens this device again. */
    const char *spec;               /* the device spec as given: "sim:m.yaml" */
    const char *model_file;         /* sim: the model file's absolute path,
                                       "" for a preset */
    const char *model_sha256;       /* sha256 of that file's text, or "" */
} lad_run_device;

/* The instruction a run probed. NULL strings are stored as "". */
typedef struct lad_run_datapath {
    const char *name;               /* datapath (preset) name */
    const char *arch, *instr, *kind, *shape;
    const char *sass;               /* the datapath's expected opcode */
    const char *fmt_a, *fmt_b, *fmt_c, *fmt_d; /* format names */
} lad_run_datapath;

/* What a run records when it begins. Every pointer may be NULL. */
typedef struct lad_run_info {
    const char *command;            /* "run", "check", ...: the subcommand */
    int argc;                       /* the command line (stored as a JSON */
    char *const *argv;              /*   array of strings); argc 0: none */
    const lad_run_device *device;   /* NULL: no device row */
    const lad_run_datapath *dp;     /* NULL: every datapath column "" */
    const char *version;            /* ladder version (LADDER_VERSION) */
    const char *commit;             /* NULL: this build's LADDER_GIT_COMMIT */
    int dirty;                      /* 0 or 1; -1: this build's LADDER_GIT_DIRTY */
    const char *recipe_path;        /* file the recipe came from */
    const char *recipe_text;        /* its full text; its sha256 is computed
                                       here. NULL: no recipe */
    size_t recipe_len;              /* bytes of recipe_text */
} lad_run_info;

/* Inserts the run as 'running' with the time, host and pid, in its own
** committed transaction. Returns LAD_OK and the run id in *run. */
int lad_store_begin_run(lad_store *st, const lad_run_info *info,
                        int64_t *run, lad_err *err);

/* Records the executed SASS opcode when it is learned after begin_run. */
int lad_store_set_sass(lad_store *st, int64_t run, const char *sass,
                       lad_err *err);

/* Ends a run: status LAD_RUN_OK or LAD_RUN_FAILED (message: the error, may
** be NULL), with the end time. */
int lad_store_end_run(lad_store *st, int64_t run, int status,
                      const char *message, lad_err *err);

/*
** What a stored case is for: its label for people and the structured
** evidence that programs select cases by (docs/store.md). Strings are
** copied; NULL label is stored as "", NULL series and target as NULL.
*/
typedef struct lad_case_tag {
    const char *label;       /* human text: "floor S=3 d=2 neg" */
    const char *series;      /* the family of cases within the rung:
                                "a-code", "floor", "j" */
    const char *target;      /* model-file keys the series is designed to
                                decide, space-separated: "window align_round" */
    int has_vary;            /* 0: vary is stored as NULL */
    int64_t vary;            /* the value the series varies in this case */
} lad_case_tag;

/*
** Stores n answered cases of one rung: for case i the first k words of A and
** B (k <= LAD_STORE_KMAX), C, the D word d[i], the first nscale scales of A
** and B and the first nmeta metadata words (0 for unscaled, dense kinds),
** and tags[i] (tags may be NULL: every case untagged). Written in
** transactions of at most LAD_STORE_BATCH cases with one prepared
** statement; when ids is not NULL, ids[i] receives the id of case i (ids
** are increasing). On failure the cases of the failing batch are not
** stored; earlier batches are.
*/
int lad_store_add_cases(lad_store *st, int64_t run, const char *rung,
                        const lad_case_data *cs, const uint64_t *d,
                        const lad_case_tag *tags, size_t n, int k,
                        int nscale, int nmeta, int64_t *ids, lad_err *err);

/* Records what a rung observed: key = value (text, e.g. "last_j" = "23"),
** with the ids of the cases that show it (may be none). */
int lad_store_observe(lad_store *st, int64_t run, const char *rung,
                      const char *key, const char *value,
                      const int64_t *case_ids, size_t ncases, lad_err *err);

/* ---- inference ---------------------------------------------------------- */

/* Records an inferred parameter of a run's datapath (parameter "window",
** value "25", method: how it was decided) with the ids of the cases that
** decided it. *id (may be NULL) receives the row id. */
int lad_store_add_inference(lad_store *st, int64_t run,
                            const char *parameter, const char *value,
                            const char *method, const int64_t *case_ids,
                            size_t ncases, int64_t *id, lad_err *err);

/* Deletes a run's inferences (before inferring again). */
int lad_store_clear_inferences(lad_store *st, int64_t run, lad_err *err);

/* ---- validation --------------------------------------------------------- */

/* Begins a validation of model `model` (preset name or file) within run
** `run` (usually the validating command's own run), as 'running' with this
** host and pid: `planned` cases are drawn by `generator` from `seed`;
** mismatches carry k words of A and B, nscale scales, nmeta metadata words.
** *vid receives its id. */
int lad_store_begin_validation(lad_store *st, int64_t run, const char *model,
                               const char *generator, uint64_t seed,
                               uint64_t planned, int k, int nscale, int nmeta,
                               int64_t *vid, lad_err *err);

/* Stores n mismatches: case cs[i] (its index in the validation's case
** stream is index[i]; index may be NULL), the model's word expected[i] and
** the device's got[i]. One transaction per LAD_STORE_BATCH rows. */
int lad_store_add_mismatches(lad_store *st, int64_t vid,
                             const lad_case_data *cs,
                             const uint64_t *expected, const uint64_t *got,
                             const uint64_t *index, size_t n, lad_err *err);

/* One chunk of a validation, in one transaction (commit point
** validation-chunk): its n mismatches as lad_store_add_mismatches stores
** them, and the counts of every case compared so far (cases) and of the
** mismatches among them. A resumed validation goes on at case `cases`. */
int lad_store_validation_chunk(lad_store *st, int64_t vid,
                               const lad_case_data *cs,
                               const uint64_t *expected, const uint64_t *got,
                               const uint64_t *index, size_t n, uint64_t cases,
                               uint64_t mismatches, lad_err *err);

/* Ends a validation as 'ok' with its counts (mismatches counts every one
** found, even when fewer were stored), in one transaction (commit point
** end-validation). join > 0: the run whose device the validation ran on;
** its first LAD_STORE_JOIN_MAX stored mismatches, in case-stream order,
** also become cases of that run, rung "validation", series "mismatch",
** label "validation <vid> case <index>", with the device's word as D and no
** target: evidence `ladder infer` checks its model on (docs/inference.md).
** A case the rung holds already is not added again. *joined (may be NULL)
** receives the cases added. */
#define LAD_STORE_JOIN_MAX 256
int lad_store_end_validation(lad_store *st, int64_t vid, uint64_t cases,
                             uint64_t mismatches, int64_t join, uint64_t *joined,
                             lad_err *err);

/* Ends a validation as LAD_RUN_FAILED or LAD_RUN_INTERRUPTED with a
** message; the counts of its last chunk stay. */
int lad_store_stop_validation(lad_store *st, int64_t vid, int status,
                              const char *message, lad_err *err);

/* Reopens a failed or interrupted run, or validation, to go on with it
** (`run --resume`, `validate --resume`): 'running' again, owned by this
** process, its end and message cleared, its counts kept. Commit points
** "resume-run" and "resume-validation". LAD_EDATA when it is not failed or
** interrupted (an open store has marked dead processes' rows already). */
int lad_store_resume_run(lad_store *st, int64_t run, lad_err *err);
int lad_store_resume_validation(lad_store *st, int64_t vid, lad_err *err);

/* ---- steps -------------------------------------------------------------- */

/*
** A step: every write between lad_store_step_begin and lad_store_step_end
** is one transaction, committed at the end under the commit point `point`
** (a static string; docs/store.md lists them), so that a process killed in
** the middle leaves the store as it was before the step. The write lock is
** held the whole step: other writers wait (up to the busy timeout). A write
** that fails within the step rolls the whole step back and ends it.
** A step begun inside another is a savepoint of it: its end releases it
** (ok) or rolls back only its own writes, and the outer step commits
** everything under the outer point.
*/
int lad_store_step_begin(lad_store *st, const char *point, lad_err *err);

/* Commits the step (ok != 0) or rolls it back (ok == 0). */
int lad_store_step_end(lad_store *st, int ok, lad_err *err);

/* ---- reading ------------------------------------------------------------ */

/* Resolves a RUN argument: a decimal id, or "latest" (the newest run),
** either one also written after "run:" ("run:3", "run:latest").
** Returns LAD_EUSAGE for anything else ("; did you mean 'latest'?" when it
** is a slip from that), and LAD_EUSAGE too when there is no such run (or no
** run at all): the name the user gave names nothing (docs/exit-codes.md). */
int lad_store_resolve_run(lad_store *st, const char *spec, int64_t *run,
                          lad_err *err);

/* Whether spec is written as a RUN argument (what lad_store_resolve_run
** takes), so that a command taking a run or a model can tell them apart. */
int lad_store_is_run_spec(const char *spec);

/* One run as history and show print it. Strings are "" when unknown. */
typedef struct lad_run_row {
    int64_t id;
    int status;             /* enum lad_run_status (a 'running' run whose
                               process is gone reads as interrupted) */
    int64_t started;        /* unix seconds */
    int64_t ended;          /* unix seconds; 0 while running/interrupted */
    char command[32];       /* subcommand */
    char argv[2048];        /* command line, a JSON array of strings; a
                               longer one keeps the arguments that fit and
                               ends with "..." */
    char host[128];
    int64_t pid;
    char message[512];      /* error of a failed run */
    char device[128];       /* device name */
    char device_kind[16];   /* "sim", "exec", "cuda", "cublaslt" */
    char uuid[64];
    int cc;                 /* compute capability * 10; 0 unknown */
    char driver[32];
    char toolkit[32];
    char version[32];       /* ladder version */
    char commit[48];
    int dirty;
    char recipe[256];       /* recipe path */
    char recipe_sha256[65];
    char datapath[64];
    char arch[16];
    char instr[24];
    char kind[16];
    char shape[16];
    char sass[64];          /* executed opcode */
    char sass_expected[40]; /* the datapath's opcode */
    char fmt_a[24], fmt_b[24], fmt_c[24], fmt_d[24];
    char device_spec[600];  /* the device spec as given; "" before schema 4 */
    char model_file[512];   /* sim: the model file's absolute path, or "" */
    char model_sha256[65];  /* sha256 of its text when the run began, or "" */
    int64_t ncases;         /* cases stored */
    int64_t nval;           /* validations stored with the run (finished) */
    int64_t val_cases;      /* their cases and mismatches, summed */
    int64_t val_mismatches;
    char vals[64];          /* each one's "<mismatches>/<cases>", in id
                               order, ' ' between ("0/2000 0/2000"); cut */
} lad_run_row;

/* Filters of `ladder history`; NULL or 0 fields do not filter. */
typedef struct lad_history_filter {
    const char *gpu;         /* substring of the device name, any case */
    const char *format;      /* a format name of A, B, C or D */
    const char *instruction; /* instr ("mma.sync"), kind, SASS opcode or
                                datapath name, exactly */
    const char *arch;        /* arch, any case; "sm_90" also matches "sm_90a" */
    int status;              /* enum lad_run_status + 1 (as shown: a dead
                                'running' run is interrupted); 0: any */
    int64_t since, until;    /* started in [since, until) (unix seconds);
                                0: unbounded */
    int limit;               /* newest `limit` runs; 0: all */
} lad_history_filter;

/* Runs matching f (NULL: all), newest first, in *rows (malloc'd, free()
** them; NULL when *n is 0). */
int lad_store_history(lad_store *st, const lad_history_filter *f,
                      lad_run_row **rows, size_t *n, lad_err *err);

/* One run. LAD_EDATA when there is none with that id. */
int lad_store_run(lad_store *st, int64_t run, lad_run_row *row, lad_err *err);

typedef struct lad_rung_row {
    char name[64];
    int64_t ncases;          /* cases stored for the rung */
    int64_t first_case;      /* lowest and highest case id; 0 when none */
    int64_t last_case;
} lad_rung_row;

typedef struct lad_obs_row {
    int64_t id;
    char rung[64];
    char *key;               /* malloc'd */
    char *value;             /* malloc'd */
    int64_t *cases;          /* malloc'd ids of the cases that show it */
    size_t ncases;
} lad_obs_row;

typedef struct lad_inference_row {
    int64_t id;
    char *parameter, *value, *method; /* malloc'd */
    int64_t *cases;          /* malloc'd ids of the deciding cases */
    size_t ncases;
} lad_inference_row;

typedef struct lad_validation_row {
    int64_t id;
    char *model, *generator; /* malloc'd */
    uint64_t seed;
    int64_t cases;           /* compared so far; -1 unknown (unfinished
                                before schema 5) */
    int64_t mismatches;      /* counted among them; -1 unknown */
    int64_t stored;          /* mismatch rows stored */
    int status;              /* enum lad_run_status, as a run's reads */
    int64_t planned;         /* cases asked for; -1 unknown */
    char *message;           /* malloc'd: why it failed or stopped, "" */
    int64_t shard_index, shard_count; /* the shard it ran: 0 of 1 unsharded */
    int64_t stream_cases;    /* cases of the whole stream a shard is part
                                of; -1 unsharded (or before schema 6) */
} lad_validation_row;

/* Everything `ladder show` prints about a run. */
typedef struct lad_show {
    lad_run_row run;
    lad_rung_row *rungs;     /* in the order the run first wrote them */
    size_t nrungs;
    lad_obs_row *obs;        /* in the order they were written */
    size_t nobs;
    lad_inference_row *inf;
    size_t ninf;
    lad_validation_row *val;
    size_t nval;
} lad_show;

/* Fills *out for run; free it with lad_show_free. */
int lad_store_show(lad_store *st, int64_t run, lad_show *out, lad_err *err);
void lad_show_free(lad_show *s);

/* One stored case, read back. */
typedef struct lad_case_row {
    int64_t id;
    char rung[64];
    char label[64];
    char series[32];         /* "" when NULL (a run stored before schema 2
                                whose label told nothing) */
    char target[96];         /* "" when NULL */
    int has_vary;            /* 0: vary was NULL */
    int64_t vary;
    int k, nscale, nmeta;    /* words stored; other lanes of cs are 0 */
    lad_case_data cs;
    uint64_t d;
} lad_case_row;

/* Cases of a run (of one rung when rung is not NULL), in id order, in
** *rows (malloc'd, free()). */
int lad_store_cases(lad_store *st, int64_t run, const char *rung,
                    lad_case_row **rows, size_t *n, lad_err *err);

/* The device spec run's command line named: its last --device, read as
** cli/cli.c reads options ("--device X" or "--device=X", none after
** "--"), into dev (truncated to size); "" when none. For runs stored before
** their device_spec was (schema 4): the name in the devices table is a GPU's
** or a model's, not a spec that opens the device again. */
int lad_store_run_device_arg(lad_store *st, int64_t run, char *dev, size_t size,
                             lad_err *err);

/* The same for any option --name of run's command line ("" when none). */
int lad_store_run_arg(lad_store *st, int64_t run, const char *name, char *val,
                      size_t size, lad_err *err);

/* Validation vid, as lad_store_show reads it, and the run it belongs to.
** LAD_EDATA when there is none. Free it with lad_validation_row_free. */
/* The newest validation's id (the largest). Returns LAD_OK, or LAD_EDATA
** ("no validation in 'x.db'") when the store holds none. */
int lad_store_latest_validation(lad_store *st, int64_t *vid, lad_err *err);

int lad_store_validation(lad_store *st, int64_t vid, lad_validation_row *row,
                         int64_t *run, lad_err *err);
void lad_validation_row_free(lad_validation_row *v);

/* The recipe a run was climbed from: its text (malloc'd, free() it; not
** NUL-free, *len bytes plus a NUL) and the path it was read from (into
** path, truncated to size). LAD_EDATA when there is no such run or it
** stored no recipe. */
int lad_store_recipe(lad_store *st, int64_t run, char **text, size_t *len,
                     char *path, size_t size, lad_err *err);

/* ---- surveys ------------------------------------------------------------ */

/* A survey (`ladder survey`): what it covers and the device's identity.
** Strings are copied; NULL is stored as "". */
typedef struct lad_survey_info {
    const char *device;      /* the --device given: "cuda:0", "sim:sm_90a" */
    const char *arch;        /* the generation: "sm_90a" */
    const char *only;        /* the --only pattern, "" or NULL for all */
    uint64_t cases;          /* random cases per validation */
    const char *gpu, *uuid;  /* the GPU's name and UUID, "" simulated */
    int cc;                  /* compute capability * 10, 0 simulated */
    const char *driver, *toolkit;
    int sms;                 /* multiprocessors, 0 unknown */
    int clock_khz, mem_clock_khz; /* 0 unknown */
    int planned;             /* datapaths it is to survey */
} lad_survey_info;

/* A survey as the store holds it (lad_store_surveys). */
typedef struct lad_survey_row {
    int64_t id;
    int status;              /* LAD_RUN_*: 'running' whose process on this
                                host is gone reads LAD_RUN_INTERRUPTED */
    int64_t started, ended;  /* unix seconds; ended 0 while not ended */
    char device[128], arch[32], only[128], gpu[128];
    int64_t cases;           /* random cases per validation */
    int planned;             /* datapaths planned (0: not recorded) */
    int done;                /* datapaths recorded */
    int good;                /* of those, as their preset (= or ≡) with no
                                mismatch */
    int shard_index, shard_count;
} lad_survey_row;

/* What one datapath of a survey gave. */
typedef struct lad_survey_dp {
    char datapath[64];       /* preset name */
    int done;                /* 1 finished (whatever it found), 0 failed */
    int64_t run;             /* the ladder's run; 0 when none began */
    int64_t probes;          /* targeted cases the ladder ran */
    char differ[256];        /* the inferred model against the preset
                                (cli_survey_verdict, cli/surveyview.h): "" =; "≡ KEYS" the
                                rows differ as given, no case separates
                                them; "KEYS" differs; "-" not inferred */
    int64_t inf_cases, inf_bad;   /* validation of the inferred model; */
    int64_t pre_cases, pre_bad;   /*   of the preset (-1: not run) */
    int64_t vec_files, vec_cases, vec_bad; /* captured vectors replayed */
    int64_t millis;          /* wall time */
    char message[256];       /* what failed, "" */
} lad_survey_dp;

/* Every survey of the store, oldest first, into *rows (malloc'd, free();
** NULL when *n is 0); id > 0: that survey only (LAD_EDATA when there is
** none). */
int lad_store_surveys(lad_store *st, int64_t id, lad_survey_row **rows, size_t *n,
                      lad_err *err);

/* Inserts a survey as 'running', with this process as its own; *id
** receives its id. */
int lad_store_begin_survey(lad_store *st, const lad_survey_info *s, int64_t *id,
                           lad_err *err);

/* The newest survey of the same device, arch, only and cases. Returns
** LAD_OK with *id, or LAD_NO when there is none. */
int lad_store_find_survey(lad_store *st, const lad_survey_info *s, int64_t *id,
                          lad_err *err);

/* Marks a found survey 'running' again, in this process (a resumed
** survey). */
int lad_store_resume_survey(lad_store *st, int64_t id, lad_err *err);

/* Records (or replaces) what one datapath of survey id gave. */
int lad_store_survey_put(lad_store *st, int64_t id, const lad_survey_dp *d,
                         lad_err *err);

/* The datapaths recorded for survey id, in the order written, in *rows
** (malloc'd, free(); NULL when *n is 0). */
int lad_store_survey_get(lad_store *st, int64_t id, lad_survey_dp **rows,
                         size_t *n, lad_err *err);

/* Ends survey id: ok (1) or failed (0), with the table as JSON (may be
** NULL). */
int lad_store_end_survey(lad_store *st, int64_t id, int ok, const char *json,
                         lad_err *err);

/* ---- shards and merging (db/store_merge.c) ------------------------------ */

/* Records that validation vid is shard `index` of `count` of a stream of
** stream_cases cases (validate --shard). */
int lad_store_set_validation_shard(lad_store *st, int64_t vid, uint64_t index,
                                   uint64_t count, uint64_t stream_cases,
                                   lad_err *err);

/* Records that survey id covers shard `index` of `count` (survey --shard);
** lad_store_survey_shard reads it back (0 of 1 for an unsharded one). */
int lad_store_set_survey_shard(lad_store *st, int64_t id, uint64_t index,
                               uint64_t count, lad_err *err);
int lad_store_survey_shard(lad_store *st, int64_t id, uint64_t *index,
                           uint64_t *count, lad_err *err);

/* What one merged validation or survey is. */
typedef struct lad_merge_group {
    int survey;              /* 0: a validation, 1: a survey */
    int64_t id;              /* the merged row's id in the output */
    int parts;               /* shards merged */
    int count;               /* N of their I/N */
    int64_t cases;           /* validation: cases; survey: datapaths */
    int64_t bad;             /* mismatches; survey: datapaths not ok */
    int64_t stream;          /* validation: cases of the whole stream */
    char what[160];          /* the model, or the survey's device and arch */
} lad_merge_group;

typedef struct lad_merge_result {
    lad_merge_group *groups; /* malloc'd, free() it */
    size_t ngroups;
    int64_t runs;            /* runs copied (a run in several files once) */
    char *skipped;           /* with partial: one line per file left out
                                (its shard unfinished); malloc'd, free() it;
                                NULL when the merge failed */
} lad_merge_result;

/*
** Copies into st (a new store) every run of the shard stores files[0..n-1]
** with what belongs to it (devices, builds, recipes, rungs, cases,
** observations, inferences, unsharded validations and surveys), a run
** found in several files once, and merges their sharded validations and
** surveys: the j-th sharded validation (survey) of every file are shards of
** one, which becomes one validation (survey) of run merge_run with the
** summed counts and every part's mismatches (datapaths), each part
** recorded in merge_parts. Refused with LAD_EDATA, naming the files: parts
** of different models, generators, seeds, recipes, shapes, case counts or
** shard counts; an unfinished part (with `partial` its file is left out
** whole instead, and named in res->skipped); a shard given twice; a
** missing shard unless `partial`. All of it is one transaction per file after the
** checks; the caller writes a new file and keeps it only on LAD_OK.
*/
int lad_store_merge(lad_store *st, int64_t merge_run, char *const *files,
                    size_t n, int partial, lad_merge_result *res, lad_err *err);

/* ---- the schema --------------------------------------------------------- */

/* db/schema.sql, compiled in (db/schema.c); a unit test keeps them equal. */
extern const char lad_schema_sql[];

#endif
