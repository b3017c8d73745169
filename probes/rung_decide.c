/*
** Rung (m), decide: the rows the cases so far leave open, decided on the
** device. The caller's inference (lad_ladder_opts.next: lad_infer_next)
** infers the model from every case the run stored, takes its whole answer
** (inference/answer.h) and returns the cases that separate the open values
** from the model; they run on the device as this rung's cases (series
** "decide", the open rows their target), and the round repeats until no
** row is open, no model reproduces every case (a conflict, which more
** cases cannot settle), or DECIDE_ROUNDS rounds have run. `ladder infer`
** then reads a decided answer. Resumed, the stored cases stand as they are.
*/
#include "ladder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DECIDE_ROUNDS 6

/* The inference of a round, in the rung's progress: "decide round 2:
** fitting the ulp cases". */
typedef struct round_progress {
    lad_probe *p;
    int round;
} round_progress;

static void infer_progress(void *ctx, const char *step, size_t done, size_t total)
{
    round_progress *rp = ctx;
    char name[160];
    snprintf(name, sizeof name, "%s round %d: %s", rp->p->rung_name, rp->round, step);
    rp->p->progress(rp->p->progress_ctx, name, done, total);
}

int lad_rung_decide(lad_probe *p)
{
    if (p->replayed) {
        p->rung_cases = p->nreplay;
        snprintf(p->summary, sizeof p->summary, "%zu stored cases", p->nreplay);
        return LAD_OK;
    }
    if (p->next == NULL)
        return lad_errf(p->err, LAD_EUSAGE, "the decide rung needs inference, which this "
                        "command does not give it");
    int rc = LAD_OK, round = 0;
    const char *why = "no row open";
    char open[96] = "";
    for (; round < DECIDE_ROUNDS; round++) {
        lad_case *next = NULL;
        int n = 0;
        round_progress rp = {p, round + 1};
        rc = p->next(p->st, p->run, &next, &n, open, sizeof open,
                     p->progress ? infer_progress : NULL, &rp, p->err);
        if (rc == LAD_NO) {
            free(next);
            lad_err_clear(p->err);
            rc = LAD_OK;
            why = "no model reproduces every case";
            break;
        }
        if (rc != LAD_OK || n == 0) {
            free(next);
            why = open[0] ? "open rows, no separating case" : "no row open";
            break;
        }
        lad_batch b = {0};
        lad_batch_series(&b, "decide", open);
        for (int j = 0; j < n && rc == LAD_OK; j++)
            rc = lad_batch_add(&b, &next[j], "decide round %d: %.40s", round + 1, open);
        free(next);
        lad_word_t *d = NULL;
        int64_t *ids = NULL;
        if (rc == LAD_OK)
            rc = lad_probe_run(p, &b, &d, &ids);
        free(d);
        free(ids);
        lad_batch_free(&b);
        if (rc != LAD_OK)
            break;
        why = "rows still open";
    }
    if (rc == LAD_OK && round == 0)
        snprintf(p->summary, sizeof p->summary, "none to run: %s", why);
    else if (rc == LAD_OK)
        snprintf(p->summary, sizeof p->summary, "%zu cases in %d round%s; %s%s%.80s",
                 p->rung_cases, round, round == 1 ? "" : "s", why,
                 strcmp(why, "rows still open") == 0 ? ": " : "",
                 strcmp(why, "rows still open") == 0 ? open : "");
    return rc;
}
