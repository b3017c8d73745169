/*
** The page of two surveys compared (`ladder report survey:A survey:B`):
** what `ladder diff survey:A survey:B` prints, as a page. It opens with
** the verdict, one line of counts (=, ≡, differs, only in A, only in B,
** not compared), then names the two surveys, then one row per datapath
** with its verdict, then the witness of each datapath that differs: the
** case, A's word and B's, as diff prints them.
*/
#include "render.h"

#include <inttypes.h>
#include <string.h>

#include "model/params.h"
#include "util/buf.h"

/* The verdict cell's words: "=", "≡", "differs", "only in A", ... */
static const char *pair_word(const lad_report_pair *p)
{
    if (p->kind >= 0)
        return p->kind == LAD_DIFFERS ? "differs" : lad_verdict_names[p->kind];
    return p->only == 1 ? "only in A" : p->only == 2 ? "only in B" : "not compared";
}

static void run_cell(rep_out *o, int64_t run)
{
    if (run > 0)
        rep_cell(o, NULL, 0, "%" PRId64, run);
    else
        rep_cell(o, NULL, 0, "-");
}

void rep_surveydiff_page(rep_out *o, const lad_report *r)
{
    o->ops->section(o, "verdict", "Verdict");
    rep_para(o, "%zu datapaths: %d =, %d \u2261, %d differ, %d only in A, %d only in B, "
             "%d not compared.", r->npairs, r->same, r->equiv, r->differs, r->only_a,
             r->only_b, r->not_compared);
    rep_para(o, "A: %s.", r->side_a);
    rep_para(o, "B: %s.", r->side_b);
    rep_para(o, "Datapaths pair by their names without the generation; each pair is A's "
                "inferred model against B's, as ladder diff judges two models: = the "
                "canonical forms are identical, \u2261 they differ in rows but no case "
                "searched separates them, differs with the case that does.");

    o->ops->section(o, "datapaths", "Datapaths");
    const char *head[] = {"datapath", "run A", "run B", "verdict", "why"};
    o->ops->table(o, 5, head);
    for (size_t i = 0; i < r->npairs; i++) {
        const lad_report_pair *p = &r->pairs[i];
        rep_cell(o, NULL, 0, "%s", p->name);
        run_cell(o, p->run_a);
        run_cell(o, p->run_b);
        rep_cell(o, NULL, p->kind != LAD_SAME && p->kind != LAD_EQUIV, "%s",
                 pair_word(p));
        rep_cell(o, NULL, 0, "%s", p->text);
        o->ops->row_end(o);
    }
    o->ops->table_end(o);

    if (r->differs == 0)
        return;
    o->ops->section(o, "witnesses", "Witnesses");
    rep_para(o, "For each datapath that differs, a case on which A's model and B's return "
                "other words: the input as a vector line, then each word with its value.");
    for (size_t i = 0; i < r->npairs; i++) {
        const lad_report_pair *p = &r->pairs[i];
        if (!p->found)
            continue;
        o->ops->subsection(o, p->name);
        lad_buf b = {0};
        lad_buf_printf(&b, "%s\nin  %s\nA   %s  %s\nB   %s  %s\n", p->text, p->input,
                       p->a_word, p->a_value, p->b_word, p->b_value);
        o->ops->pre(o, b.p && !b.oom ? b.p : "(out of memory)");
        lad_buf_free(&b);
    }
}
