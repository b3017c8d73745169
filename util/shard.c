/* Shards of a stream of cases; see shard.h. */
#include "shard.h"

static uint64_t edge(uint64_t cases, uint64_t index, uint64_t count)
{
    return (uint64_t)((unsigned __int128)cases * index / count);
}

void lad_shard_range(uint64_t cases, uint64_t index, uint64_t count, uint64_t *first,
                     uint64_t *n)
{
    *first = edge(cases, index, count);
    *n = edge(cases, index + 1, count) - *first;
}
