/*
** JSON output for the commands' --json modes: strings escaped per RFC 8259,
** everything else printed by the caller with printf. Output only; ladder
** never reads JSON.
*/
#ifndef LADDER_CLI_JSON_H
#define LADDER_CLI_JSON_H

#include <stdio.h>

/* Prints s as a JSON string, quotes included ("" for NULL). */
void cli_json_str(FILE *f, const char *s);

/* Prints "key": (key a JSON-safe literal) preceded by ", " unless first. */
void cli_json_key(FILE *f, const char *key, int first);

struct lad_datapath;

/* Prints a model as one JSON object: every parameter by its key, each value
** a string as a model file writes it ("25", "rne", "bf16", "true"), then
** "evidence" (NULL: ""). No newline. */
void cli_json_model(FILE *f, const struct lad_datapath *dp, const char *evidence);

#endif
