/*
** Cases packed at the widths of their formats: what `ladder fit` keeps of a
** vector file in memory. A lad_case holds every lane a datapath can have
** (LAD_KMAX words of A and of B, 1,060 bytes); a bf16 K=16 case needs 68
** bytes of it. Packing keeps the first k lanes of A and B in the bytes
** their formats' widths need (1, 2 or 4: an fp4 or e4m3 word in one, bf16
** in two, tf32 and f32 in four), C likewise, and the scales and metadata
** the datapath uses, bit for bit: lad_packed_add checks that the case
** unpacks to itself, and widens every word to 4 bytes (repacking what it
** holds) when a word has bits above its format's width.
**
** Workload: millions of cases appended once, then read back many times in
** any order by the search, one case at a time into a caller's lad_case.
*/
#ifndef LADDER_INFERENCE_PACKED_H
#define LADDER_INFERENCE_PACKED_H

#include <stddef.h>
#include <stdint.h>
#include "../model/datapath.h"

typedef struct lad_packed {
    int k, nscale, nmeta;    /* lanes, scales of A and of B, metadata words */
    int wa, wb, wc;          /* bytes of an A, B, C word as packed: 1, 2, 4 */
    size_t stride;           /* bytes per case */
    size_t n, cap;           /* cases held, room for */
    unsigned char *buf;      /* n * stride bytes */
} lad_packed;

/* An empty set for the cases of dp (its K, formats, scales, metadata). */
void lad_packed_init(lad_packed *p, const lad_datapath *dp);

/* Appends cs. Returns LAD_OK; LAD_EDATA when cs has words in lanes, scales
** or metadata past the datapath's; LAD_EINTERNAL when out of memory. */
int lad_packed_add(lad_packed *p, const lad_case *cs, lad_err *err);

/* Case i into *out: writes its k lanes of A and B, C, its scales and
** metadata, and nothing else, so that a lad_case zeroed once can be reused
** for every case. i < p->n. */
void lad_packed_get(const lad_packed *p, size_t i, lad_case *out);

void lad_packed_free(lad_packed *p);

#endif
