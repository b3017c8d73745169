/*
** Rung (a), instruction: the tensor opcode that actually ran, compared with
** the one the recipe expects. Only a cuda device knows the executed SASS;
** elsewhere the rung records "unknown" and says why the check does not
** apply (a simulated device executes none; an exec device does not say). A device that ran another opcode
** ends the run: nothing measured on the wrong instruction means anything.
*/
#include "ladder.h"

#include <stdio.h>
#include <string.h>

int lad_rung_instruction(lad_probe *p)
{
    const char *want = p->dp.sass, *got = p->dev->info.sass;
    int rc;
    if ((rc = lad_probe_observe(p, "expected", NULL, 0, "%s", *want ? want : "unknown")) ||
        (rc = lad_probe_observe(p, "executed", NULL, 0, "%s", *got ? got : "unknown")))
        return rc;
    if (*got && (rc = lad_store_set_sass(p->st, p->run, got, p->err)))
        return rc;
    const char *match = !*got || !*want ? "unknown" : strcmp(got, want) == 0 ? "yes" : "no";
    if ((rc = lad_probe_observe(p, "match", NULL, 0, "%s", match)))
        return rc;
    const char *kind = p->dev->info.kind;
    if (!*got && strcmp(kind, "sim") == 0)
        snprintf(p->summary, sizeof p->summary, "expected %s; does not apply: a simulated "
                 "device executes no SASS", *want ? want : "unknown");
    else if (!*got)
        snprintf(p->summary, sizeof p->summary, "expected %s; not checked: the %s device "
                 "does not say what it executed", *want ? want : "unknown", kind);
    else
        snprintf(p->summary, sizeof p->summary, "expected %s, executed %s",
                 *want ? want : "unknown", got);
    if (strcmp(match, "no") == 0)
        return lad_errf(p->err, LAD_EDEVICE, "the device executed '%s', the recipe expects '%s'",
                        got, want);
    return LAD_OK;
}
