/*
** Program files (program.h): each key of the `program:` mapping is handed
** as text to lad_program_set, the one place that knows the keys' values,
** and an error it reports is located at the value.
*/
#include "program.h"
#include "yaml.h"

#include <string.h>
#include <unistd.h>

#include "../util/suggest.h"

static int from_doc(const lad_ydoc *doc, lad_program *prog, lad_err *err)
{
    static const char *const top[] = {"program", NULL};
    lad_ynode *map;
    int rc = lad_ynode_expect(doc, doc->root, LAD_YMAP, "the document", err);
    if (rc == LAD_OK)
        rc = lad_ymap_check_keys(doc, doc->root, top, err);
    if (rc == LAD_OK)
        rc = lad_ymap_need(doc, doc->root, "program", &map, err);
    if (rc == LAD_OK)
        rc = lad_ynode_expect(doc, map, LAD_YMAP, "program", err);
    if (rc == LAD_OK)
        rc = lad_ymap_check_keys(doc, map, lad_program_keys, err);
    for (int i = 0; rc == LAD_OK && i < map->n; i++) {
        const lad_ynode *k = map->kids[2 * i], *v = map->kids[2 * i + 1];
        lad_err e = {0};
        if (v->kind != LAD_YSCALAR)
            return lad_errf_at(err, LAD_EDATA, doc->file, v->line, v->col,
                               "'%s' must be a scalar", k->str);
        if (lad_program_set(prog, k->str, v->str, &e) != LAD_OK)
            return lad_errf_at(err, e.code, doc->file, v->line, v->col, "%s", e.msg);
    }
    return rc;
}

int lad_program_load(const char *path, lad_program *prog, lad_err *err)
{
    lad_ydoc doc;
    memset(&doc, 0, sizeof doc);
    lad_program_init(prog);
    int rc = lad_yaml_load(path, &doc, err);
    if (rc == LAD_OK)
        rc = from_doc(&doc, prog, err);
    lad_yaml_free(&doc);
    return rc;
}

int lad_program_resolve(const char *spec, lad_program *prog, lad_err *err)
{
    const lad_program *p = lad_program_preset_find(spec);
    if (p) {
        *prog = *p;
        return LAD_OK;
    }
    if (access(spec, F_OK) != 0) {
        /* a name the user gave that names nothing: a usage error */
        lad_suggest s;
        lad_suggest_init(&s, spec);
        for (int i = 0; i < lad_program_preset_count(); i++)
            lad_suggest_add(&s, lad_program_preset_get(i)->name);
        const char *near = lad_suggest_best(&s);
        return lad_errf(err, LAD_EUSAGE, "unknown program preset or file '%s'%s%s%s", spec,
                        near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    }
    return lad_program_load(spec, prog, err);
}
