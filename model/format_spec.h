/*
** Format specs: user-defined number formats written on one line.
**
** Wherever a command or a recipe takes a format name it also takes a spec,
** so a format the built-in table lacks works everywhere a built-in does:
**
**     <base>[:<key>=<value>[,<key>=<value>]...]
**
** <base> is a built-in name (f32 tf32 bf16 f16 e4m3 e5m2 e2m3 e3m2 e2m1
** ue8m0 ue4m3 s8 u8 s32), whose fields the keys then change, or a generic
** shape:
**
**     eXmY    signed float, X exponent bits (1..10), Y fraction bits (0..23),
**             IEEE style: bias 2^(X-1)-1, subnormals, Inf, NaN
**     ueXmY   the same without a sign bit
**     sN, uN  N-bit two's-complement (2..32 bits) or unsigned (1..32 bits)
**             integer; only width, sign and name apply to integers (bias,
**             sub, inf, nan are refused)
**
** Keys (a float's width follows from sign + ebits + mbits + pad unless
** width is given):
**
**     bias=<int>              exponent bias
**     sub=ieee|flush|none     exponent field 0: subnormals, zero, or a binade
**     inf=ieee|none           top exponent with zero fraction is Inf, or not
**     nan=ieee|ones|none      NaN codes: any nonzero fraction at the top
**                             exponent, only the all-ones fraction there, or
**                             none at all
**     pad=<bits>              unused low bits of the word (tf32: 13)
**     width=<bits>            bits in the stored word
**     sign=0|1
**     name=<text>             the name printed in place of the spec
**
** Examples: "e3m4" (IEEE-like 8-bit), "e4m3:bias=8", "e5m2:inf=none,nan=ones",
** "e8m7:name=mybf16". A built-in name alone is the built-in format.
*/
#ifndef LADDER_MODEL_FORMAT_SPEC_H
#define LADDER_MODEL_FORMAT_SPEC_H

#include <stddef.h>

#include "../util/err.h"
#include "format.h"

/* Parses a spec into *out. Returns LAD_OK, or LAD_EDATA with err naming the
** problem ("unknown key 'bais' in format 'e3m4:bais=7'"); the resulting
** format always passes lad_format_check. */
int lad_format_parse(const char *spec, lad_format *out, lad_err *err);

/* Writes the spec that describes f completely ("e3m4:bias=7,sub=ieee,
** inf=ieee,nan=ieee" style, with no name key) into buf. Returns the length
** the text needs, like snprintf. */
size_t lad_format_spec(const lad_format *f, char *buf, size_t size);

/* Writes the shortest spec of f's fields: its shape, or the built-in of that
** name (ue4m3), and only the keys whose values differ from what that base
** gives ("e3m4:bias=5", "e8m13:pad=10,width=32"), with no name key. Returns
** the length the text needs, like snprintf. */
size_t lad_format_spec_short(const lad_format *f, char *buf, size_t size);

#endif
