/*
** The recipe loader; see recipe.h and docs/recipes.md.
**
** The file is parsed into a located YAML tree (io/yaml.c), then read
** section by section in a fixed order (version, description, formats,
** datapath, device, rungs, random) so that a file with several mistakes
** always reports the same first one. Every value is range-checked where it
** is read, with the place it was read from.
*/
#include "recipe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../io/modelfile.h"
#include "../util/buf.h"
#include "../util/sha256.h"
#include "../model/params.h"
#include "../model/presets.h"
#include "../util/suggest.h"
#include "../io/yaml.h"

/* ---- rungs and their parameters ---- */

enum ptype {
    P_INT,    /* integer in lo..hi */
    P_ALLINT, /* `all` (LAD_RECIPE_ALL) or an integer in lo..hi, at most k */
    P_ENUM,   /* one of names; stored as its index */
    P_BOOL    /* true or false */
};

typedef struct pdef {
    const char *name;
    int type;                 /* enum ptype */
    long long lo, hi, def;    /* range and default */
    const char *const *names; /* P_ENUM */
} pdef;

static const char *const operand_names[] = {"all", "a", "b", "c", NULL};

static const struct rungdef {
    const char *name;
    pdef p[LAD_RUNG_MAXPARAMS];
} rungdefs[LAD_RUNG_COUNT] = {
    [LAD_RUNG_INSTRUCTION] = {"instruction", {{0}}},
    [LAD_RUNG_SLICE] = {"slice", {{0}}},
    [LAD_RUNG_LANES] = {"lanes",
                        {{"lanes", P_ALLINT, 1, LAD_KMAX, LAD_RECIPE_ALL, NULL}}},
    [LAD_RUNG_TRUNCATION] = {"truncation",
                             {{"operand", P_ENUM, 0, 3, 0, operand_names}}},
    [LAD_RUNG_VISIBLE] = {"visible", {{"max_j", P_INT, 1, 200, 40, NULL}}},
    [LAD_RUNG_INTERNAL] = {"internal", {{"max_j", P_INT, 1, 200, 40, NULL}}},
    [LAD_RUNG_ULP] = {"ulp", {{"steps", P_INT, 2, 64, 4, NULL}}},
    [LAD_RUNG_GROUPING] = {"grouping",
                           {{"max_pass", P_ALLINT, 1, LAD_KMAX, LAD_RECIPE_ALL,
                             NULL}}},
    [LAD_RUNG_ZEROS] = {"zeros", {{"min_exp", P_INT, -1000, 0, -160, NULL}}},
    [LAD_RUNG_SPECIALS] = {"specials", {{0}}},
    [LAD_RUNG_SCALING] = {"scaling", {{"max_shift", P_INT, 0, 254, 40, NULL}}},
    [LAD_RUNG_SUMTREE] = {"sumtree",
                          {{"lanes", P_ALLINT, 2, LAD_KMAX, LAD_RECIPE_ALL, NULL}}},
    [LAD_RUNG_RANDOM] = {"random", {{0}}},
    [LAD_RUNG_DECIDE] = {"decide", {{0}}},
};

const char *lad_rung_name(int id)
{
    return id >= 0 && id < LAD_RUNG_COUNT ? rungdefs[id].name : "?";
}

int lad_rung_find(const char *name)
{
    for (int i = 0; i < LAD_RUNG_COUNT; i++)
        if (strcmp(rungdefs[i].name, name) == 0)
            return i;
    return -1;
}

const char *lad_rung_nearest(const char *name)
{
    lad_suggest s;
    lad_suggest_init(&s, name);
    for (int i = 0; i < LAD_RUNG_COUNT; i++)
        lad_suggest_add(&s, rungdefs[i].name);
    return lad_suggest_best(&s);
}

const char *lad_rung_param_name(int id, int i)
{
    if (id < 0 || id >= LAD_RUNG_COUNT || i < 0 || i >= LAD_RUNG_MAXPARAMS)
        return NULL;
    return rungdefs[id].p[i].name;
}

const char *lad_rung_param_enum(int id, int i, long long v)
{
    if (lad_rung_param_name(id, i) == NULL)
        return NULL;
    const pdef *p = &rungdefs[id].p[i];
    if (p->type != P_ENUM || v < p->lo || v > p->hi)
        return NULL;
    return p->names[v];
}

static int param_index(int id, const char *name)
{
    for (int i = 0; i < LAD_RUNG_MAXPARAMS && rungdefs[id].p[i].name; i++)
        if (strcmp(rungdefs[id].p[i].name, name) == 0)
            return i;
    return -1;
}

long long lad_rung_param(const lad_rung *r, const char *name)
{
    int i = param_index(r->id, name);
    return i < 0 ? -2 : r->param[i];
}

lad_mark lad_rung_param_mark(const lad_rung *r, const char *name)
{
    int i = param_index(r->id, name);
    return i < 0 || r->pmark[i].line == 0 ? r->mark : r->pmark[i];
}

const lad_rung *lad_recipe_rung(const lad_recipe *r, int id)
{
    for (int i = 0; i < r->nrungs; i++)
        if (r->rungs[i].id == id)
            return &r->rungs[i];
    return NULL;
}

/* ---- the loader ---- */

static lad_mark mark_of(const lad_ynode *n)
{
    lad_mark m = {n->line, n->col};
    return m;
}

static int read_version(const lad_ydoc *doc, const lad_ynode *root,
                        lad_recipe *r, lad_err *err)
{
    lad_ynode *v;
    long long x;
    int rc;
    if ((rc = lad_ymap_need(doc, root, "recipe", &v, err)) ||
        (rc = lad_yint(doc, v, "recipe", 0, 1000000, &x, err)))
        return rc;
    if (x != LAD_RECIPE_VERSION)
        return lad_yerr(doc, v, err,
                        "unsupported recipe version %lld (this ladder reads %d)",
                        x, LAD_RECIPE_VERSION);
    r->version = (int)x;
    r->m_version = mark_of(v);
    return LAD_OK;
}

/* A format reference in the datapath: a user format's name, a built-in
** name, a format spec or an inline mapping (lad_model_read_format). */
static int read_fmt_ref(const lad_ydoc *doc, const lad_ynode *v,
                        const char *what, const lad_recipe *r, lad_format *f,
                        int *known, lad_err *err)
{
    if (v->kind == LAD_YSCALAR) {
        for (int i = 0; i < r->nformats; i++)
            if (strcmp(r->formats[i].f.name, v->str) == 0) {
                *f = r->formats[i].f;
                *known = r->formats[i].known;
                return LAD_OK;
            }
        if (v->plain && strcmp(v->str, "none") == 0)
            return lad_yerr(doc, v, err, "unknown format 'none'");
    }
    return lad_model_read_format(doc, v, what, 1, f, known, err);
}

static int read_formats(const lad_ydoc *doc, const lad_ynode *root,
                        lad_recipe *r, lad_err *err)
{
    const lad_ynode *seq = lad_ymap_get(root, "formats");
    if (seq == NULL)
        return LAD_OK;
    int rc = lad_ynode_expect(doc, seq, LAD_YSEQ, "formats", err);
    if (rc)
        return rc;
    r->m_formats = mark_of(seq);
    if (seq->n > LAD_RECIPE_MAXFORMATS)
        return lad_yerr(doc, seq->kids[LAD_RECIPE_MAXFORMATS], err,
                        "more than %d formats", LAD_RECIPE_MAXFORMATS);
    for (int i = 0; i < seq->n; i++) {
        const lad_ynode *it = seq->kids[i];
        lad_recipe_format *rf = &r->formats[i];
        if ((rc = lad_ynode_expect(doc, it, LAD_YMAP, "format", err)) ||
            (rc = lad_model_read_format(doc, it, "format", 1, &rf->f,
                                        &rf->known, err)))
            return rc;
        const lad_ynode *name = lad_ymap_get(it, "name");
        if (lad_format_find(rf->f.name) || strcmp(rf->f.name, "none") == 0)
            return lad_yerr(doc, name, err,
                            "format name '%s' is taken by a built-in format",
                            rf->f.name);
        for (int j = 0; j < i; j++)
            if (strcmp(r->formats[j].f.name, rf->f.name) == 0)
                return lad_yerr(doc, name, err,
                                "format '%s' is defined twice (first at %d:%d)",
                                rf->f.name, r->formats[j].mark.line,
                                r->formats[j].mark.col);
        rf->mark = mark_of(it);
        r->nformats = i + 1;
    }
    return LAD_OK;
}

static const char *const dp_keys[] = {
    "name", "arch", "instr", "kind", "shape", "sass", "a", "b",
    "c", "d", "k", "sa", "sb", "scale_block", "sparse", NULL};
static const char *const dp_required[] = {"name", "arch", "instr", "a", "b",
                                          "c", "d", "k", NULL};

static int opt_str(const lad_ydoc *doc, const lad_ynode *map, const char *key,
                   char *buf, size_t size, lad_mark *m, lad_err *err)
{
    const lad_ynode *v = lad_ymap_get(map, key);
    if (v == NULL)
        return LAD_OK;
    *m = mark_of(v);
    return lad_ystr(doc, v, key, buf, size, err);
}

static int opt_fmt(const lad_ydoc *doc, const lad_ynode *map, const char *key,
                   const lad_recipe *r, lad_format *f, int *known, lad_mark *m,
                   lad_err *err)
{
    const lad_ynode *v = lad_ymap_get(map, key);
    if (v == NULL)
        return LAD_OK;
    *m = mark_of(v);
    return read_fmt_ref(doc, v, key, r, f, known, err);
}

static int read_datapath(const lad_ydoc *doc, const lad_ynode *root,
                         lad_recipe *r, lad_err *err)
{
    lad_ynode *map, *v;
    int rc, known;
    lad_recipe_instr *d = &r->dp;
    if ((rc = lad_ymap_need(doc, root, "datapath", &map, err)) ||
        (rc = lad_ynode_expect(doc, map, LAD_YMAP, "datapath", err)) ||
        (rc = lad_ymap_check_keys(doc, map, dp_keys, err)))
        return rc;
    d->mark = mark_of(map);
    for (int i = 0; dp_required[i]; i++)
        if ((rc = lad_ymap_need(doc, map, dp_required[i], &v, err)))
            return rc;
    if ((rc = opt_str(doc, map, "name", d->name, sizeof d->name, &d->m_name, err)) ||
        (rc = opt_str(doc, map, "arch", d->arch, sizeof d->arch, &d->m_arch, err)) ||
        (rc = opt_str(doc, map, "instr", d->instr, sizeof d->instr, &d->m_instr, err)) ||
        (rc = opt_str(doc, map, "kind", d->kind, sizeof d->kind, &d->m_kind, err)) ||
        (rc = opt_str(doc, map, "shape", d->shape, sizeof d->shape, &d->m_shape, err)) ||
        (rc = opt_str(doc, map, "sass", d->sass, sizeof d->sass, &d->m_sass, err)) ||
        (rc = opt_fmt(doc, map, "a", r, &d->a, &d->a_known, &d->m_a, err)) ||
        (rc = opt_fmt(doc, map, "b", r, &d->b, &d->b_known, &d->m_b, err)) ||
        (rc = opt_fmt(doc, map, "c", r, &d->c, &d->c_known, &d->m_c, err)) ||
        (rc = opt_fmt(doc, map, "d", r, &d->d, &d->d_known, &d->m_d, err)))
        return rc;
    long long x;
    v = lad_ymap_get(map, "k");
    if ((rc = lad_yint(doc, v, "k", 1, LAD_KMAX, &x, err)))
        return rc;
    d->k = (int)x;
    d->m_k = mark_of(v);
    if ((v = lad_ymap_get(map, "scale_block"))) {
        if ((rc = lad_yint(doc, v, "scale_block", 0, LAD_KMAX, &x, err)))
            return rc;
        d->scale_block = (int)x;
        d->m_scale_block = mark_of(v);
    }
    if ((v = lad_ymap_get(map, "sparse"))) {
        if ((rc = lad_yenum(doc, v, "sparse", lad_sparse_names,
                            &d->sparse, err)))
            return rc;
        d->m_sparse = mark_of(v);
    }
    /* Scale formats go with scale_block, both ways. */
    static const char *const sk[] = {"sa", "sb"};
    lad_format *sf[] = {&d->sa, &d->sb};
    lad_mark *sm[] = {&d->m_sa, &d->m_sb};
    for (int i = 0; i < 2; i++) {
        v = lad_ymap_get(map, sk[i]);
        if (v == NULL && d->scale_block > 0)
            return lad_yerr(doc, map, err, "missing key '%s' (scale_block is %d)",
                            sk[i], d->scale_block);
        if (v == NULL)
            continue;
        if (d->scale_block == 0)
            return lad_yerr(doc, v, err,
                            "'%s' needs a nonzero 'scale_block'", sk[i]);
        if ((rc = opt_fmt(doc, map, sk[i], r, sf[i], &known, sm[i], err)))
            return rc;
        if (!known)
            return lad_yerr(doc, v, err,
                            "scale format '%s' must have a known decode",
                            sf[i]->name);
    }
    /* When every format is known, the instruction must make sense to the
    ** model (K a multiple of the sparsity chunk, scales in range...). */
    if (d->a_known && d->b_known && d->c_known && d->d_known) {
        lad_datapath dp;
        lad_err e = {0};
        lad_recipe_datapath(r, &dp);
        if (lad_datapath_check(&dp, &e) != LAD_OK)
            return lad_yerr(doc, map, err, "%s", e.msg);
    }
    return LAD_OK;
}

static int read_device(const lad_ydoc *doc, const lad_ynode *root,
                       lad_recipe *r, lad_err *err)
{
    const lad_ynode *v = lad_ymap_get(root, "device");
    if (v == NULL) {
        snprintf(r->device, sizeof r->device, "sim:%s", r->dp.name);
        return LAD_OK;
    }
    int rc = lad_ystr(doc, v, "device", r->device, sizeof r->device, err);
    if (rc)
        return rc;
    r->m_device = mark_of(v);
    static const char *const kinds[] = {"sim:", "exec:", "exec-framed:", "cuda:"};
    for (int i = 0; i < 4; i++) {
        size_t n = strlen(kinds[i]);
        if (strncmp(r->device, kinds[i], n) == 0) {
            if (r->device[n] == 0)
                return lad_yerr(doc, v, err, "'device' names no %.*s device",
                                (int)n - 1, kinds[i]);
            return LAD_OK;
        }
    }
    return lad_yerr(doc, v, err,
                    "'device' must start with sim:, exec:, exec-framed: or "
                    "cuda:, not "
                    "'%.40s'",
                    r->device);
}

/* One parameter of a rung. */
static int read_param(const lad_ydoc *doc, const lad_ynode *v, const pdef *p,
                      const lad_recipe *r, long long *out, lad_err *err)
{
    int rc, x;
    switch (p->type) {
    case P_INT:
        return lad_yint(doc, v, p->name, p->lo, p->hi, out, err);
    case P_ALLINT:
        if (v->kind == LAD_YSCALAR && v->plain && strcmp(v->str, "all") == 0) {
            *out = LAD_RECIPE_ALL;
            return LAD_OK;
        }
        if (v->kind == LAD_YSCALAR && v->plain && v->len > 0 &&
            strspn(v->str, "+-0123456789") != v->len)
            return lad_yerr(doc, v, err,
                            "'%s' must be all or an integer, not '%.40s'",
                            p->name, v->str);
        if ((rc = lad_yint(doc, v, p->name, p->lo, p->hi, out, err)))
            return rc;
        if (*out > r->dp.k)
            return lad_yerr(doc, v, err, "'%s' must be at most k (%d), not %lld",
                            p->name, r->dp.k, *out);
        return LAD_OK;
    case P_ENUM:
        rc = lad_yenum(doc, v, p->name, p->names, &x, err);
        *out = x;
        return rc;
    case P_BOOL:
        rc = lad_ybool(doc, v, p->name, &x, err);
        *out = x;
        return rc;
    }
    return lad_errf(err, LAD_EINTERNAL, "bad parameter type");
}

static int read_rung(const lad_ydoc *doc, const lad_ynode *it, lad_recipe *r,
                     lad_rung *g, lad_err *err)
{
    const lad_ynode *name = it, *map = NULL;
    int rc;
    if (it->kind == LAD_YMAP) {
        map = it;
        lad_ynode *v;
        if ((rc = lad_ymap_need(doc, map, "rung", &v, err)))
            return rc;
        name = v;
    } else if (it->kind != LAD_YSCALAR) {
        return lad_yerr(doc, it, err,
                        "a rung must be a name or a mapping, not %s",
                        lad_ykind_name(it->kind));
    }
    if (name->kind != LAD_YSCALAR)
        return lad_yerr(doc, name, err, "'rung' must be a name, not %s",
                        lad_ykind_name(name->kind));
    if (name->len == 0)
        return lad_yerr(doc, name, err, "missing rung name");
    g->id = lad_rung_find(name->str);
    if (g->id < 0 && lad_rung_nearest(name->str))
        return lad_yerr(doc, name, err, "unknown rung '%.40s'; did you mean '%s'?",
                        name->str, lad_rung_nearest(name->str));
    if (g->id < 0)
        return lad_yerr(doc, name, err, "unknown rung '%.40s'", name->str);
    g->mark = mark_of(it);
    const struct rungdef *def = &rungdefs[g->id];
    for (int i = 0; i < LAD_RUNG_MAXPARAMS && def->p[i].name; i++)
        g->param[i] = def->p[i].def;
    if (map == NULL)
        return LAD_OK;
    for (int i = 0; i < map->n; i++) {
        const lad_ynode *k = map->kids[2 * i];
        if (strcmp(k->str, "rung") == 0)
            continue;
        int pi = param_index(g->id, k->str);
        if (pi < 0)
            return lad_yerr(doc, k, err, "unknown parameter '%.40s' for rung '%s'",
                            k->str, def->name);
        const lad_ynode *v = map->kids[2 * i + 1];
        if ((rc = read_param(doc, v, &def->p[pi], r, &g->param[pi], err)))
            return rc;
        g->pmark[pi] = mark_of(v);
    }
    return LAD_OK;
}

static int read_rungs(const lad_ydoc *doc, const lad_ynode *root,
                      lad_recipe *r, lad_err *err)
{
    lad_ynode *seq;
    int rc;
    if ((rc = lad_ymap_need(doc, root, "rungs", &seq, err)) ||
        (rc = lad_ynode_expect(doc, seq, LAD_YSEQ, "rungs", err)))
        return rc;
    r->m_rungs = mark_of(seq);
    if (seq->n == 0)
        return lad_yerr(doc, seq, err, "'rungs' must not be empty");
    if (seq->n > LAD_RECIPE_MAXRUNGS)
        return lad_yerr(doc, seq->kids[LAD_RECIPE_MAXRUNGS], err,
                        "more than %d rungs", LAD_RECIPE_MAXRUNGS);
    for (int i = 0; i < seq->n; i++) {
        lad_rung *g = &r->rungs[i];
        if ((rc = read_rung(doc, seq->kids[i], r, g, err)))
            return rc;
        for (int j = 0; j < i; j++)
            if (r->rungs[j].id == g->id)
                return lad_yerr(doc, seq->kids[i], err,
                                "rung '%s' is listed twice (first at %d:%d)",
                                lad_rung_name(g->id), r->rungs[j].mark.line,
                                r->rungs[j].mark.col);
        if (g->id == LAD_RUNG_SCALING && r->dp.scale_block == 0)
            return lad_yerr(doc, seq->kids[i], err,
                            "rung 'scaling' needs a block-scaled datapath "
                            "(scale_block)");
        r->nrungs = i + 1;
    }
    return LAD_OK;
}

static int read_random(const lad_ydoc *doc, const lad_ynode *root,
                       lad_recipe *r, lad_err *err)
{
    static const char *const keys[] = {"cases", "finite", "seed", NULL};
    lad_recipe_random *rd = &r->random;
    rd->cases = 1000000;
    rd->finite = 50; /* ladder validate's own default, --raw 50 */
    rd->seed = 1;
    const lad_ynode *map = lad_ymap_get(root, "random"), *v;
    if (map == NULL)
        return LAD_OK;
    int rc;
    long long x;
    if ((rc = lad_ynode_expect(doc, map, LAD_YMAP, "random", err)) ||
        (rc = lad_ymap_check_keys(doc, map, keys, err)))
        return rc;
    rd->mark = mark_of(map);
    if ((v = lad_ymap_get(map, "cases"))) {
        if ((rc = lad_yint(doc, v, "cases", 0, LAD_RECIPE_MAXCASES, &x, err)))
            return rc;
        rd->cases = x;
        rd->m_cases = mark_of(v);
    }
    if ((v = lad_ymap_get(map, "finite"))) {
        if ((rc = lad_yint(doc, v, "finite", 0, 100, &x, err)))
            return rc;
        rd->finite = (int)x;
        rd->m_finite = mark_of(v);
    }
    if ((v = lad_ymap_get(map, "seed"))) {
        if ((rc = lad_yint(doc, v, "seed", 0, 9223372036854775807LL, &x, err)))
            return rc;
        rd->seed = (uint64_t)x;
        rd->m_seed = mark_of(v);
    }
    return LAD_OK;
}

static const char *const top_keys[] = {"recipe", "description", "datapath",
                                       "device", "formats", "rungs", "random",
                                       NULL};

static int read_recipe(const lad_ydoc *doc, lad_recipe *r, lad_err *err)
{
    const lad_ynode *root = doc->root, *v;
    int rc;
    if (root->kind != LAD_YMAP)
        return lad_yerr(doc, root, err, "a recipe must be a mapping, not %s",
                        lad_ykind_name(root->kind));
    if ((rc = lad_ymap_check_keys(doc, root, top_keys, err)) ||
        (rc = read_version(doc, root, r, err)))
        return rc;
    if ((v = lad_ymap_get(root, "description"))) {
        if ((rc = lad_ystr(doc, v, "description", r->description,
                           sizeof r->description, err)))
            return rc;
        r->m_description = mark_of(v);
    }
    if ((rc = read_formats(doc, root, r, err)) ||
        (rc = read_datapath(doc, root, r, err)) ||
        (rc = read_device(doc, root, r, err)) ||
        (rc = read_rungs(doc, root, r, err)) ||
        (rc = read_random(doc, root, r, err)))
        return rc;
    return LAD_OK;
}

int lad_recipe_parse(const char *file, const char *text, size_t len,
                     lad_recipe *r, lad_err *err)
{
    memset(r, 0, sizeof *r);
    lad_ydoc doc;
    int rc = lad_yaml_parse(file, text, len, &doc, err);
    if (rc)
        return rc;
    rc = read_recipe(&doc, r, err);
    lad_yaml_free(&doc);
    if (rc == LAD_OK) {
        r->path = strdup(file);
        r->text = malloc(len + 1);
        if (r->path == NULL || r->text == NULL) {
            rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
        } else {
            memcpy(r->text, text, len);
            r->text[len] = 0;
            r->textlen = len;
            lad_sha256_hex(text, len, r->sha256);
        }
    }
    if (rc)
        lad_recipe_free(r);
    return rc;
}

int lad_recipe_load(const char *path, lad_recipe *r, lad_err *err)
{
    char *text;
    size_t len;
    memset(r, 0, sizeof *r);
    int rc = lad_yaml_read_file(path, &text, &len, err);
    if (rc)
        return rc;
    rc = lad_recipe_parse(path, text, len, r, err);
    free(text);
    /* A sim: model the file names (its device key; not the sim:<datapath>
    ** one without it means) that is neither a preset nor a file names
    ** nothing: bad data, at its place. Only here, for the file about to
    ** run: a run's stored recipe is read again (infer, show) wherever its
    ** model file went. */
    const char *m = rc == LAD_OK && r->m_device.line > 0 && strncmp(r->device, "sim:", 4) == 0
                        ? r->device + 4
                        : NULL;
    FILE *f = m && !lad_preset_find(m) ? fopen(m, "rb") : NULL;
    if (m && !lad_preset_find(m) && f == NULL) {
        lad_err u = {0};
        lad_model_unknown(m, &u);
        rc = lad_errf_at(err, LAD_EDATA, path, r->m_device.line, r->m_device.col, "%s", u.msg);
        lad_recipe_free(r);
    }
    if (f)
        fclose(f);
    return rc;
}

void lad_recipe_free(lad_recipe *r)
{
    if (r == NULL)
        return;
    free(r->path);
    free(r->text);
    memset(r, 0, sizeof *r);
}

void lad_recipe_datapath(const lad_recipe *r, lad_datapath *dp)
{
    const lad_recipe_instr *d = &r->dp;
    lad_datapath_init(dp);
    memcpy(dp->name, d->name, sizeof dp->name);
    memcpy(dp->arch, d->arch, sizeof dp->arch);
    memcpy(dp->instr, d->instr, sizeof dp->instr);
    memcpy(dp->kind, d->kind, sizeof dp->kind);
    memcpy(dp->shape, d->shape, sizeof dp->shape);
    memcpy(dp->sass, d->sass, sizeof dp->sass);
    dp->a = d->a;
    dp->b = d->b;
    dp->c = d->c;
    dp->d = d->d;
    dp->k = d->k;
    dp->pass = d->k;
    dp->integer = d->a.kind == LAD_INT && d->b.kind == LAD_INT;
    if (dp->integer)
        dp->acc = d->d;
    else if (d->d_known && d->d.kind == LAD_FLOAT)
        dp->nan = lad_format_nan(&d->d);
    if (d->scale_block > 0) {
        dp->sa = d->sa;
        dp->sb = d->sb;
        dp->scale_block = d->scale_block;
    }
    dp->sparse = d->sparse;
    dp->pass = lad_datapath_kphys(dp);
}

/* ---- a recipe of a preset (recipe.h) ---- */

/* A format as the recipe names it: a built-in by name; any other (a cut
** result format such as e8m13) by the container it arrives in. */
static const char *recipe_format(const lad_format *f)
{
    if (lad_format_find(f->name))
        return f->name;
    return f->width > 16 ? "f32" : "f16";
}

/* The recipe of preset p: what an experimenter knows about the instruction
** and nothing of its arithmetic (as tests/data/recipe-gen.sh writes it). */
char *lad_recipe_of(const lad_datapath *dp, const char *device, int random_cases, int decide)
{
    lad_buf b = {0};
    lad_buf_printf(&b, "recipe: 1\ndatapath:\n  name: %s\n  arch: %s\n  instr: %s\n",
                   dp->name, dp->arch, dp->instr);
    const char *opt[][2] = {{"kind", dp->kind}, {"shape", dp->shape}, {"sass", dp->sass}};
    for (int i = 0; i < 3; i++)
        if (opt[i][1][0])
            lad_buf_printf(&b, "  %s: %s\n", opt[i][0], opt[i][1]);
    lad_buf_printf(&b, "  a: %s\n  b: %s\n  c: %s\n  d: %s\n  k: %d\n", recipe_format(&dp->a),
                   recipe_format(&dp->b), recipe_format(&dp->c), recipe_format(&dp->d), dp->k);
    if (dp->scale_block)
        lad_buf_printf(&b, "  sa: %s\n  sb: %s\n  scale_block: %d\n", dp->sa.name, dp->sb.name,
                       dp->scale_block);
    if (dp->sparse)
        lad_buf_printf(&b, "  sparse: %s\n", lad_sparse_names[dp->sparse]);
    lad_buf_printf(&b, "device: %s\n", device);
    lad_buf_printf(&b, "rungs: [instruction, slice, lanes, truncation, visible, internal, ulp, "
                       "grouping, zeros, specials%s, random%s]\n",
                   dp->scale_block ? ", scaling" : "", decide ? ", decide" : "");
    lad_buf_printf(&b, "random: {cases: %d, finite: 50, seed: 1}\n", random_cases);
    return lad_buf_take(&b);
}
