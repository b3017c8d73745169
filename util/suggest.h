/*
** "Did you mean": the known name nearest to a mistyped one. The caller
** offers every name it knows, one at a time; the nearest by edit distance
** (insertions, deletions, substitutions and swaps of two neighbours, each
** one step) is kept, and is given back only when it is near enough to be
** a typing slip: at most a third of the word's length in steps, at least
** one and at most four. Names and words past 63 bytes are compared on
** their first 63. libc only.
**
**     lad_suggest s;
**     lad_suggest_init(&s, "infr");
**     for (...) lad_suggest_add(&s, name);
**     const char *m = lad_suggest_best(&s);   // "infer", or NULL
*/
#ifndef LADDER_UTIL_SUGGEST_H
#define LADDER_UTIL_SUGGEST_H

typedef struct lad_suggest {
    const char *word;   /* what was typed */
    const char *best;   /* the nearest name offered so far; NULL: none */
    int dist;           /* its distance in steps */
} lad_suggest;

void lad_suggest_init(lad_suggest *s, const char *word);

/* Offers name (which must outlive s); on a tie the first offered stays. */
void lad_suggest_add(lad_suggest *s, const char *name);

/* The nearest name when it is near enough (see above), else NULL. An exact
** match is no suggestion either: NULL. */
const char *lad_suggest_best(const lad_suggest *s);

#endif
