/*
** The whole answer of inference (inference/answer.h) as fit and infer print
** it: the rows decided, open, equivalent and not in effect, with values.
*/
#ifndef LADDER_CLI_ANSWERVIEW_H
#define LADDER_CLI_ANSWERVIEW_H

#include <stdio.h>
#include "inference/answer.h"

/* The answer's lines (docs/commands/fit.md, "Output"). */
void cli_answer_print(FILE *f, const lad_answer *a);

/* The answer as one JSON object: rows {key: status}, open and equivalent
** values, cases searched, next cases. */
void cli_answer_json(FILE *f, const lad_answer *a);

#endif
