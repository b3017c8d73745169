/*
** The nearest name to a mistyped one (util/suggest.h): the optimal string
** alignment distance, computed in three rows of at most 64 cells.
*/
#include "suggest.h"

#include <string.h>

#define MAXLEN 63

/* The edit distance of a and b (first MAXLEN bytes of each). */
static int distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    n = n > MAXLEN ? MAXLEN : n;
    m = m > MAXLEN ? MAXLEN : m;
    int prev2[MAXLEN + 1], prev[MAXLEN + 1], cur[MAXLEN + 1];
    for (size_t j = 0; j <= m; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            int del = prev[j] + 1, ins = cur[j - 1] + 1;
            int d = sub < del ? sub : del;
            d = d < ins ? d : ins;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                prev2[j - 2] + 1 < d)
                d = prev2[j - 2] + 1;
            cur[j] = d;
        }
        memcpy(prev2, prev, sizeof prev);
        memcpy(prev, cur, sizeof cur);
    }
    return prev[m];
}

void lad_suggest_init(lad_suggest *s, const char *word)
{
    s->word = word;
    s->best = NULL;
    s->dist = 0;
}

void lad_suggest_add(lad_suggest *s, const char *name)
{
    int d = distance(s->word, name);
    if (s->best == NULL || d < s->dist) {
        s->best = name;
        s->dist = d;
    }
}

const char *lad_suggest_best(const lad_suggest *s)
{
    size_t len = strlen(s->word);
    int most = (int)(len > MAXLEN ? MAXLEN : len) / 3;
    most = most < 1 ? 1 : most > 4 ? 4 : most;
    return s->best && s->dist > 0 && s->dist <= most ? s->best : NULL;
}
