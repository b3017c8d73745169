/*
** Tensor opcodes from cubin bytes; see cubin.h for the encodings used.
** The ELF reader checks every offset against the image size, since the
** image may come from anywhere.
*/
#include "cubin.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t rd(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Finds section `name`; returns its bytes and size, or NULL. */
static const unsigned char *find_section(const unsigned char *img,
                                         size_t size, const char *name,
                                         size_t *len)
{
    if (size < 64 || memcmp(img, "\177ELF", 4) != 0 || img[4] != 2)
        return NULL; /* not a 64-bit ELF */
    uint64_t shoff = rd(img + 0x28, 8);
    uint64_t shentsize = rd(img + 0x3a, 2), shnum = rd(img + 0x3c, 2);
    uint64_t shstrndx = rd(img + 0x3e, 2);
    if (shentsize < 64 || shstrndx >= shnum || shoff > size ||
        shnum * shentsize > size - shoff)
        return NULL;
    const unsigned char *str = img + shoff + shstrndx * shentsize;
    uint64_t stroff = rd(str + 24, 8), strsize = rd(str + 32, 8);
    if (stroff > size || strsize > size - stroff)
        return NULL;
    size_t nlen = strlen(name);
    for (uint64_t i = 0; i < shnum; i++) {
        const unsigned char *sh = img + shoff + i * shentsize;
        uint64_t nm = rd(sh, 4), off = rd(sh + 24, 8), sz = rd(sh + 32, 8);
        if (nm >= strsize || strsize - nm <= nlen)
            continue;
        if (memcmp(img + stroff + nm, name, nlen + 1) != 0)
            continue;
        if (off > size || sz > size - off)
            return NULL;
        *len = (size_t)sz;
        return img + off;
    }
    return NULL;
}

/* Names one instruction, or returns 0 when it is not a tensor MMA. */
static int name_of(uint64_t w0, uint64_t w1, char *out, size_t n)
{
    unsigned op = (unsigned)(w0 & 0xfff);
    switch (op) {
    case 0x23c:
        snprintf(out, n, "HMMA.%s.%s%s",
                 w1 & 0x800 ? "16816" : w1 & 0x4000 ? "1684" : "1688",
                 w1 & 0x1000 ? "F32" : "F16",
                 w1 & 0x80000 ? ".TF32" : w1 & 0x40000 ? ".BF16" : "");
        return 1;
    case 0x237: snprintf(out, n, "IMMA"); return 1;
    case 0x27a: snprintf(out, n, "QMMA"); return 1;
    case 0x47a: snprintf(out, n, "QMMA.SF"); return 1;  /* block-scaled, sm_120a */
    case 0x47f: snprintf(out, n, "OMMA.SF"); return 1;  /* fp4, block-scaled */
    case 0x9f0: snprintf(out, n, "HGMMA"); return 1;
    case 0x9f1: snprintf(out, n, "IGMMA"); return 1;
    case 0x9f3: snprintf(out, n, "QGMMA"); return 1;
    case 0x5ea:
    case 0xdea:
        if ((w1 & 0x300) == 0x300)
            snprintf(out, n, "UTCQMMA");
        else if ((w1 & 0x300) == 0x100)
            snprintf(out, n, "UTCIMMA");
        else if (w0 >> 62)
            snprintf(out, n, "UTCOMMA");
        else
            snprintf(out, n, "UTCHMMA");
        return 1;
    default:
        return 0;
    }
}

int lad_cubin_tensor_ops(const void *img, size_t size, const char *kernel,
                         char (*names)[32], int max)
{
    char sect[160];
    size_t len = 0;
    if (!img)
        return -1;
    snprintf(sect, sizeof sect, ".text.%s", kernel);
    const unsigned char *text = find_section(img, size, sect, &len);
    if (!text)
        return -1;
    int found = 0;
    for (size_t at = 0; at + 16 <= len; at += 16) {
        char nm[32];
        if (name_of(rd(text + at, 8), rd(text + at + 8, 8), nm, sizeof nm)) {
            if (found < max)
                memcpy(names[found], nm, sizeof nm);
            found++;
        }
    }
    return found;
}

int lad_cubin_check(const void *img, size_t size, const char *kernel,
                    const char *expected, char *found, size_t found_size,
                    lad_err *err)
{
    char names[8][32];
    if (!expected)
        return lad_errf(err, LAD_EDEVICE, "no expected opcode for '%s'",
                        kernel);
    int n = lad_cubin_tensor_ops(img, size, kernel, names, 8);
    if (n < 0)
        return lad_errf(err, LAD_EDEVICE, "the embedded cubin has no kernel "
                        "'%s'", kernel);
    if (n == 0)
        return lad_errf(err, LAD_EDEVICE, "kernel '%s' has no tensor "
                        "instruction (expected %s)", kernel, expected);
    /* The opcode's name: its first component, and ".SF" (the block-scaled
    ** QMMA and OMMA of sm_120a) when it follows. */
    size_t root = strcspn(expected, ".");
    if (strncmp(expected + root, ".SF.", 4) == 0)
        root += 3;
    for (int i = 0; i < n && i < 8; i++) {
        int ok = strncmp(names[i], "HMMA", 4) == 0
                     ? strcmp(names[i], expected) == 0
                     : strlen(names[i]) == root &&
                           strncmp(names[i], expected, root) == 0;
        if (!ok)
            return lad_errf(err, LAD_EDEVICE, "kernel '%s' runs %s, not the "
                            "expected %s", kernel, names[i], expected);
    }
    snprintf(found, found_size, "%s", expected);
    return LAD_OK;
}
