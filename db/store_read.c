/*
** The evidence store, reading: resolving a run argument, the runs history
** lists, everything show prints about one run, and the stored cases. Words
** are read with sqlite3_column_int64 or parsed from their JSON arrays by
** parse_words, never through a double.
*/
#include "store_int.h"
#include "../util/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/*
** Parses a JSON array of at most max int64 integers into w, each as the
** word with its bits (put_word in store_write.c; the rest of w untouched).
** Returns the count, or -1 when text is not such an array.
*/
static int parse_words(const char *t, uint64_t *w, int max)
{
    int n = 0;
    if (t == NULL)
        return -1;
    while (*t == ' ')
        t++;
    if (*t++ != '[')
        return -1;
    while (*t == ' ')
        t++;
    if (*t == ']')
        return 0;
    for (;;) {
        while (*t == ' ')
            t++;
        int neg = *t == '-';
        t += neg;
        if (*t < '0' || *t > '9' || n >= max)
            return -1;
        uint64_t v = 0;
        while (*t >= '0' && *t <= '9') {
            uint64_t x = (uint64_t)(*t++ - '0');
            if (v > (((uint64_t)1 << 63) - x) / 10)
                return -1;  /* beyond the int64 range */
            v = v * 10 + x;
        }
        if (!neg && v >> 63)
            return -1;
        w[n++] = neg ? (uint64_t)0 - v : v;
        while (*t == ' ')
            t++;
        if (*t == ']')
            return n;
        if (*t++ != ',')
            return -1;
    }
}

/* ---- reading ---------------------------------------------------------------- */

int lad_store_is_run_spec(const char *spec)
{
    if (strncmp(spec, "run:", 4) == 0)
        spec += 4;
    return strcmp(spec, "latest") == 0 ||
           (*spec && strspn(spec, "0123456789") == strlen(spec));
}

int lad_store_resolve_run(lad_store *st, const char *spec, int64_t *run,
                          lad_err *err)
{
    sqlite3_stmt *s = NULL;
    int code;
    const char *whole = spec;
    if (strncmp(spec, "run:", 4) == 0)
        spec += 4;
    if (strcmp(spec, "latest") == 0) {
        code = st_prepare(st, "SELECT max(id) FROM runs", &s, err);
        if (code == LAD_OK) {
            if (sqlite3_step(s) == SQLITE_ROW &&
                sqlite3_column_type(s, 0) == SQLITE_INTEGER)
                *run = sqlite3_column_int64(s, 0);
            else
                code = lad_errf(err, LAD_EUSAGE, "no runs in '%s'", st->path);
        }
        sqlite3_finalize(s);
        return code;
    }
    const char *p = spec;
    int64_t v = 0;
    for (; *p; p++) {
        if (*p < '0' || *p > '9' || v > (INT64_MAX - 9) / 10)
            break;
        v = v * 10 + (*p - '0');
    }
    if (*spec == 0 || *p) {
        lad_suggest sg;
        lad_suggest_init(&sg, spec);
        lad_suggest_add(&sg, "latest");
        if (lad_suggest_best(&sg))
            return lad_errf(err, LAD_EUSAGE, "bad run '%s': expected a run id or "
                            "'latest'; did you mean '%s%s'?", whole,
                            spec == whole ? "" : "run:", "latest");
        return lad_errf(err, LAD_EUSAGE,
                        "bad run '%s': expected a run id or 'latest'", whole);
    }
    code = st_prepare(st, "SELECT id FROM runs WHERE id = ?1", &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, v);
        if (sqlite3_step(s) == SQLITE_ROW)
            *run = v;
        else
            code = lad_errf(err, LAD_EUSAGE, "no run %lld in '%s'",
                            (long long)v, st->path);
    }
    sqlite3_finalize(s);
    return code;
}

#define RUN_COLUMNS                                                           \
    "SELECT r.id, r.status, r.started, coalesce(r.ended, 0), r.command, "     \
    "r.argv, r.host, r.pid, r.pid_start, r.message, coalesce(d.name, ''), "   \
    "coalesce(d.kind, ''), coalesce(d.uuid, ''), coalesce(d.cc, 0), "         \
    "coalesce(d.driver, ''), coalesce(d.toolkit, ''), b.version, "            \
    "b.git_commit, b.dirty, r.recipe_path, coalesce(rc.sha256, ''), "         \
    "r.datapath, r.arch, r.instr, r.kind, r.shape, r.sass, r.sass_expected, " \
    "r.fmt_a, r.fmt_b, r.fmt_c, r.fmt_d, "                                    \
    "(SELECT count(*) FROM cases WHERE cases.run_id = r.id), "                \
    "r.device_spec, r.model_file, r.model_sha256, "                           \
    "(SELECT count(*) FROM validations AS v WHERE v.run_id = r.id "           \
    "AND v.status = 'ok'), "                                                  \
    "(SELECT coalesce(sum(v.cases), 0) FROM validations AS v "                \
    "WHERE v.run_id = r.id AND v.status = 'ok'), "                            \
    "(SELECT coalesce(sum(v.mismatches), 0) FROM validations AS v "           \
    "WHERE v.run_id = r.id AND v.status = 'ok'), "                            \
    "(SELECT coalesce(group_concat(x, ' '), '') FROM (SELECT v.mismatches "   \
    "|| '/' || v.cases AS x FROM validations AS v WHERE v.run_id = r.id "     \
    "AND v.status = 'ok' ORDER BY v.id)) "                                    \
    "FROM runs AS r LEFT JOIN devices AS d ON d.id = r.device_id "            \
    "JOIN builds AS b ON b.id = r.build_id "                                  \
    "LEFT JOIN recipes AS rc ON rc.id = r.recipe_id "

/*
** Copies the JSON array of strings t into buf; when it does not fit, keeps
** the leading elements that do and ends the array with "...", so that the
** copy is still a JSON array. Strings are as lad_json_str writes them.
*/
static void copy_argv(const char *t, char *buf, size_t size)
{
    size_t len = t ? strlen(t) : 0;
    if (len < size) {
        snprintf(buf, size, "%s", t ? t : "[]");
        return;
    }
    size_t keep = 1; /* "[" */
    const char *p = t + 1;
    while (*p == '"' || *p == ',') {
        const char *q = p + (*p == ',');
        if (*q != '"')
            break;
        for (q++; *q && *q != '"'; q++)
            if (*q == '\\' && q[1])
                q++;
        if (*q != '"')
            break;
        size_t end = (size_t)(q + 1 - t);
        if (end + 8 > size) /* room for ,"..."] and the NUL */
            break;
        keep = end;
        p = q + 1;
    }
    snprintf(buf, size, "%.*s%s\"...\"]", (int)keep, t,
             keep > 1 ? "," : "");
}

static void read_run(lad_store *st, sqlite3_stmt *s, lad_run_row *r)
{
    char status[16];
    memset(r, 0, sizeof *r);
    r->id = sqlite3_column_int64(s, 0);
    st_col_text(s, 1, status, sizeof status);
    r->started = sqlite3_column_int64(s, 2);
    r->ended = sqlite3_column_int64(s, 3);
    st_col_text(s, 4, r->command, sizeof r->command);
    copy_argv((const char *)sqlite3_column_text(s, 5), r->argv,
              sizeof r->argv);
    st_col_text(s, 6, r->host, sizeof r->host);
    r->pid = sqlite3_column_int64(s, 7);
    r->status = st_live_status(st, status, r->host, r->pid,
                            sqlite3_column_int64(s, 8));
    st_col_text(s, 9, r->message, sizeof r->message);
    st_col_text(s, 10, r->device, sizeof r->device);
    st_col_text(s, 11, r->device_kind, sizeof r->device_kind);
    st_col_text(s, 12, r->uuid, sizeof r->uuid);
    r->cc = sqlite3_column_int(s, 13);
    st_col_text(s, 14, r->driver, sizeof r->driver);
    st_col_text(s, 15, r->toolkit, sizeof r->toolkit);
    st_col_text(s, 16, r->version, sizeof r->version);
    st_col_text(s, 17, r->commit, sizeof r->commit);
    r->dirty = sqlite3_column_int(s, 18);
    st_col_text(s, 19, r->recipe, sizeof r->recipe);
    st_col_text(s, 20, r->recipe_sha256, sizeof r->recipe_sha256);
    st_col_text(s, 21, r->datapath, sizeof r->datapath);
    st_col_text(s, 22, r->arch, sizeof r->arch);
    st_col_text(s, 23, r->instr, sizeof r->instr);
    st_col_text(s, 24, r->kind, sizeof r->kind);
    st_col_text(s, 25, r->shape, sizeof r->shape);
    st_col_text(s, 26, r->sass, sizeof r->sass);
    st_col_text(s, 27, r->sass_expected, sizeof r->sass_expected);
    st_col_text(s, 28, r->fmt_a, sizeof r->fmt_a);
    st_col_text(s, 29, r->fmt_b, sizeof r->fmt_b);
    st_col_text(s, 30, r->fmt_c, sizeof r->fmt_c);
    st_col_text(s, 31, r->fmt_d, sizeof r->fmt_d);
    r->ncases = sqlite3_column_int64(s, 32);
    st_col_text(s, 33, r->device_spec, sizeof r->device_spec);
    st_col_text(s, 34, r->model_file, sizeof r->model_file);
    st_col_text(s, 35, r->model_sha256, sizeof r->model_sha256);
    r->nval = sqlite3_column_int64(s, 36);
    r->val_cases = sqlite3_column_int64(s, 37);
    r->val_mismatches = sqlite3_column_int64(s, 38);
    st_col_text(s, 39, r->vals, sizeof r->vals);
}

/* Grows *arr (of elements of size el) to hold at least need; returns 0 or
** -1 when out of memory. */
static int grow(void **arr, size_t *cap, size_t need, size_t el)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 16;
    while (c < need)
        c *= 2;
    void *p = realloc(*arr, c * el);
    if (p == NULL)
        return -1;
    *arr = p;
    *cap = c;
    return 0;
}

/* Reads the current row of s into row (zeroed); returns LAD_OK, or an error
** code with err filled. */
typedef int (*row_reader)(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err);

/*
** Every list the store hands out is read the same way: step the bound
** statement s to its end, append one element of size el to *arr per row
** (zeroed, counted in *n, then filled by read), finalize s. On an error the
** elements read so far stay in *arr for the caller's free function.
*/
static int read_rows(lad_store *st, sqlite3_stmt *s, void **arr, size_t *n, size_t el,
                     row_reader read, lad_err *err)
{
    size_t cap = 0;
    int code = LAD_OK, rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (grow(arr, &cap, *n + 1, el)) {
            code = lad_errf(err, LAD_EINTERNAL, "out of memory");
            break;
        }
        void *row = (char *)*arr + *n * el;
        memset(row, 0, el);
        (*n)++;
        if ((code = read(st, s, row, err)) != LAD_OK)
            break;
    }
    if (code == LAD_OK && rc != SQLITE_DONE)
        code = st_sqlerr(st, err, "read");
    sqlite3_finalize(s);
    return code;
}

/* st_prepare() with ?1 bound to id. */
static int query(lad_store *st, const char *sql, int64_t id, sqlite3_stmt **s, lad_err *err)
{
    int code = st_prepare(st, sql, s, err);
    if (code == LAD_OK)
        sqlite3_bind_int64(*s, 1, id);
    return code;
}

static int read_run_row(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err)
{
    (void)err;
    read_run(st, s, row);
    return LAD_OK;
}

static int read_id(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err)
{
    (void)st;
    (void)err;
    *(int64_t *)row = sqlite3_column_int64(s, 0);
    return LAD_OK;
}

static int oom_if(int missing, lad_err *err)
{
    return missing ? lad_errf(err, LAD_EINTERNAL, "out of memory") : LAD_OK;
}

static int read_rung(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err)
{
    (void)st;
    (void)err;
    lad_rung_row *g = row;
    st_col_text(s, 0, g->name, sizeof g->name);
    g->ncases = sqlite3_column_int64(s, 1);
    g->first_case = sqlite3_column_int64(s, 2);
    g->last_case = sqlite3_column_int64(s, 3);
    return LAD_OK;
}

static int read_obs(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err)
{
    (void)st;
    lad_obs_row *o = row;
    o->id = sqlite3_column_int64(s, 0);
    st_col_text(s, 1, o->rung, sizeof o->rung);
    o->key = st_col_dup(s, 2);
    o->value = st_col_dup(s, 3);
    return oom_if(!o->key || !o->value, err);
}

static int read_inference(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err)
{
    (void)st;
    lad_inference_row *f = row;
    f->id = sqlite3_column_int64(s, 0);
    f->parameter = st_col_dup(s, 1);
    f->value = st_col_dup(s, 2);
    f->method = st_col_dup(s, 3);
    return oom_if(!f->parameter || !f->value || !f->method, err);
}

/* The columns read_validation reads, then the run's id. */
#define VALIDATION_SELECT                                                       \
    "SELECT v.id, v.model, v.generator, v.seed, "                              \
    "coalesce(v.cases, -1), coalesce(v.mismatches, -1), "                      \
    "(SELECT count(*) FROM mismatches AS m WHERE "                             \
    "m.validation_id = v.id), v.status, v.host, v.pid, "                       \
    "v.pid_start, coalesce(v.planned, -1), v.message, v.run_id, "              \
    "v.shard_index, v.shard_count, coalesce(v.stream_cases, -1) "              \
    "FROM validations AS v"

static int read_validation(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err)
{
    lad_validation_row *v = row;
    v->id = sqlite3_column_int64(s, 0);
    v->model = st_col_dup(s, 1);
    v->generator = st_col_dup(s, 2);
    v->seed = (uint64_t)sqlite3_column_int64(s, 3);
    v->cases = sqlite3_column_int64(s, 4);
    v->mismatches = sqlite3_column_int64(s, 5);
    v->stored = sqlite3_column_int64(s, 6);
    char status[16], host[128];
    st_col_text(s, 7, status, sizeof status);
    st_col_text(s, 8, host, sizeof host);
    v->status = st_live_status(st, status, host, sqlite3_column_int64(s, 9),
                               sqlite3_column_int64(s, 10));
    v->planned = sqlite3_column_int64(s, 11);
    v->message = st_col_dup(s, 12);
    v->shard_index = sqlite3_column_int64(s, 14);
    v->shard_count = sqlite3_column_int64(s, 15);
    v->stream_cases = sqlite3_column_int64(s, 16);
    return oom_if(!v->model || !v->generator || !v->message, err);
}

static int read_case(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err)
{
    lad_case_row *r = row;
    r->id = sqlite3_column_int64(s, 0);
    st_col_text(s, 1, r->rung, sizeof r->rung);
    st_col_text(s, 2, r->label, sizeof r->label);
    r->cs.c = (uint64_t)sqlite3_column_int64(s, 6);
    r->d = (uint64_t)sqlite3_column_int64(s, 7);
    st_col_text(s, 11, r->series, sizeof r->series);
    st_col_text(s, 12, r->target, sizeof r->target);
    r->has_vary = sqlite3_column_type(s, 13) == SQLITE_INTEGER;
    r->vary = sqlite3_column_int64(s, 13);
    uint64_t sa[LAD_STORE_SCALEMAX], sb[LAD_STORE_SCALEMAX], meta[LAD_STORE_METAMAX];
    int ka = parse_words((const char *)sqlite3_column_text(s, 4), r->cs.a, LAD_STORE_KMAX);
    int kb = parse_words((const char *)sqlite3_column_text(s, 5), r->cs.b, LAD_STORE_KMAX);
    int na = parse_words((const char *)sqlite3_column_text(s, 8), sa, LAD_STORE_SCALEMAX);
    int nb = parse_words((const char *)sqlite3_column_text(s, 9), sb, LAD_STORE_SCALEMAX);
    int nm = parse_words((const char *)sqlite3_column_text(s, 10), meta, LAD_STORE_METAMAX);
    for (int i = 0; i < nm; i++) {
        if (meta[i] > 0xffffffffu)
            return lad_errf(err, LAD_EDATA, "'%s': case %lld has malformed words", st->path,
                            (long long)r->id);
        r->cs.meta[i] = (uint32_t)meta[i];
    }
    if (ka < 0 || kb != ka || na < 0 || nb != na || nm < 0)
        return lad_errf(err, LAD_EDATA, "'%s': case %lld has malformed words", st->path,
                        (long long)r->id);
    for (int i = 0; i < na; i++) {
        if (sa[i] > 255 || sb[i] > 255)
            return lad_errf(err, LAD_EDATA, "'%s': case %lld has a scale above 255",
                            st->path, (long long)r->id);
        r->cs.sa[i] = (uint8_t)sa[i];
        r->cs.sb[i] = (uint8_t)sb[i];
    }
    r->k = ka;
    r->nscale = na;
    r->nmeta = nm;
    return LAD_OK;
}

int lad_store_history(lad_store *st, const lad_history_filter *f,
                      lad_run_row **rows, size_t *n, lad_err *err)
{
    *rows = NULL;
    *n = 0;
    sqlite3_stmt *s = NULL;
    int code = st_prepare(st,
                       RUN_COLUMNS
                       "WHERE (?1 IS NULL OR instr(lower(d.name), lower(?1)) "
                       "> 0) AND (?2 IS NULL OR lower(?2) IN (r.fmt_a, "
                       "r.fmt_b, r.fmt_c, r.fmt_d)) AND (?3 IS NULL OR ?3 IN "
                       "(r.instr, r.kind, r.sass, r.sass_expected, "
                       "r.datapath)) AND (?5 IS NULL OR lower(r.arch) = lower(?5) "
                       "OR lower(r.arch) = lower(?5) || 'a') "
                       "AND (?6 IS NULL OR r.started >= ?6) "
                       "AND (?7 IS NULL OR r.started < ?7) "
                       "ORDER BY r.id DESC LIMIT ?4",
                       &s, err);
    if (code)
        return code;
    if (f && f->gpu)
        st_bind_text(s, 1, f->gpu);
    if (f && f->format)
        st_bind_text(s, 2, f->format);
    if (f && f->instruction)
        st_bind_text(s, 3, f->instruction);
    if (f && f->arch)
        st_bind_text(s, 5, f->arch);
    if (f && f->since)
        sqlite3_bind_int64(s, 6, f->since);
    if (f && f->until)
        sqlite3_bind_int64(s, 7, f->until);
    /* The status a run shows is decided here, not in SQL (a dead 'running'
    ** run reads interrupted), so with a status filter the limit is too. */
    int status = f ? f->status : 0;
    sqlite3_bind_int64(s, 4, f && f->limit > 0 && !status ? f->limit : -1);
    code = read_rows(st, s, (void **)rows, n, sizeof **rows, read_run_row, err);
    if (code == LAD_OK && status) {
        size_t kept = 0;
        for (size_t i = 0; i < *n; i++)
            if ((*rows)[i].status == status - 1 && (f->limit <= 0 || (int)kept < f->limit))
                (*rows)[kept++] = (*rows)[i];
        *n = kept;
        if (kept == 0) {
            free(*rows);
            *rows = NULL;
        }
    }
    if (code) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return code;
}

int lad_store_run(lad_store *st, int64_t run, lad_run_row *row, lad_err *err)
{
    sqlite3_stmt *s = NULL;
    int code = st_prepare(st, RUN_COLUMNS "WHERE r.id = ?1", &s, err);
    if (code)
        return code;
    sqlite3_bind_int64(s, 1, run);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        read_run(st, s, row);
    else if (rc == SQLITE_DONE)
        code = lad_errf(err, LAD_EDATA, "no run %lld in '%s'",
                        (long long)run, st->path);
    else
        code = st_sqlerr(st, err, "read");
    sqlite3_finalize(s);
    return code;
}

/* Reads the case ids linked to owner through sql (?1 = owner). */
static int read_ids_list(lad_store *st, const char *sql, int64_t owner,
                         int64_t **ids, size_t *n, lad_err *err)
{
    *ids = NULL;
    *n = 0;
    sqlite3_stmt *s = NULL;
    int code = query(st, sql, owner, &s, err);
    if (code == LAD_OK)
        code = read_rows(st, s, (void **)ids, n, sizeof **ids, read_id, err);
    return code;
}

void lad_show_free(lad_show *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->nobs; i++) {
        free(s->obs[i].key);
        free(s->obs[i].value);
        free(s->obs[i].cases);
    }
    for (size_t i = 0; i < s->ninf; i++) {
        free(s->inf[i].parameter);
        free(s->inf[i].value);
        free(s->inf[i].method);
        free(s->inf[i].cases);
    }
    for (size_t i = 0; i < s->nval; i++) {
        free(s->val[i].model);
        free(s->val[i].generator);
        free(s->val[i].message);
    }
    free(s->rungs);
    free(s->obs);
    free(s->inf);
    free(s->val);
    memset(s, 0, sizeof *s);
}

int lad_store_show(lad_store *st, int64_t run, lad_show *out, lad_err *err)
{
    memset(out, 0, sizeof *out);
    int code = lad_store_run(st, run, &out->run, err);
    sqlite3_stmt *s = NULL;

    /* Rungs with their case counts. */
    if (code == LAD_OK)
        code = query(st,
                     "SELECT g.name, count(c.id), coalesce(min(c.id), 0), "
                     "coalesce(max(c.id), 0) FROM rungs AS g LEFT JOIN "
                     "cases AS c ON c.run_id = g.run_id AND c.rung = "
                     "g.name WHERE g.run_id = ?1 GROUP BY g.id ORDER BY "
                     "g.id",
                     run, &s, err);
    if (code == LAD_OK)
        code = read_rows(st, s, (void **)&out->rungs, &out->nrungs, sizeof *out->rungs,
                         read_rung, err);

    /* Observations, with the cases behind each. */
    if (code == LAD_OK)
        code = query(st, "SELECT id, rung, key, value FROM observations "
                         "WHERE run_id = ?1 ORDER BY id",
                     run, &s, err);
    if (code == LAD_OK)
        code = read_rows(st, s, (void **)&out->obs, &out->nobs, sizeof *out->obs, read_obs,
                         err);
    for (size_t i = 0; code == LAD_OK && i < out->nobs; i++)
        code = read_ids_list(st,
                             "SELECT case_id FROM observation_cases WHERE "
                             "observation_id = ?1 ORDER BY case_id",
                             out->obs[i].id, &out->obs[i].cases,
                             &out->obs[i].ncases, err);

    /* Inferences, with the cases behind each. */
    if (code == LAD_OK)
        code = query(st, "SELECT id, parameter, value, method FROM "
                         "inferences WHERE run_id = ?1 ORDER BY id",
                     run, &s, err);
    if (code == LAD_OK)
        code = read_rows(st, s, (void **)&out->inf, &out->ninf, sizeof *out->inf,
                         read_inference, err);
    for (size_t i = 0; code == LAD_OK && i < out->ninf; i++)
        code = read_ids_list(st,
                             "SELECT case_id FROM inference_cases WHERE "
                             "inference_id = ?1 ORDER BY case_id",
                             out->inf[i].id, &out->inf[i].cases,
                             &out->inf[i].ncases, err);

    /* Validations. */
    if (code == LAD_OK)
        code = query(st, VALIDATION_SELECT " WHERE v.run_id = ?1 ORDER BY v.id", run, &s,
                     err);
    if (code == LAD_OK)
        code = read_rows(st, s, (void **)&out->val, &out->nval, sizeof *out->val,
                         read_validation, err);
    if (code)
        lad_show_free(out);
    return code;
}

int lad_store_validation(lad_store *st, int64_t vid, lad_validation_row *row,
                         int64_t *run, lad_err *err)
{
    memset(row, 0, sizeof *row);
    *run = 0;
    sqlite3_stmt *s = NULL;
    int code = query(st, VALIDATION_SELECT " WHERE v.id = ?1", vid, &s, err);
    if (code)
        return code;
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        code = read_validation(st, s, row, err);
        *run = sqlite3_column_int64(s, 13);
    } else if (rc == SQLITE_DONE) {
        code = lad_errf(err, LAD_EDATA, "no validation %lld in '%s'", (long long)vid,
                        st->path);
    } else {
        code = st_sqlerr(st, err, "read");
    }
    sqlite3_finalize(s);
    if (code)
        lad_validation_row_free(row);
    return code;
}

int lad_store_latest_validation(lad_store *st, int64_t *vid, lad_err *err)
{
    *vid = 0;
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(st->db, "SELECT max(id) FROM validations", -1, &s, NULL) != SQLITE_OK)
        return st_sqlerr(st, err, "read");
    int code = LAD_OK;
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL)
        *vid = sqlite3_column_int64(s, 0);
    else
        code = lad_errf(err, LAD_EDATA, "no validation in '%s'", st->path);
    sqlite3_finalize(s);
    return code;
}

void lad_validation_row_free(lad_validation_row *v)
{
    free(v->model);
    free(v->generator);
    free(v->message);
    v->model = v->generator = v->message = NULL;
}

int lad_store_cases(lad_store *st, int64_t run, const char *rung,
                    lad_case_row **rows, size_t *n, lad_err *err)
{
    *rows = NULL;
    *n = 0;
    sqlite3_stmt *s = NULL;
    int code = st_prepare(st,
                       "SELECT id, rung, label, k, a, b, c, d, sa, sb, meta, "
                       "series, target, vary FROM cases WHERE run_id = ?1 AND (?2 IS NULL OR "
                       "rung = ?2) ORDER BY id",
                       &s, err);
    if (code)
        return code;
    sqlite3_bind_int64(s, 1, run);
    if (rung)
        st_bind_text(s, 2, rung);
    code = read_rows(st, s, (void **)rows, n, sizeof **rows, read_case, err);
    if (code) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return code;
}

int lad_store_run_device_arg(lad_store *st, int64_t run, char *dev, size_t size,
                             lad_err *err)
{
    return lad_store_run_arg(st, run, "device", dev, size, err);
}

int lad_store_run_arg(lad_store *st, int64_t run, const char *name, char *dev, size_t size,
                      lad_err *err)
{
    char eq[72];
    size_t nlen = (size_t)snprintf(eq, sizeof eq, "--%s=", name);
    if (size)
        dev[0] = 0;
    sqlite3_stmt *s = NULL;
    int code = query(st,
                     "SELECT j.value FROM runs AS r, json_each(r.argv) AS j "
                     "WHERE r.id = ?1 ORDER BY j.key",
                     run, &s, err);
    if (code)
        return code;
    int want = 0, rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *a = (const char *)sqlite3_column_text(s, 0);
        if (a == NULL)
            continue;
        if (want) {
            snprintf(dev, size, "%s", a);
            want = 0;
        } else if (strcmp(a, "--") == 0) {
            break;
        } else if (strncmp(a, eq, nlen - 1) == 0 && a[nlen - 1] == 0) {
            want = 1;
        } else if (strncmp(a, eq, nlen) == 0) {
            snprintf(dev, size, "%s", a + nlen);
        }
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        code = st_sqlerr(st, err, "read");
    sqlite3_finalize(s);
    return code;
}

int lad_store_recipe(lad_store *st, int64_t run, char **text, size_t *len,
                     char *path, size_t size, lad_err *err)
{
    *text = NULL;
    *len = 0;
    sqlite3_stmt *s = NULL;
    int code = query(st,
                     "SELECT rc.text, r.recipe_path FROM runs AS r JOIN "
                     "recipes AS rc ON rc.id = r.recipe_id WHERE r.id = ?1",
                     run, &s, err);
    if (code)
        return code;
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(s, 0);
        size_t n = (size_t)sqlite3_column_bytes(s, 0);
        *text = malloc(n + 1);
        if (*text == NULL) {
            code = lad_errf(err, LAD_EINTERNAL, "out of memory");
        } else {
            memcpy(*text, t ? t : "", n);
            (*text)[n] = 0;
            *len = n;
            st_col_text(s, 1, path, size);
        }
    } else if (rc == SQLITE_DONE) {
        code = lad_errf(err, LAD_EDATA, "run %lld has no recipe in '%s'",
                        (long long)run, st->path);
    } else {
        code = st_sqlerr(st, err, "read");
    }
    sqlite3_finalize(s);
    return code;
}
