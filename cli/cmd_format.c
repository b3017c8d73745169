/*
** ladder format: the number formats, one word at a time.
**
**     ladder format decode <format> <word>...
**     ladder format encode <format> <value>... [--round M] [--overflow O]
**     ladder format table <format>
**     ladder format list
**
** decode prints what a word means: its class, sign and exact value, both in
** decimal and as significand*2^exponent (the significand with its hidden bit,
** the exponent of its last bit), so `decode e4m3 7e` prints 448 and 14*2^5.
** encode rounds an exact decimal or hex value into a word. table lists every
** code of a small format. A <format> is a built-in name or a spec
** (model/format_spec.h): "e3m4", "e4m3:bias=8".
**
** Words are hex, with or without 0x, at most the format's width. Bad words,
** values and format names are usage errors (exit 2).
*/
#include "cli.h"
#include "commands.h"
#include "json.h"
#include "model/decimal.h"
#include "model/format.h"
#include "model/format_spec.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXPOS 4096

/* Parses a hex word that must fit in f's width. */
static int get_word(const lad_format *f, const char *s, lad_word_t *w)
{
    const char *p = s;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    uint64_t v = 0;
    int n = 0;
    for (; *p; p++, n++) {
        int c = (unsigned char)*p;
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0 || n >= 17)
            return cli_usage_error("'%s' is not a hex word", s);
        v = v << 4 | (uint64_t)d;
    }
    if (n == 0)
        return cli_usage_error("'%s' is not a hex word", s);
    if (f->width < 64 && v >> f->width != 0)
        return cli_usage_error("word '%s' does not fit format '%s' (%d bits)",
                               s, f->name, f->width);
    *w = (lad_word_t)v;
    return LAD_OK;
}

/* --json: each subcommand prints one JSON document instead of its lines */
static int json;

/* Prints "<decimal> <m>*2^<e>" for a value, or "inf -" / "nan -"; with
** --json the members "value": "<decimal>", "significand": m, "exponent": e
** (a signed significand; null for Inf and NaN). */
static void print_value(const lad_value *v)
{
    if (v->cls == LAD_INFINITE || v->cls == LAD_NAN) {
        const char *s = v->cls == LAD_NAN ? "nan" : v->neg ? "-inf" : "inf";
        if (json)
            printf("\"value\": \"%s\", \"significand\": null, \"exponent\": null", s);
        else
            printf("%s -", s);
        return;
    }
    size_t len = lad_decimal_print(NULL, 0, v->neg, v->mag, v->exp);
    char small[128], *buf = len < sizeof small ? small : malloc(len + 1);
    if (buf == NULL) {
        printf(json ? "\"value\": null" : "? -");
        return;
    }
    lad_decimal_print(buf, len + 1, v->neg, v->mag, v->exp);
    if (json)
        printf("\"value\": \"%s\", \"significand\": %s%" PRIu64 ", \"exponent\": %d", buf,
               v->neg ? "-" : "", v->mag, v->exp);
    else
        printf("%s %s%" PRIu64 "*2^%d", buf, v->neg ? "-" : "", v->mag, v->exp);
    if (buf != small)
        free(buf);
}

/* One word's line, or its JSON object (first: no comma before it). */
static void print_line(const lad_format *f, lad_word_t w, int first)
{
    lad_value v = lad_decode(f, w);
    if (json) {
        printf("%s{\"word\": \"%0*" PRIx64 "\", \"class\": \"%s\", \"sign\": \"%c\", ",
               first ? "" : ",\n ", lad_format_digits(f), w, lad_class_name(v.cls),
               v.neg ? '-' : '+');
        print_value(&v);
        printf("}");
        return;
    }
    printf("%0*" PRIx64 " %-9s %c ", lad_format_digits(f), w,
           lad_class_name(v.cls), v.neg ? '-' : '+');
    print_value(&v);
    printf("\n");
}

static int do_decode(int npos, char **pos)
{
    if (npos < 2)
        return cli_usage_error("format decode needs a format and a word");
    lad_format f;
    int rc = cli_format(pos[0], &f);
    lad_word_t *words = calloc((size_t)npos, sizeof *words);
    if (words == NULL)
        return cli_error(LAD_EINTERNAL, "out of memory");
    /* Check every word before printing anything. */
    for (int i = 1; rc == LAD_OK && i < npos; i++)
        rc = get_word(&f, pos[i], &words[i]);
    if (rc == LAD_OK && json)
        putchar('[');
    for (int i = 1; rc == LAD_OK && i < npos; i++)
        print_line(&f, words[i], i == 1);
    if (rc == LAD_OK && json)
        puts("]");
    free(words);
    return rc;
}

static int do_encode(int npos, char **pos, int mode, int ovf, int verbose)
{
    if (npos < 2)
        return cli_usage_error("format encode needs a format and a value");
    lad_format f;
    int rc = cli_format(pos[0], &f);
    lad_word_t *words = calloc((size_t)npos, sizeof *words);
    int *flags = calloc((size_t)npos, sizeof *flags);
    if (words == NULL || flags == NULL)
        rc = cli_error(LAD_EINTERNAL, "out of memory");
    for (int i = 1; rc == LAD_OK && i < npos; i++) {
        lad_err err = {0};
        if (lad_decimal_parse(pos[i], &f, mode, ovf, &words[i], &flags[i],
                              &err) != LAD_OK)
            rc = err.code == LAD_EDATA ? cli_usage_error("%s", err.msg)
                                       : cli_report(&err);
    }
    for (int i = 1; rc == LAD_OK && i < npos && json; i++) {
        lad_value v = lad_decode(&f, words[i]);
        int fl = flags[i];
        printf("%s{\"input\": ", i == 1 ? "[" : ",\n ");
        cli_json_str(stdout, pos[i]);
        printf(", \"word\": \"%0*" PRIx64 "\", ", lad_format_digits(&f), words[i]);
        print_value(&v);
        printf(", \"inexact\": %s, \"overflow\": %s, \"underflow\": %s}%s",
               fl & LAD_FLAG_INEXACT ? "true" : "false",
               fl & LAD_FLAG_OVERFLOW ? "true" : "false",
               fl & LAD_FLAG_UNDERFLOW ? "true" : "false", i == npos - 1 ? "]\n" : "");
    }
    for (int i = 1; rc == LAD_OK && i < npos && !json; i++) {
        if (!verbose) {
            printf("%0*" PRIx64 "\n", lad_format_digits(&f), words[i]);
            continue;
        }
        lad_value v = lad_decode(&f, words[i]);
        printf("%0*" PRIx64 " ", lad_format_digits(&f), words[i]);
        print_value(&v);
        int fl = flags[i];
        printf(" %s%s%s%s\n", fl ? "" : "exact",
               fl & LAD_FLAG_INEXACT ? "inexact" : "",
               fl & LAD_FLAG_OVERFLOW ? ",overflow" : "",
               fl & LAD_FLAG_UNDERFLOW ? ",underflow" : "");
    }
    free(words);
    free(flags);
    return rc;
}

static int do_table(int npos, char **pos)
{
    if (npos != 1)
        return npos ? cli_usage_error("unexpected argument '%s'", pos[1])
                    : cli_usage_error("format table needs a format");
    lad_format f;
    int rc = cli_format(pos[0], &f);
    if (rc)
        return rc;
    int bits = f.kind == LAD_INT ? f.width : f.sign + f.ebits + f.mbits;
    if (bits > 16)
        return cli_usage_error("format '%s' has %d-bit codes; table lists "
                               "formats of 16 bits or fewer", f.name, bits);
    char spec[160];
    lad_format_spec(&f, spec, sizeof spec);
    if (json) {
        printf("{\"format\": ");
        cli_json_str(stdout, f.name);
        printf(", \"spec\": ");
        cli_json_str(stdout, spec);
        printf(", \"codes\": [");
    } else {
        printf("# %s = %s: %u codes\n", f.name, spec, 1u << bits);
        printf("# word class sign value significand*2^exponent\n");
    }
    for (uint32_t c = 0; c < 1u << bits; c++)
        print_line(&f, c << (f.kind == LAD_INT ? 0 : f.pad), c == 0);
    if (json)
        puts("]}");
    return LAD_OK;
}

static int do_list(int npos, char **pos)
{
    if (npos > 0)
        return cli_usage_error("unexpected argument '%s'", pos[0]);
    const lad_format *f;
    for (int i = 0; (f = lad_format_builtin(i)) != NULL; i++) {
        char spec[160];
        lad_format_spec(f, spec, sizeof spec);
        if (!json) {
            printf("%-6s %s\n", f->name, spec);
            continue;
        }
        printf("%s{\"name\": ", i ? ",\n " : "[");
        cli_json_str(stdout, f->name);
        printf(", \"spec\": ");
        cli_json_str(stdout, spec);
        printf("}");
    }
    if (json)
        puts("]");
    return LAD_OK;
}

int cmd_format(int argc, char **argv)
{
    const char *round = "rne", *overflow = "ieee", *verbose = NULL, *json_s = NULL;
    const char *quiet = NULL; /* -q: nothing to quiet (cli/commands.def) */
    const cli_opt opts[] = {
        {"round", 0, 1, &round},
        {"overflow", 0, 1, &overflow},
        {"verbose", 'v', 0, &verbose},
        {"json", 0, 0, &json_s},
        {"quiet", 'q', 0, &quiet}, {NULL, 0, 0, NULL},
    };
    static char *pos[MAXPOS];
    int npos;
    int rc = cli_parse(argc, argv, opts, pos, &npos, 1, MAXPOS,
                      "format needs a subcommand: decode, encode, "
                               "table or list; see 'ladder help format'");
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    json = json_s != NULL;
    int mode = lad_round_parse(round);
    static const char *const modes[] = {"rz", "rne", "ru", "rd", "rna", NULL};
    if (mode < 0)
        return cli_unknown_among("rounding mode", round, modes,
                                 "--round takes rz, rne, ru, rd or rna");
    int ovf = strcmp(overflow, "inf") == 0    ? LAD_OVF_INF
              : strcmp(overflow, "sat") == 0  ? LAD_OVF_SAT
              : strcmp(overflow, "ieee") == 0 ? LAD_OVF_IEEE
                                              : -1;
    static const char *const rules[] = {"ieee", "inf", "sat", NULL};
    if (ovf < 0)
        return cli_unknown_among("overflow rule", overflow, rules,
                                 "--overflow takes ieee, inf or sat");
    const char *sub = pos[0];
    if (strcmp(sub, "decode") == 0)
        return do_decode(npos - 1, pos + 1);
    if (strcmp(sub, "encode") == 0)
        return do_encode(npos - 1, pos + 1, mode, ovf, verbose != NULL);
    if (strcmp(sub, "table") == 0)
        return do_table(npos - 1, pos + 1);
    if (strcmp(sub, "list") == 0)
        return do_list(npos - 1, pos + 1);
    static const char *const subs[] = {"decode", "encode", "table", "list", NULL};
    return cli_unknown_among("format subcommand", sub, subs, "see 'ladder help format'");
}
