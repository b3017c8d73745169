/*
** The whole answer of inference (inference/answer.h) as fit and infer
** print it in JSON (lad_answer_print gives the lines).
*/
#ifndef LADDER_CLI_ANSWERVIEW_H
#define LADDER_CLI_ANSWERVIEW_H

#include <stdio.h>
#include "inference/answer.h"

/* The answer as one JSON object: rows {key: status}, open and equivalent
** values, cases searched, next cases. */
void cli_answer_json(FILE *f, const lad_answer *a);

#endif
