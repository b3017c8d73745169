/*
** SHA-256 (FIPS 180-4), for the hash the store keeps of every recipe text so
** that two runs of the same recipe can be recognised (and a recipe found by
** `sha256sum`). Small and slow enough for kilobytes, which is what it hashes.
**
** Why util/: both the recipe loader (probes/recipe.c, which hashes the text
** it read) and the store (db/store.c, which hashes a recipe it is handed
** without one) need it, and neither may include the other's folder from
** below. util/ holds such libc-only modules and includes nothing of the
** project, so every layer can use it. Not model/: a hash is no part of the
** datapath model, and libladder should not carry it.
*/
#ifndef LADDER_UTIL_SHA256_H
#define LADDER_UTIL_SHA256_H

#include <stddef.h>

/* Writes the 64 lowercase hex digits of SHA-256(data[0..n-1]) and a NUL into
** hex[0..64]. */
void lad_sha256_hex(const void *data, size_t n, char hex[65]);

#endif
