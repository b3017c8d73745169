#!/bin/sh
# The layering of the source folders: each folder's #include lines reach
# only the folders below it, so data flows one way and model/ builds alone.
#
#   util/      libc-only modules: nothing of the project
#   model/     util/ at most (it is libladder: libc only)
#   kernels/   model/, util/
#   io/        model/, util/
#   devices/   model/, kernels/, io/, util/
#   probes/    model/, devices/, db/, io/, util/
#   db/        util/ only: db/store.h takes plain data
#   inference/ model/, db/, io/, probes/ (the recipe a run stored), util/
#   report/    model/, db/, io/, probes/, inference/, devices/, util/: it
#              reads everything, and nothing below includes it
#
# An include "x.h" is the file's own folder, "../f/x.h" and "f/x.h" are
# folder f. model/ and util/ must not include libyaml, SQLite or CUDA
# either.
. tests/lib.sh

# Prints "file: folder" for every project include of the files in folder $1.
includes() {
    for f in "$1"/*.c "$1"/*.h; do
        [ -f "$f" ] || continue
        sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
        while read -r inc; do
            case "$inc" in
            ../*/*) to=${inc#../}; to=${to%%/*} ;;
            */*) to=${inc%%/*} ;;
            *) to=$1 ;;
            esac
            printf '%s: %s (%s)\n' "$f" "$to" "$inc"
        done
    done
}

# layer FOLDER ALLOWED...: FOLDER includes only itself and ALLOWED.
layer() {
    _dir=$1
    shift
    includes "$_dir" >"$TMP/inc"
    : >"$TMP/bad"
    while read -r file to rest; do
        _ok=0
        for a in "$_dir" "$@"; do
            [ "$to" = "$a" ] && _ok=1
        done
        [ "$_ok" -eq 1 ] || printf '%s %s %s\n' "$file" "$to" "$rest" >>"$TMP/bad"
    done <"$TMP/inc"
    if [ ! -s "$TMP/inc" ]; then
        fail "source-layering-$_dir" "no include found in $_dir/: the check reads nothing"
    elif [ -s "$TMP/bad" ]; then
        fail "source-layering-$_dir" "$(head -n 3 "$TMP/bad" | tr '\n' ';')"
    else
        ok "source-layering-$_dir"
    fi
}

layer util
layer model util
layer kernels model util
layer io model util
layer devices model kernels io util
layer probes model devices db io util
layer db util
layer inference model db io probes util
layer report model db io probes inference devices util

for d in model util; do
    if grep -En '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(yaml|sqlite3|cuda|dlfcn)\.h>' \
        "$d"/*.c "$d"/*.h >"$TMP/sys"; then
        fail "source-layering-$d-libc" "$(head -n 1 "$TMP/sys")"
    else
        ok "source-layering-$d-libc"
    fi
done

# A command file holds its command: cli/cmd_<name>.c defines cmd_<name>
# and static functions only, so that no command reaches into another's file
# (what two commands share lives in a module of its own: cli/replay.c,
# probes/recipe.c's lad_recipe_of).
: >"$TMP/ext"
for f in cli/cmd_*.c; do
    name=$(basename "$f" .c)
    grep -n '^[a-z][a-z0-9_ *]*[a-z0-9_]\+(' "$f" | grep -v "^[0-9]*:static " |
        grep -v "^[0-9]*:int $name(" | sed "s|^|$f:|" >>"$TMP/ext"
done
if [ -s "$TMP/ext" ]; then fail source-layering-cli-commands "$(head -n 1 "$TMP/ext")"
else ok source-layering-cli-commands; fi

# The reference evaluator (model/eval.c) and the fast paths (model/plan.c)
# check each other: the reference decodes, plans and evaluates nothing
# through plan.c's code (its decoder lad_opfmt_*, opfmt_term, the plan), so
# that a bug in the fast paths cannot hide in the reference too. plan.c
# calls eval.c, not the other way.
if grep -n 'lad_plan_\|lad_opfmt_\|opfmt_term' model/eval.c >"$TMP/cyc"; then
    fail source-layering-eval-no-plan "$(head -n 1 "$TMP/cyc")"
else
    ok source-layering-eval-no-plan
fi
# Within model/, the calls go one way too: which object calls which (an
# undefined symbol of one object defined in another, by nm) makes a graph
# that tsort orders; a cycle (plan.c calling a kernel that calls the plan)
# is a loop tsort reports.
objs=${BUILD:-build/rel}/pic/model
if ! command -v nm >/dev/null 2>&1 || ! command -v tsort >/dev/null 2>&1; then
    skip source-layering-model-calls "no nm or tsort here"
elif ! ls "$objs"/*.o >/dev/null 2>&1; then
    skip source-layering-model-calls "no objects in $objs (make first)"
else
    for o in "$objs"/*.o; do
        nm -g --defined-only "$o" | awk -v f="$(basename "$o" .o)" 'NF == 3 {print $3, f}'
    done | sort >"$TMP/defs"
    for o in "$objs"/*.o; do
        nm -u "$o" | awk -v f="$(basename "$o" .o)" '{print $NF, f}'
    done | sort | join - "$TMP/defs" | awk '$2 != $3 {print $2, $3}' | sort -u >"$TMP/calls"
    if tsort "$TMP/calls" >"$TMP/order" 2>"$TMP/loop"; then
        ok source-layering-model-calls
    else
        fail source-layering-model-calls "a call cycle: $(tr '\n' ' ' <"$TMP/loop")"
    fi
fi
test_done
