/*
** Shards of a stream of cases: shard `index` of `count` is cases first ..
** first + *n - 1, where first = cases * index / count. The shards of one
** count are disjoint and together are the whole stream, in order, whatever
** machine runs each. The one formula both the generator that draws a
** shard's cases (probes/gen.c) and the merge that checks a shard's count
** (db/store_merge.c) use.
*/
#ifndef LADDER_UTIL_SHARD_H
#define LADDER_UTIL_SHARD_H

#include <stdint.h>

/* index < count; count >= 1. Exact for any cases (a 128-bit product). */
void lad_shard_range(uint64_t cases, uint64_t index, uint64_t count, uint64_t *first,
                     uint64_t *n);

#endif
