/*
** YAML documents as small trees of located nodes.
**
** Recipes and model files are YAML. This module walks libyaml's event stream
** (not its document API, so that every limit is ours) and builds a tree of
** three node kinds (scalar, sequence, mapping) in which every node keeps the
** 1-based line and column it starts at. Loaders then read typed values out of
** the tree with the helpers below, which all fail with a located message,
**
**     recipe.yaml:12:5: unknown key 'widht'
**
** Inputs are untrusted, so the walker sets its own limits (libyaml 0.2.5 has
** none on nesting) and refuses what the formats never need: anchors, aliases,
** tags, more than one document, duplicate keys, and keys that are not plain
** scalars. Sizes: a file is at most LAD_YAML_MAXSIZE bytes, so parsing is
** cheap; the tree is freed in one call.
*/
#ifndef LADDER_IO_YAML_H
#define LADDER_IO_YAML_H

#include <stddef.h>
#include <stdint.h>
#include "../util/err.h"

#define LAD_YAML_MAXSIZE (1 << 20)  /* bytes in a file */
#define LAD_YAML_MAXDEPTH 16        /* collections nested in each other */
#define LAD_YAML_MAXNODES 100000    /* nodes in a document */
#define LAD_YAML_MAXSCALAR 4096     /* bytes in one scalar */

enum lad_ykind { LAD_YSCALAR = 0, LAD_YSEQ = 1, LAD_YMAP = 2 };

typedef struct lad_ynode lad_ynode;
struct lad_ynode {
    int kind;          /* enum lad_ykind */
    int line, col;     /* where the node starts, 1-based */
    int plain;         /* scalars: 1 when unquoted (only plain scalars are
                          numbers, booleans or `none`) */
    char *str;         /* scalars: the text, NUL-terminated (no NUL inside) */
    size_t len;        /* scalars: strlen(str) */
    int n;             /* sequences: items; mappings: pairs */
    lad_ynode **kids;  /* sequences: n items; mappings: 2n nodes, key then
                          value (keys are always scalars) */
    int cap;           /* slots allocated in kids */
    lad_ynode *next_alloc; /* every node of the document, for freeing */
};

typedef struct lad_ydoc {
    char file[256];    /* name used in messages */
    lad_ynode *root;   /* the document's top node; never NULL after a load */
    lad_ynode *nodes;  /* allocation list */
    int count;         /* nodes allocated */
} lad_ydoc;

/* Parses len bytes of YAML text (named `file` in messages) into doc. An
** empty stream (nothing but comments) is an error, so doc->root is set on
** success. Returns LAD_OK, LAD_EDATA with a located message, or
** LAD_EINTERNAL when out of memory. On failure doc holds nothing to free,
** but lad_yaml_free is still safe to call. */
int lad_yaml_parse(const char *file, const char *text, size_t len,
                   lad_ydoc *doc, lad_err *err);

/* Reads the whole file at path (at most LAD_YAML_MAXSIZE bytes) into a
** malloc'ed NUL-terminated buffer. Returns LAD_OK and sets *text, *len, or
** LAD_EDATA ("cannot open 'x'", "'x' is larger than ..."). */
int lad_yaml_read_file(const char *path, char **text, size_t *len,
                       lad_err *err);

/* lad_yaml_read_file followed by lad_yaml_parse. */
int lad_yaml_load(const char *path, lad_ydoc *doc, lad_err *err);

/* Frees the tree; doc may be zeroed or partly filled. */
void lad_yaml_free(lad_ydoc *doc);

/* Name of a kind for messages: "a scalar", "a sequence", "a mapping". */
const char *lad_ykind_name(int kind);

/*
** Typed access. Every function below returns LAD_OK, or LAD_EDATA with a
** message located at the offending node; `what` names the value in the
** message (usually its key: 'k must be ...').
*/

/* Value of key in a mapping, or NULL when absent. */
lad_ynode *lad_ymap_get(const lad_ynode *map, const char *key);
/* Key node of the pair whose value is v, or NULL (for locating messages). */
lad_ynode *lad_ymap_key_of(const lad_ynode *map, const lad_ynode *v);

/* Fails with "unknown key 'x'" at the first key of map not in the
** NULL-terminated list allowed. */
int lad_ymap_check_keys(const lad_ydoc *doc, const lad_ynode *map,
                        const char *const *allowed, lad_err *err);
/* Sets *out to the value of key; fails with "missing key 'key'" located at
** the mapping when absent. */
int lad_ymap_need(const lad_ydoc *doc, const lad_ynode *map, const char *key,
                  lad_ynode **out, lad_err *err);

/* Fails unless node is of `kind`: "'what' must be a mapping". */
int lad_ynode_expect(const lad_ydoc *doc, const lad_ynode *node, int kind,
                     const char *what, lad_err *err);

/* A plain decimal integer (optional sign) within lo..hi. */
int lad_yint(const lad_ydoc *doc, const lad_ynode *node, const char *what,
             long long lo, long long hi, long long *out, lad_err *err);
/* `true` or `false`. */
int lad_ybool(const lad_ydoc *doc, const lad_ynode *node, const char *what,
              int *out, lad_err *err);
/* One of the NULL-terminated names; *out is its index. */
int lad_yenum(const lad_ydoc *doc, const lad_ynode *node, const char *what,
              const char *const *names, int *out, lad_err *err);
/* A non-empty string of at most size-1 bytes, copied into buf (zero-filled
** to size). */
int lad_ystr(const lad_ydoc *doc, const lad_ynode *node, const char *what,
             char *buf, size_t size, lad_err *err);
/* A word in hex (optional 0x), at most 64 bits (16 digits). */
int lad_yhex64(const lad_ydoc *doc, const lad_ynode *node, const char *what,
               uint64_t *out, lad_err *err);

/* Records a message located at node: lad_errf_at(err, LAD_EDATA, doc->file,
** node->line, node->col, ...). */
int lad_yerr(const lad_ydoc *doc, const lad_ynode *node, lad_err *err,
             const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
