/*
** ladder sass: the tensor opcodes of the CUDA kernels built into this
** ladder, read with NVIDIA's disassembler,
**
**     lad_mma_m16n8k32_f32_e4m3_e4m3  sm_89   QMMA.16832.F32.E4M3.E4M3
**     lad_mma_m16n8k32_f32_e4m3_e4m3  sm_90a  HMMA.16816.F32 HMMA.16816.F32
**
** one line per kernel and target, the opcodes in program order. Each
** embedded cubin is written to a scratch file and given to `cuobjdump
** -sass`, so what is shown is exactly what the cuda device loads. --check
** compares every kernel with the opcode the kernel table expects and says
** "ok" or "FAIL" per line (exit 1 on a mismatch); --list prints the table
** without disassembling anything.
**
** cuobjdump comes from $CUOBJDUMP, --cuobjdump, the PATH, or
** build/cuda-tools (scripts/cuobjdump.sh installs it there from the PyPI
** wheels nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm).
*/
#include "cli.h"
#include "commands.h"
#include "json.h"
#include "kernels/kernels.h"
#include "util/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXOPS 16
#define MAXFUNCS 256     /* kernels in one cubin (sm_120a mma_sync: 110) */

/* Opcodes found per kernel of one cubin. */
typedef struct found {
    char name[96];          /* kernel symbol */
    char ops[MAXOPS][48];   /* tensor opcodes in program order */
    int nops;
} found;

static int is_exec(const char *p)
{
    return p && *p && access(p, X_OK) == 0;
}

/* Finds cuobjdump; returns a malloc'ed path or NULL. */
static char *find_cuobjdump(const char *given)
{
    if (given)
        return is_exec(given) ? strdup(given) : NULL;
    const char *env = getenv("CUOBJDUMP");
    if (is_exec(env))
        return strdup(env);
    /* Our wrapper first (it puts nvdisasm on the PATH), then the PATH. */
    const char *local[] = {"build/cuda-tools/bin/cuobjdump",
                           "/usr/local/cuda/bin/cuobjdump"};
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 64);
    if (len > 0) {
        exe[len] = 0;
        char *slash = strrchr(exe, '/');
        /* build/rel/ladder or ./ladder: try <root>/build/cuda-tools. */
        for (int up = 0; slash && up < 3; up++) {
            *slash = 0;
            char cand[4200];
            snprintf(cand, sizeof cand, "%s/build/cuda-tools/bin/cuobjdump", exe);
            if (is_exec(cand))
                return strdup(cand);
            snprintf(cand, sizeof cand, "%s/cuda-tools/bin/cuobjdump", exe);
            if (is_exec(cand))
                return strdup(cand);
            slash = strrchr(exe, '/');
        }
    }
    if (is_exec(local[0]))
        return strdup(local[0]);
    const char *path = getenv("PATH");
    if (path) {
        char *copy = strdup(path), *save = NULL;
        for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
            char cand[4200];
            snprintf(cand, sizeof cand, "%s/cuobjdump", d);
            if (is_exec(cand)) {
                free(copy);
                return strdup(cand);
            }
        }
        free(copy);
    }
    if (is_exec(local[1]))
        return strdup(local[1]);
    return NULL;
}

/* Appends s to buf in single quotes for sh. */
static void shell_quote(char *buf, size_t size, const char *s)
{
    size_t n = strlen(buf);
    if (n + 1 < size)
        buf[n++] = '\'';
    for (; *s && n + 5 < size; s++) {
        if (*s == '\'') {
            memcpy(buf + n, "'\\''", 4);
            n += 4;
        } else {
            buf[n++] = *s;
        }
    }
    if (n + 1 < size)
        buf[n++] = '\'';
    buf[n] = 0;
}

/* A tensor MMA opcode: its root (before the first '.') ends in "MMA". */
static int is_tensor(const char *op)
{
    size_t root = strcspn(op, ".");
    return root >= 3 && strncmp(op + root - 3, "MMA", 3) == 0;
}

/* Disassembles one cubin; fills out[0..*n). Returns 0, or -1 with a message
** printed. */
static int disassemble(const char *tool, const void *img, size_t size,
                       found *out, int max, int *n)
{
    char tmpl[] = "/tmp/ladder-sass.XXXXXX";
    *n = 0;
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        cli_error(LAD_EINTERNAL, "cannot create a scratch file in /tmp");
        return -1;
    }
    FILE *f = fdopen(fd, "wb");
    int wrote = f && fwrite(img, 1, size, f) == size;
    if (f)
        fclose(f);
    if (!wrote) {
        unlink(tmpl);
        cli_error(LAD_EINTERNAL, "cannot write '%s'", tmpl);
        return -1;
    }
    char cmd[8192] = "";
    shell_quote(cmd, sizeof cmd, tool);
    strncat(cmd, " -sass ", sizeof cmd - strlen(cmd) - 1);
    shell_quote(cmd, sizeof cmd, tmpl);
    strncat(cmd, " 2>&1", sizeof cmd - strlen(cmd) - 1);
    FILE *p = popen(cmd, "r");
    if (!p) {
        unlink(tmpl);
        cli_error(LAD_EDEVICE, "cannot run '%s'", tool);
        return -1;
    }
    char line[1024], first_err[256] = "";
    found *cur = NULL;
    while (fgets(line, sizeof line, p)) {
        char *fn = strstr(line, "Function : ");
        if (fn) {
            cur = *n < max ? &out[(*n)++] : NULL;
            if (cur) {
                memset(cur, 0, sizeof *cur);
                fn += strlen("Function : ");
                snprintf(cur->name, sizeof cur->name, "%.*s",
                         (int)strcspn(fn, " \t\r\n"), fn);
            }
            continue;
        }
        if (!first_err[0] && strstr(line, "fatal"))
            snprintf(first_err, sizeof first_err, "%.*s",
                     (int)strcspn(line, "\r\n"), line);
        char *ins = strstr(line, "*/");
        if (!cur || !ins || strncmp(line + strspn(line, " \t"), "/*", 2) != 0)
            continue;
        ins += 2;
        ins += strspn(ins, " \t");
        if (*ins == '@') { /* predicate */
            ins += strcspn(ins, " \t");
            ins += strspn(ins, " \t");
        }
        char op[48];
        snprintf(op, sizeof op, "%.*s", (int)strcspn(ins, " \t;"), ins);
        if (is_tensor(op) && cur->nops < MAXOPS)
            snprintf(cur->ops[cur->nops++], sizeof cur->ops[0], "%s", op);
    }
    int st = pclose(p);
    unlink(tmpl);
    if (st != 0 || *n == 0) {
        cli_error(LAD_EDEVICE, "'%s -sass' failed%s%s", tool,
                  first_err[0] ? ": " : "", first_err);
        return -1;
    }
    return 0;
}

static int wanted(const char *name, char **names, int nnames)
{
    if (nnames == 0)
        return 1;
    for (int i = 0; i < nnames; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

/* The first row of each kernel name, in table order. */
static int first_row(int i)
{
    const lad_kernel *k = lad_kernel_get(i);
    for (int j = 0; j < i; j++)
        if (strcmp(lad_kernel_get(j)->name, k->name) == 0)
            return 0;
    return 1;
}

/* --json: the rows as one JSON array, opened at the first row */
static int json, jrows;

/* One row of --json: the kernel, its target and expected opcode, then
** what the caller adds (members after ", "). */
static void json_row(const lad_kernel *k, int t)
{
    printf("%s{\"kernel\": ", jrows++ ? ",\n " : "[");
    cli_json_str(stdout, k->name);
    printf(", \"target\": ");
    cli_json_str(stdout, lad_target_name(t));
    printf(", \"expected\": ");
    cli_json_str(stdout, k->sass[t]);
}

static void list(char **names, int nnames, int target)
{
    for (int i = 0; i < lad_kernel_count(); i++) {
        const lad_kernel *k = lad_kernel_get(i);
        if (!first_row(i) || !wanted(k->name, names, nnames))
            continue;
        for (int t = 0; t < LAD_NTARGETS; t++)
            if (k->sass[t] && (target < 0 || t == target) && json) {
                json_row(k, t);
                printf(", \"ptx\": ");
                cli_json_str(stdout, k->ptx);
                printf("}");
            } else if (k->sass[t] && (target < 0 || t == target)) {
                printf("%-36s %-8s %-28s %s\n", k->name, lad_target_name(t),
                       k->sass[t], k->ptx);
            }
    }
}

int cmd_sass(int argc, char **argv)
{
    const char *check = NULL, *listopt = NULL, *target_s = NULL, *tool_s = NULL;
    const char *quiet = NULL, *json_s = NULL; /* -q: nothing to quiet (cli/commands.def) */
    const cli_opt opts[] = {{"check", 0, 0, &check},
                            {"json", 0, 0, &json_s},
                            {"list", 0, 0, &listopt},
                            {"target", 0, 1, &target_s},
                            {"cuobjdump", 0, 1, &tool_s},
                            {"quiet", 'q', 0, &quiet}, {NULL, 0, 0, NULL}};
    char *names[256];
    int nnames = 0;
    int rc = cli_parse(argc, argv, opts, names, &nnames, 0, 256, NULL);
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    int target = -1;
    if (target_s) {
        for (int t = 0; t < LAD_NTARGETS; t++)
            if (strcmp(lad_target_name(t), target_s) == 0)
                target = t;
        if (target < 0) {
            lad_suggest s;
            lad_suggest_init(&s, target_s);
            for (int t = 0; t < LAD_NTARGETS; t++)
                lad_suggest_add(&s, lad_target_name(t));
            return cli_unknown("target", target_s, lad_suggest_best(&s),
                               "the targets: sm_80, sm_89, sm_90a, sm_100a, sm_120a");
        }
    }
    for (int i = 0; i < nnames; i++)
        if (!lad_kernel_find(names[i])) {
            lad_suggest s;
            lad_suggest_init(&s, names[i]);
            for (int k = 0; k < lad_kernel_count(); k++)
                lad_suggest_add(&s, lad_kernel_get(k)->name);
            return cli_unknown("kernel", names[i], lad_suggest_best(&s),
                               "`ladder sass --list` names them");
        }
    json = json_s != NULL;
    if (listopt) {
        list(names, nnames, target);
        if (json)
            printf("%s]\n", jrows ? "" : "[");
        return 0;
    }
    if (!lad_cuda_built())
        return cli_error(LAD_EDEVICE, "this ladder has no CUDA kernels (built "
                         "without nvcc); `ladder sass --list` shows the table");
    char *tool = find_cuobjdump(tool_s);
    if (!tool)
        return cli_error(LAD_EDEVICE, "cuobjdump not found%s%s; run `sh "
                         "scripts/cuobjdump.sh` (installs the PyPI wheel "
                         "nvidia-cuda-cuobjdump into build/cuda-tools) or set "
                         "CUOBJDUMP", tool_s ? ": " : "", tool_s ? tool_s : "");
    static const char *const files[] = {"mma_sync", "wgmma", "tcgen05"};
    static found fs[3][LAD_NTARGETS][MAXFUNCS];
    static int nf[3][LAD_NTARGETS];
    int mismatches = 0, shown = 0;
    for (int fi = 0; fi < 3; fi++)
        for (int t = 0; t < LAD_NTARGETS; t++) {
            size_t size;
            const void *img = lad_cubin_get(files[fi], t, &size);
            if (!img || (target >= 0 && t != target))
                continue;
            if (disassemble(tool, img, size, fs[fi][t], MAXFUNCS, &nf[fi][t]) < 0) {
                free(tool);
                return LAD_EDEVICE;
            }
        }
    free(tool);
    for (int i = 0; i < lad_kernel_count(); i++) {
        const lad_kernel *k = lad_kernel_get(i);
        if (!first_row(i) || !wanted(k->name, names, nnames))
            continue;
        int fi = strcmp(k->file, "mma_sync") == 0 ? 0
               : strcmp(k->file, "wgmma") == 0 ? 1 : 2;
        for (int t = 0; t < LAD_NTARGETS; t++) {
            if (!k->sass[t] || (target >= 0 && t != target) ||
                !lad_cubin_get(k->file, t, NULL))
                continue;
            const found *f = NULL;
            for (int j = 0; j < nf[fi][t]; j++)
                if (strcmp(fs[fi][t][j].name, k->name) == 0)
                    f = &fs[fi][t][j];
            char ops[MAXOPS * 48] = "";
            int ok = f && f->nops > 0;
            for (int j = 0; f && j < f->nops; j++) {
                if (j)
                    strncat(ops, " ", sizeof ops - strlen(ops) - 1);
                strncat(ops, f->ops[j], sizeof ops - strlen(ops) - 1);
                if (strcmp(f->ops[j], k->sass[t]) != 0)
                    ok = 0;
            }
            shown++;
            if (json) {
                json_row(k, t);
                printf(", \"found\": ");
                if (f)
                    cli_json_str(stdout, ops);
                else
                    printf("null");
                printf(", \"ok\": %s}", ok ? "true" : "false");
                mismatches += check && !ok;
            } else if (!check) {
                printf("%-36s %-8s %s\n", k->name, lad_target_name(t),
                       f ? (ops[0] ? ops : "(no tensor opcode)") : "(not in cubin)");
            } else if (ok) {
                printf("ok   %s %s %s\n", k->name, lad_target_name(t), ops);
            } else {
                mismatches++;
                printf("FAIL %s %s: runs %s, expected %s\n", k->name,
                       lad_target_name(t), f ? (ops[0] ? ops : "nothing") :
                       "(not in cubin)", k->sass[t]);
            }
        }
    }
    if (json && jrows)
        printf("]\n");
    if (shown == 0)
        return cli_error(LAD_EDEVICE, "no kernel of this ladder is built for "
                         "%s", target_s ? target_s : "any target");
    return mismatches ? LAD_NO : LAD_OK;
}
