/*
** Sharded validations and surveys, and `ladder merge`, which combines the
** stores of the shards into one. See store.h.
**
** A cluster runs shard I of N of a validation (cases [I*S/N, (I+1)*S/N) of
** a stream of S) or of a survey (the datapaths i with i % N = I) on each of
** its machines, each into its own store file. Merging copies every run of
** those files with what belongs to it and makes of each sharded validation
** or survey one row whose counts are those of the unsharded run: the same
** cases were drawn, by index, wherever they ran.
**
** Workload: a few to a few hundred files, each with one or two sharded
** rows, a few runs and up to a few million mismatch or case rows; each file
** is ATTACHed in turn (SQLite attaches at most ten at once) and copied with
** INSERT ... SELECT, ids shifted past those already in the output.
*/
#include "store_int.h"
#include "../util/buf.h"
#include "../util/shard.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int set_shard(lad_store *st, const char *sql, int64_t id, uint64_t index,
                     uint64_t count, uint64_t stream, lad_err *err)
{
    int code = st_writable(st, err);
    sqlite3_stmt *q = NULL;
    if (code == LAD_OK)
        code = st_prepare(st, sql, &q, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(q, 1, id);
        sqlite3_bind_int64(q, 2, (sqlite3_int64)index);
        sqlite3_bind_int64(q, 3, (sqlite3_int64)count);
        sqlite3_bind_int64(q, 4, (sqlite3_int64)stream);
        code = st_step_done(st, q, "write", err);
    }
    if (code == LAD_OK && sqlite3_changes(st->db) != 1)
        code = lad_errf(err, LAD_EDATA, "no row %lld to mark as a shard in '%s'",
                        (long long)id, st->path);
    sqlite3_finalize(q);
    return code;
}

int lad_store_set_validation_shard(lad_store *st, int64_t vid, uint64_t index,
                                   uint64_t count, uint64_t stream_cases,
                                   lad_err *err)
{
    return set_shard(st, "UPDATE validations SET shard_index = ?2, shard_count = ?3, "
                         "stream_cases = ?4 WHERE id = ?1",
                     vid, index, count, stream_cases, err);
}

int lad_store_set_survey_shard(lad_store *st, int64_t id, uint64_t index,
                               uint64_t count, lad_err *err)
{
    return set_shard(st, "UPDATE surveys SET shard_index = ?2, shard_count = ?3 "
                         "WHERE id = ?1",
                     id, index, count, 0, err);
}

int lad_store_survey_shard(lad_store *st, int64_t id, uint64_t *index,
                           uint64_t *count, lad_err *err)
{
    sqlite3_stmt *q = NULL;
    int code = st_prepare(st, "SELECT shard_index, shard_count FROM surveys WHERE id = ?1",
                          &q, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(q, 1, id);
        int rc = sqlite3_step(q);
        if (rc == SQLITE_ROW) {
            *index = (uint64_t)sqlite3_column_int64(q, 0);
            *count = (uint64_t)sqlite3_column_int64(q, 1);
        } else {
            code = rc == SQLITE_DONE ? lad_errf(err, LAD_EDATA, "no survey %lld in '%s'",
                                                (long long)id, st->path)
                                     : st_sqlerr(st, err, "read");
        }
    }
    sqlite3_finalize(q);
    return code;
}

/* ---- merging ----------------------------------------------------------------- */

/* One sharded validation or survey of one file, as read before copying. */
typedef struct part {
    size_t file;             /* index into files */
    int64_t id, run;         /* its id and its run's (validations) there */
    int64_t index, count;    /* shard index of count */
    int64_t stream;          /* validation: S; survey: cases per validation */
    int64_t cases, bad;      /* -1 cases: unfinished */
    int64_t started, ended;
    int64_t seed;
    int k, nscale, nmeta;
    char model[300];         /* survey: device */
    char gen[64];            /* survey: arch */
    char recipe[300];        /* sha256 of the run's recipe; survey: --only */
} part;

/* The sharded rows of the attached file "s", validations then surveys. A
** survey datapath is ok as `ladder survey` counts it. */
static const char parts_sql[] =
    "SELECT 0, v.id, v.run_id, v.shard_index, v.shard_count, "
    "  coalesce(v.stream_cases, v.cases, -1), coalesce(v.cases, -1), "
    "  coalesce(v.mismatches, -1), v.started, coalesce(v.ended, 0), v.seed, v.k, "
    "  v.nscale, v.nmeta, v.model, v.generator, coalesce(c.sha256, '') "
    "FROM s.validations v JOIN s.runs r ON r.id = v.run_id "
    "  LEFT JOIN s.recipes c ON c.id = r.recipe_id WHERE v.shard_count > 1 "
    "UNION ALL "
    "SELECT 1, x.id, 0, x.shard_index, x.shard_count, x.cases, "
    "  CASE x.status WHEN 'running' THEN -1 ELSE "
    "    (SELECT count(*) FROM s.survey_datapaths d WHERE d.survey_id = x.id) END, "
    "  (SELECT count(*) FROM s.survey_datapaths d WHERE d.survey_id = x.id AND NOT "
    "    (d.status = 'done' AND d.differ = '' AND d.inferred_mismatches = 0 AND "
    "     d.preset_mismatches = 0 AND d.inferred_cases > 0 AND d.preset_cases > 0)), "
    "  x.started, coalesce(x.ended, 0), 0, 0, 0, 0, x.device, x.arch, x.only "
    "FROM s.surveys x WHERE x.shard_count > 1 "
    "ORDER BY 1, 2";

static int attach(lad_store *st, const char *file, lad_err *err)
{
    sqlite3_stmt *q = NULL;
    int code = st_prepare(st, "ATTACH ?1 AS s", &q, err);
    if (code == LAD_OK) {
        sqlite3_bind_text(q, 1, file, -1, SQLITE_STATIC);
        if (sqlite3_step(q) != SQLITE_DONE)
            code = lad_errf(err, LAD_EDATA, "cannot read '%s': %s", file,
                            sqlite3_errmsg(st->db));
    }
    sqlite3_finalize(q);
    return code;
}

static void detach(lad_store *st)
{
    sqlite3_exec(st->db, "DETACH s", NULL, NULL, NULL);
}

/* Refuses the attached file "s" when a validation of it counts its
** mismatches unlike what it stores: below 0, above its cases, or not as
** many as its rows in mismatches (validate commits the count and the rows
** together). Its counts are summed and copied as they are, so they must
** hold: a count of 2^63-1 summed over shards would overflow. */
static int check_counts(lad_store *st, const char *file, lad_err *err)
{
    sqlite3_stmt *q = NULL;
    int code = st_prepare(st,
        "SELECT id, cases, coalesce(mismatches, -1), n FROM (SELECT v.id, v.cases, "
        "  v.mismatches, (SELECT count(*) FROM s.mismatches m WHERE m.validation_id = v.id) "
        "  AS n FROM s.validations v WHERE v.cases IS NOT NULL) "
        "WHERE coalesce(mismatches, -1) NOT BETWEEN 0 AND cases OR mismatches != n "
        "ORDER BY id LIMIT 1", &q, err);
    if (code != LAD_OK)
        return code;
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        code = lad_errf(err, LAD_EDATA, "'%s': validation %lld counts %lld mismatches in %lld "
                        "cases and stores %lld: the file is damaged", file,
                        (long long)sqlite3_column_int64(q, 0),
                        (long long)sqlite3_column_int64(q, 2),
                        (long long)sqlite3_column_int64(q, 1),
                        (long long)sqlite3_column_int64(q, 3));
    else if (rc != SQLITE_DONE)
        code = st_sqlerr(st, err, "read the validations of");
    sqlite3_finalize(q);
    return code;
}

/* Appends the sharded rows of files[f] (attached as s) to *ps. *nv and *ns
** receive how many are validations and surveys. */
static int read_parts(lad_store *st, size_t f, part **ps, size_t *np, int *nv, int *ns,
                      lad_err *err)
{
    sqlite3_stmt *q = NULL;
    int code = st_prepare(st, parts_sql, &q, err);
    *nv = *ns = 0;
    int rc;
    while (code == LAD_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        part *p2 = realloc(*ps, (*np + 1) * sizeof *p2);
        if (p2 == NULL) {
            code = lad_errf(err, LAD_EINTERNAL, "out of memory");
            break;
        }
        *ps = p2;
        part *p = &p2[(*np)++];
        memset(p, 0, sizeof *p);
        p->file = f;
        int64_t *ints[] = {&p->id, &p->run, &p->index, &p->count, &p->stream, &p->cases,
                           &p->bad, &p->started, &p->ended, &p->seed};
        for (int i = 0; i < 10; i++)
            *ints[i] = sqlite3_column_int64(q, i + 1);
        p->k = sqlite3_column_int(q, 11);
        p->nscale = sqlite3_column_int(q, 12);
        p->nmeta = sqlite3_column_int(q, 13);
        st_col_text(q, 14, p->model, sizeof p->model);
        st_col_text(q, 15, p->gen, sizeof p->gen);
        st_col_text(q, 16, p->recipe, sizeof p->recipe);
        if (sqlite3_column_int(q, 0))
            ++*ns;
        else
            ++*nv;
    }
    if (code == LAD_OK && rc != SQLITE_DONE)
        code = st_sqlerr(st, err, "read the shards of");
    sqlite3_finalize(q);
    return code;
}

/* Whether parts a and b (of files fa, fb) can be shards of one; the
** refusal names both files and what differs. */
static int same_stream(const part *a, const part *b, int survey, char *const *files,
                       lad_err *err)
{
    char what[400] = "";
    if (a->count != b->count)
        snprintf(what, sizeof what, "shards of %" PRId64 " and of %" PRId64, a->count,
                 b->count);
    else if (strcmp(a->model, b->model) != 0)
        snprintf(what, sizeof what, "%s '%.150s' and '%.150s'", survey ? "device" : "model",
                 a->model, b->model);
    else if (strcmp(a->gen, b->gen) != 0)
        snprintf(what, sizeof what, "%s '%s' and '%s'", survey ? "arch" : "generator",
                 a->gen, b->gen);
    else if (strcmp(a->recipe, b->recipe) != 0)
        snprintf(what, sizeof what, survey ? "--only '%.150s' and '%.150s'"
                                           : "recipe sha256 %.12s and %.12s",
                 a->recipe, b->recipe);
    else if (a->seed != b->seed)
        snprintf(what, sizeof what, "seed %" PRIu64 " and %" PRIu64, (uint64_t)a->seed,
                 (uint64_t)b->seed);
    else if (a->stream != b->stream)
        snprintf(what, sizeof what, "%s %" PRId64 " and %" PRId64,
                 survey ? "cases per validation" : "stream of cases", a->stream, b->stream);
    else if (a->k != b->k || a->nscale != b->nscale || a->nmeta != b->nmeta)
        snprintf(what, sizeof what, "words per case");
    if (!what[0])
        return LAD_OK;
    return lad_errf(err, LAD_EDATA, "'%s' and '%s' are not shards of one %s: %s",
                    files[a->file], files[b->file], survey ? "survey" : "validation", what);
}

/* The cases shard I of a stream of S cases holds, as the generator cuts it
** (util/shard.h); 0 for an index that is no shard's. */
static int64_t shard_cases(const part *p)
{
    uint64_t first = 0, n = 0;
    if (p->index >= 0 && p->index < p->count)
        lad_shard_range((uint64_t)p->stream, (uint64_t)p->index, (uint64_t)p->count, &first, &n);
    return (int64_t)n;
}

/* Whether p did not finish: a survey or validation still running (or
** killed while it ran), or a validation that stopped short of its cases.
** Says so in why (may be NULL). */
static int unfinished(const part *p, int survey, const char *file, char *why, size_t size)
{
    int64_t want = survey ? 0 : shard_cases(p);
    if (p->index < 0 || p->index >= p->count)
        return 0;   /* no shard at all: check_group says so */
    if (p->cases >= 0 && (survey || p->cases == want))
        return 0;
    if (why && p->cases < 0)
        snprintf(why, size, "'%s': %s %" PRId64 " (shard %" PRId64 "/%" PRId64 ") is "
                 "unfinished", file, survey ? "survey" : "validation", p->id, p->index,
                 p->count);
    else if (why)
        snprintf(why, size, "'%s': validation %" PRId64 " (shard %" PRId64 "/%" PRId64 ") is "
                 "unfinished: it ran %" PRId64 " of its %" PRId64 " cases (of %" PRId64 ")",
                 file, p->id, p->index, p->count, p->cases, want, p->stream);
    return 1;
}

/* Checks group g (ps[g], ps[g + stride], ... one part per file) and fills
** *gr with its sums. */
static int check_group(const part *ps, size_t nfiles, size_t stride, int survey,
                       char *const *files, int partial, lad_merge_group *gr, lad_err *err)
{
    const part *first = &ps[0];
    const part **seen = calloc((size_t)first->count, sizeof *seen);
    if (seen == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    int code = LAD_OK;
    memset(gr, 0, sizeof *gr);
    gr->survey = survey;
    gr->count = (int)first->count;
    gr->stream = first->stream;
    if (survey)
        snprintf(gr->what, sizeof gr->what, "%.100s %.40s", first->model, first->gen);
    else
        snprintf(gr->what, sizeof gr->what, "%.150s", first->model);
    for (size_t f = 0; code == LAD_OK && f < nfiles; f++) {
        const part *p = &ps[f * stride];
        char why[600];
        if ((code = same_stream(first, p, survey, files, err)) != LAD_OK)
            break;
        if (p->index < 0 || p->index >= p->count)
            code = lad_errf(err, LAD_EDATA, "'%s': shard %" PRId64 "/%" PRId64 " is no shard",
                            files[p->file], p->index, p->count);
        else if (unfinished(p, survey, files[p->file], why, sizeof why))
            code = lad_errf(err, LAD_EDATA, "%s; let it finish (%s --resume) or give "
                            "--partial to merge the others", why,
                            survey ? "survey" : "validate");
        else if (seen[p->index])
            code = lad_errf(err, LAD_EDATA, "'%s' and '%s' are both shard %" PRId64 "/%" PRId64
                            " of %s '%s'", files[seen[p->index]->file], files[p->file],
                            p->index, p->count, survey ? "survey" : "validation", gr->what);
        if (code != LAD_OK)
            break;
        seen[p->index] = p;
        gr->parts++;
        gr->cases += p->cases;
        gr->bad += p->bad;
    }
    if (code == LAD_OK && !partial && gr->parts < gr->count) {
        char missing[200] = "";
        size_t len = 0;
        for (int i = 0; i < gr->count && len < sizeof missing - 24; i++)
            if (!seen[i])
                len += (size_t)snprintf(missing + len, sizeof missing - len, "%s%d", len ? " " : "",
                                        i);
        code = lad_errf(err, LAD_EDATA, "%s '%s': shard%s %s of %d missing; give --partial to "
                        "merge the %d there are", survey ? "survey" : "validation", gr->what,
                        gr->count - gr->parts == 1 ? "" : "s", missing, gr->count, gr->parts);
    }
    free(seen);
    return code;
}

/* Runs sql made by sqlite3_vmprintf (integers only: no %s of user text). */
static int execf(lad_store *st, lad_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *sql = sqlite3_vmprintf(fmt, ap);
    va_end(ap);
    if (sql == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    int code = st_exec(st, sql, "merge into", err);
    if (code != LAD_OK && sqlite3_errcode(st->db) == SQLITE_CONSTRAINT)
        code = err->code = LAD_EDATA;   /* a shard's row the schema refuses */
    sqlite3_free(sql);
    return code;
}

/* The value of "SELECT <what> FROM main.<table>"; 0 on failure (a failing
** statement after it reports the error). */
static int64_t table_int(lad_store *st, const char *what, const char *table)
{
    char sql[80];
    snprintf(sql, sizeof sql, "SELECT %s FROM main.%s", what, table);
    sqlite3_stmt *q = NULL;
    int64_t v = 0;
    if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
        v = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return v;
}

static int64_t max_id(lad_store *st, const char *table)
{
    return table_int(st, "coalesce(max(id), 0)", table);
}

#define RUN_COLS                                                                      \
    "status, started, ended, command, argv, host, pid, pid_start, message, "          \
    "recipe_path, datapath, arch, instr, kind, shape, sass, sass_expected, fmt_a, "   \
    "fmt_b, fmt_c, fmt_d, device_spec, model_file, model_sha256"
#define CASE_COLS "rung, label, k, a, b, c, d, sa, sb, meta, series, target, vary"
#define VAL_COLS                                                                      \
    "model, generator, seed, k, nscale, nmeta, cases, mismatches, started, ended, "   \
    "shard_index, shard_count, stream_cases"
#define MISMATCH_COLS "seq, a, b, c, sa, sb, meta, expected, got"
#define SURVEY_COLS                                                                   \
    "device, arch, only, cases, gpu, uuid, cc, driver, toolkit, sms, clock_khz, "     \
    "mem_clock_khz"
#define SDP_COLS                                                                      \
    "probes, differ, inferred_cases, inferred_mismatches, preset_cases, "             \
    "preset_mismatches, vector_files, vector_cases, vector_mismatches, millis, message"
#define NEW_RUN(col) "(SELECT new FROM temp.rmap WHERE old = " col ")"

/*
** Copies the runs of the attached file s and what belongs to them, ids
** shifted past the output's; a run already in the output (the same host,
** process, start and command line: the shards began as copies of one
** store) is kept once, and its rows are not copied again.
*/
static int copy_runs(lad_store *st, lad_err *err)
{
    int64_t R = max_id(st, "runs"), G = max_id(st, "rungs"), C = max_id(st, "cases");
    int64_t O = max_id(st, "observations"), I = max_id(st, "inferences");
    int64_t V = max_id(st, "validations"), S = max_id(st, "surveys");
    return execf(st, err,
        "CREATE TEMP TABLE IF NOT EXISTS rmap (old INTEGER PRIMARY KEY, new INTEGER, "
        "  fresh INTEGER);\n"
        "DELETE FROM temp.rmap;\n"
        "INSERT OR IGNORE INTO main.devices (kind, name, uuid, cc, driver, toolkit) "
        "  SELECT kind, name, uuid, cc, driver, toolkit FROM s.devices;\n"
        "INSERT OR IGNORE INTO main.builds (version, git_commit, dirty) "
        "  SELECT version, git_commit, dirty FROM s.builds;\n"
        "INSERT OR IGNORE INTO main.recipes (sha256, text) SELECT sha256, text FROM s.recipes;\n"
        "INSERT INTO temp.rmap SELECT id, coalesce(dup, id + %lld), dup IS NULL FROM "
        "  (SELECT r.id, (SELECT m.id FROM main.runs m WHERE m.host = r.host AND "
        "    m.pid = r.pid AND m.pid_start = r.pid_start AND m.started = r.started AND "
        "    m.command = r.command AND m.argv = r.argv) AS dup FROM s.runs r);\n"
        "INSERT INTO main.runs (id, device_id, build_id, recipe_id, " RUN_COLS ") "
        "  SELECT m.new, "
        "  (SELECT d.id FROM main.devices d JOIN s.devices x USING (kind, name, uuid, cc, "
        "    driver, toolkit) WHERE x.id = r.device_id), "
        "  (SELECT b.id FROM main.builds b JOIN s.builds x USING (version, git_commit, dirty) "
        "    WHERE x.id = r.build_id), "
        "  (SELECT c.id FROM main.recipes c JOIN s.recipes x USING (sha256) "
        "    WHERE x.id = r.recipe_id), " RUN_COLS " "
        "  FROM s.runs r JOIN temp.rmap m ON m.old = r.id WHERE m.fresh ORDER BY r.id;\n"
        "INSERT INTO main.rungs (id, run_id, name) SELECT g.id + %lld, m.new, g.name "
        "  FROM s.rungs g JOIN temp.rmap m ON m.old = g.run_id WHERE m.fresh;\n"
        "INSERT INTO main.cases (id, run_id, " CASE_COLS ") SELECT x.id + %lld, m.new, "
        CASE_COLS " FROM s.cases x JOIN temp.rmap m ON m.old = x.run_id WHERE m.fresh;\n"
        "INSERT INTO main.observations (id, run_id, rung, key, value) "
        "  SELECT o.id + %lld, m.new, o.rung, o.key, o.value FROM s.observations o "
        "  JOIN temp.rmap m ON m.old = o.run_id WHERE m.fresh;\n"
        "INSERT INTO main.observation_cases SELECT oc.observation_id + %lld, oc.case_id + %lld "
        "  FROM s.observation_cases oc JOIN s.observations o ON o.id = oc.observation_id "
        "  JOIN temp.rmap m ON m.old = o.run_id WHERE m.fresh;\n"
        "INSERT INTO main.inferences (id, run_id, parameter, value, method, created) "
        "  SELECT i.id + %lld, m.new, i.parameter, i.value, i.method, i.created "
        "  FROM s.inferences i JOIN temp.rmap m ON m.old = i.run_id WHERE m.fresh;\n"
        "INSERT INTO main.inference_cases SELECT ic.inference_id + %lld, ic.case_id + %lld "
        "  FROM s.inference_cases ic JOIN s.inferences i ON i.id = ic.inference_id "
        "  JOIN temp.rmap m ON m.old = i.run_id WHERE m.fresh;\n"
        "INSERT INTO main.validations (id, run_id, " VAL_COLS ") SELECT v.id + %lld, m.new, "
        VAL_COLS " FROM s.validations v JOIN temp.rmap m ON m.old = v.run_id "
        "  WHERE m.fresh AND v.shard_count = 1;\n"
        "INSERT INTO main.mismatches (validation_id, " MISMATCH_COLS ") "
        "  SELECT x.validation_id + %lld, " MISMATCH_COLS " FROM s.mismatches x "
        "  JOIN s.validations v ON v.id = x.validation_id "
        "  JOIN temp.rmap m ON m.old = v.run_id WHERE m.fresh AND v.shard_count = 1 "
        "  ORDER BY x.id;\n"
        /* unsharded surveys, each once (a survey has no run to tell copies by) */
        "INSERT INTO main.surveys (id, status, started, ended, result, shard_index, "
        "  shard_count, " SURVEY_COLS ") SELECT x.id + %lld, status, started, ended, result, "
        "  0, 1, " SURVEY_COLS " FROM s.surveys x WHERE x.shard_count = 1 AND NOT EXISTS "
        "  (SELECT 1 FROM main.surveys y WHERE y.started = x.started AND y.device = x.device "
        "   AND y.arch = x.arch AND y.only = x.only AND y.cases = x.cases);\n"
        "INSERT INTO main.survey_datapaths (survey_id, datapath, status, run_id, " SDP_COLS ") "
        "  SELECT d.survey_id + %lld, d.datapath, d.status, " NEW_RUN("d.run_id") ", " SDP_COLS
        "  FROM s.survey_datapaths d WHERE EXISTS "
        "  (SELECT 1 FROM main.surveys y WHERE y.id = d.survey_id + %lld);\n",
        (long long)R, (long long)G, (long long)C, (long long)O, (long long)O, (long long)C,
        (long long)I, (long long)I, (long long)C, (long long)V, (long long)V, (long long)S,
        (long long)S, (long long)S);
}

/* Adds part p of file s (attached) to merged row gid: a validation's
** mismatches, a survey's datapaths, and the part's merge_parts row. */
static int copy_part(lad_store *st, int64_t merge_run, const part *p, int survey,
                     int64_t gid, const char *source, lad_err *err)
{
    int code;
    if (survey)
        code = execf(st, err,
            "INSERT INTO main.survey_datapaths (survey_id, datapath, status, run_id, " SDP_COLS
            ") SELECT %lld, d.datapath, d.status, " NEW_RUN("d.run_id") ", " SDP_COLS
            " FROM s.survey_datapaths d WHERE d.survey_id = %lld ORDER BY d.rowid",
            (long long)gid, (long long)p->id);
    else
        code = execf(st, err,
            "INSERT INTO main.mismatches (validation_id, " MISMATCH_COLS ") SELECT %lld, "
            MISMATCH_COLS " FROM s.mismatches WHERE validation_id = %lld ORDER BY id",
            (long long)gid, (long long)p->id);
    sqlite3_stmt *q = NULL;
    if (code == LAD_OK)
        code = st_prepare(st, "INSERT INTO main.merge_parts (merge_run, validation_id, "
                              "survey_id, source, source_id, run_id, shard_index, shard_count, "
                              "cases, mismatches) VALUES (?1, ?2, ?3, ?4, ?5, "
                              "(SELECT new FROM temp.rmap WHERE old = ?6), ?7, ?8, ?9, ?10)",
                          &q, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(q, 1, merge_run);
        if (!survey)
            sqlite3_bind_int64(q, 2, gid);
        else
            sqlite3_bind_int64(q, 3, gid);
        st_bind_text(q, 4, source);
        sqlite3_bind_int64(q, 5, p->id);
        sqlite3_bind_int64(q, 6, p->run);
        sqlite3_bind_int64(q, 7, p->index);
        sqlite3_bind_int64(q, 8, p->count);
        sqlite3_bind_int64(q, 9, p->cases);
        sqlite3_bind_int64(q, 10, p->bad);
        code = st_step_done(st, q, "write", err);
    }
    sqlite3_finalize(q);
    return code;
}

/* Inserts the merged row of group gr from its first part p (of the file
** attached as s), with the group's sums and the parts' earliest start and
** latest end (started, ended). */
static int begin_group(lad_store *st, int64_t merge_run, const part *p, lad_merge_group *gr,
                       int64_t started, int64_t ended, lad_err *err)
{
    int code;
    if (gr->survey)
        code = execf(st, err,
            "INSERT INTO main.surveys (status, started, ended, result, shard_index, "
            "  shard_count, " SURVEY_COLS ") SELECT %Q, %lld, %lld, NULL, 0, 1, " SURVEY_COLS
            " FROM s.surveys WHERE id = %lld",
            gr->bad ? "failed" : "ok", (long long)started, (long long)ended, (long long)p->id);
    else
        code = execf(st, err,
            "INSERT INTO main.validations (run_id, model, generator, seed, k, nscale, nmeta, "
            "  cases, mismatches, started, ended, shard_index, shard_count, stream_cases) "
            "  SELECT %lld, model, generator, seed, k, nscale, nmeta, %lld, %lld, %lld, %lld, "
            "  0, 1, %lld FROM s.validations WHERE id = %lld",
            (long long)merge_run, (long long)gr->cases, (long long)gr->bad, (long long)started,
            (long long)ended, (long long)gr->stream, (long long)p->id);
    if (code == LAD_OK)
        gr->id = sqlite3_last_insert_rowid(st->db);
    return code;
}

int lad_store_merge(lad_store *st, int64_t merge_run, char *const *files_in,
                    size_t n_in, int partial, lad_merge_result *res, lad_err *err)
{
    memset(res, 0, sizeof *res);
    int code = st_writable(st, err);
    part *ps = NULL;          /* per file kept: its validations, then its surveys */
    size_t np = 0;
    int nv = 0, ns = 0;
    /* With --partial a file whose shard is unfinished is left out whole
    ** (its runs too), and said so in res->skipped. */
    char **files = calloc(n_in + 1, sizeof *files);
    size_t n = 0;
    lad_buf skipped = {0};
    if (code == LAD_OK && files == NULL)
        code = lad_errf(err, LAD_EINTERNAL, "out of memory");
    /* Read and check everything before writing anything. */
    for (size_t f = 0; code == LAD_OK && f < n_in; f++) {
        int v = 0, s = 0;
        size_t before = np;
        if ((code = attach(st, files_in[f], err)) != LAD_OK)
            break;
        code = check_counts(st, files_in[f], err);
        if (code == LAD_OK)
            code = read_parts(st, n, &ps, &np, &v, &s, err);
        detach(st);
        int skip = 0;
        char why[600];
        for (size_t i = before; code == LAD_OK && partial && i < np && !skip; i++)
            skip = unfinished(&ps[i], (int)(i - before) >= v, files_in[f], why, sizeof why);
        if (skip) {
            lad_buf_printf(&skipped, "%s\n", why);
            np = before;
            continue;
        }
        if (code == LAD_OK && n == 0) {
            nv = v;
            ns = s;
            if (v + s == 0)
                code = lad_errf(err, LAD_EDATA, "'%s' holds no shard (validate or survey "
                                "--shard I/N)", files_in[f]);
        } else if (code == LAD_OK && (v != nv || s != ns)) {
            code = lad_errf(err, LAD_EDATA, "'%s' holds %d sharded validation%s and %d "
                            "sharded survey%s, '%s' %d and %d: not shards of one job",
                            files[0], nv, nv == 1 ? "" : "s", ns, ns == 1 ? "" : "s",
                            files_in[f], v, s);
        }
        if (code == LAD_OK)
            files[n++] = files_in[f];
    }
    if (code == LAD_OK && n == 0)
        code = lad_errf(err, LAD_EDATA, "no shard is finished: nothing to merge");
    size_t stride = (size_t)(nv + ns), ng = stride;
    lad_merge_group *gs = NULL;
    if (code == LAD_OK && (gs = calloc(ng, sizeof *gs)) == NULL)
        code = lad_errf(err, LAD_EINTERNAL, "out of memory");
    for (size_t g = 0; code == LAD_OK && g < ng; g++)
        code = check_group(&ps[g], n, stride, (int)g >= nv, files, partial, &gs[g], err);
    /* Then copy file by file: ATTACH cannot be done inside a transaction. */
    for (size_t f = 0; code == LAD_OK && f < n; f++) {
        if ((code = attach(st, files[f], err)) != LAD_OK)
            break;
        code = st_begin(st, err);
        if (code == LAD_OK)
            code = copy_runs(st, err);
        for (size_t g = 0; code == LAD_OK && g < ng; g++) {
            const part *p = &ps[f * stride + g];
            if (f == 0) {
                int64_t started = p->started, ended = p->ended;
                for (size_t h = 1; h < n; h++) {
                    const part *q = &ps[h * stride + g];
                    started = q->started < started ? q->started : started;
                    ended = q->ended > ended ? q->ended : ended;
                }
                code = begin_group(st, merge_run, p, &gs[g], started, ended, err);
            }
            if (code == LAD_OK)
                code = copy_part(st, merge_run, p, gs[g].survey, gs[g].id, files[f], err);
        }
        if (code == LAD_OK)
            code = st_commit(st, "merge", err);
        else
            st_rollback(st);
        if (code == LAD_EDATA) {
            /* the shard's rows broke a constraint or its pages are damaged:
            ** name the shard, not the temporary output */
            char m[sizeof err->msg];
            snprintf(m, sizeof m, "%s", err->msg);
            lad_err_clear(err);
            code = lad_errf(err, LAD_EDATA, "'%s' cannot be merged: %s", files[f], m);
        }
        detach(st);
    }
    if (code == LAD_OK) {
        res->runs = table_int(st, "count(*) - 1", "runs"); /* all but the merge's own */
        res->groups = gs;
        res->ngroups = ng;
        res->skipped = lad_buf_take(&skipped);
    } else {
        free(gs);
        free(lad_buf_take(&skipped));
    }
    free(ps);
    free(files);
    return code;
}
