#!/bin/sh
# One exit code per kind of mistake (docs/exit-codes.md), for every command:
# a name given on the command line that names nothing (a command, option,
# subcommand, preset, format, device, arch, rung, generator, program, run id
# or the alias latest) is a usage error, exit 2, one line, with "did you
# mean" where a near name exists; the same name written inside a file (a
# recipe, a model file) is bad data, exit 3, with the file's line and column.
# An -o name whose extension the command cannot write is refused (exit 2),
# naming the ones it can, and nothing is written.
. tests/lib.sh

db=$TMP/m.db
run_ladder run recipes/sm90-mma-bf16-f32.yaml --db "$db" -q
expect_rc mistakes-setup-run 0
P=sm90-mma-bf16-f32
VEC=vectors/h100-bf16-f32.vec
[ -f "$VEC" ] || VEC=$(ls vectors/*.vec | head -n 1)

# Each row: the suggestion the error must end with ("-": none is expected,
# the error only has to be one line with exit 2), then the arguments. @DB@
# is the store with one run, @VEC@ a vector file, @T@ the scratch folder.
# Every command has rows; the names are those the command takes.
while IFS='|' read -r name want args; do
    case "$name" in '' | '#'*) continue ;; esac
    args=$(printf '%s' "$args" | sed "s|@DB@|$db|g; s|@VEC@|$VEC|g; s|@T@|$TMP|g")
    # shellcheck disable=SC2086  # the row's words are the arguments
    set -- $args
    expect_usage_error "mistakes-$name" "$@"
    if [ "$want" != - ]; then
        expect_err "mistakes-$name-mean" "; did you mean '$want'\\?"
    fi
done <<'EOF'
# the command itself
command|infer|infr
command-help|survey|help surevy
option-top|-|--verison
# format: subcommand, format, rounding, overflow, option
format-sub|decode|format decod bf16 7e
format-decode|bf16|format decode bf61 7e
format-encode|f16|format encode fp16 1
format-table|e5m2fnuz|format table e5m2fnz
format-list|-|format list --jsno
format-round|rne|format encode bf16 1 --round rnee
format-overflow|sat|format encode bf16 1 --overflow sta
format-option|--round|format encode bf16 1 --rund rne
presets-option|--json|presets --jsno
model-sub|show|model shwo sm90-mma-bf16-f32
model-preset|sm90-mma-bf16-f32|model show sm90-mma-bf16-f23
model-option|-|model show sm90-mma-bf16-f32 --frobnicate
recipe-sub|check|recipe chekc recipes/sm90-mma-bf16-f32.yaml
recipe-option|-|recipe check recipes/sm90-mma-bf16-f32.yaml --frobnicate
eval-preset|sm90-mma-bf16-f32|eval --model sm90-mma-bf16-f23
eval-device|sim:sm90-mma-bf16-f32|eval --model sm90-mma-bf16-f32 --device simm:sm90-mma-bf16-f32
eval-option|--model|eval --modle sm90-mma-bf16-f32
gemm-preset|sm90-mma-bf16-f32|gemm --datapath sm90-mma-bf16-f23 -o @T@/d.npy @T@/a.npy @T@/b.npy
gemm-option|--datapath|gemm --datapth sm90-mma-bf16-f32
check-preset|sm90-mma-bf16-f32|check --model sm90-mma-bf16-f23 @VEC@
check-option|--model|check --modle sm90-mma-bf16-f32 @VEC@
fit-option|--beam|fit --bema 2 @VEC@
validate-preset|sm90-mma-bf16-f32|validate --model sm90-mma-bf16-f23 --device sim:sm90-mma-bf16-f32 --db @DB@
validate-device|cuda:0|validate --model sm90-mma-bf16-f32 --device cdua:0 --db @DB@
validate-run|latest|validate lates --db @DB@
validate-gen|mix|validate latest --gen mixx --db @DB@
validate-option|--cases|validate latest --cass 10 --db @DB@
history-arch|sm_90|history --arch sm_9O --db @DB@
history-format|bf16|history --operand-format bf61 --db @DB@
history-status|-|history --status okk --db @DB@
history-option|--limit|history --limti 3 --db @DB@
run-rung|slice|run recipes/sm90-mma-bf16-f32.yaml --rungs slcie --db @DB@
run-device|sm90-mma-bf16-f32|run recipes/sm90-mma-bf16-f32.yaml --device sim:sm90-mma-bf16-f32x --db @DB@
run-device-kind|exec:true|run recipes/sm90-mma-bf16-f32.yaml --device exce:true --db @DB@
run-option|--device|run recipes/sm90-mma-bf16-f32.yaml --devcie sim:x --db @DB@
infer-run|latest|infer lates --db @DB@
infer-run-prefixed|run:latest|infer run:lates --db @DB@
infer-run-id|-|infer 99 --db @DB@
infer-option|--json|infer latest --jsno --db @DB@
diff-preset|sm90-mma-bf16-f32|diff sm90-mma-bf16-f23 sm90-mma-bf16-f32
diff-run|-|diff run:x sm90-mma-bf16-f32 --db @DB@
diff-option|--json|diff sm90-mma-bf16-f32 sm80-mma-bf16-f32 --jsno
show-run|latest|show lates --db @DB@
show-rung|slice|show latest --rung slcie --db @DB@
show-option|--rung|show latest --rnug slice --db @DB@
survey-arch|sm_90a|survey --device sim:sm_90b --db @DB@
survey-option|--only|survey --device sim:sm_90a --olny x --db @DB@
merge-option|--partial|merge @T@/o.db @DB@ --partal
export-run|latest|export lates -o @T@/e.vec --db @DB@
export-rung|slice|export latest -o @T@/e.vec --rung slcie --db @DB@
export-option|--rung|export latest -o @T@/e.vec --rnug slice --db @DB@
report-preset|sm90-mma-bf16-f32|report sm90-mma-bf16-f23 -o @T@/r.html
report-run|latest|report lates -o @T@/r.html --db @DB@
report-option|--output|report latest --outptu @T@/r.html --db @DB@
sass-kernel|-|sass no_such_kernel
sass-target|sm_80|sass --target sm_8O
sass-option|--list|sass --lits
# an -o name whose extension the command cannot write
diff-output-ext|-|diff sm90-mma-bf16-f32 sm80-mma-bf16-f32 -o @T@/x.html
export-output-ext|-|export latest -o @T@/x.html --db @DB@
fit-output-ext|-|fit @VEC@ -o @T@/m.json
infer-output-ext|-|infer latest -o @T@/m.txt --db @DB@
survey-output-ext|-|survey --device sim:sm_90a --only x -o @T@/s.html --db @DB@
report-output-ext|-|report latest -o @T@/r.pdf --db @DB@
gemm-output-ext|-|gemm --datapath sm90-mma-bf16-f32 -o @T@/d.txt @T@/a.npy @T@/b.npy
eval-output-ext|-|eval --model sm90-mma-bf16-f32 --a @T@/a.npy --b @T@/b.npy -o @T@/d.txt
EOF
run_ladder diff sm90-mma-bf16-f32 sm80-mma-bf16-f32 -o "$TMP/x.html"
expect_err mistakes-diff-output-names "^ladder: diff -o writes \\.vec, not '\\.html'$"
check mistakes-diff-output-nothing test ! -e "$TMP/x.html"

# ---- the same names inside a file: bad data, exit 3, file:line:col ---------
# infile NAME FILE ARGS...: ARGS exit 3 with one line naming FILE:line:col.
infile() {
    _n=$1 _f=$2
    shift 2
    run_ladder "$@"
    expect_rc "mistakes-$_n-rc" 3
    expect_err "mistakes-$_n-where" "^ladder: $_f:[0-9]+:[0-9]+: "
    expect_err_line "mistakes-$_n-one-line"
}
R=recipes/sm90-mma-bf16-f32.yaml
sed 's/^  - slice$/  - slcie/' "$R" >"$TMP/rung.yaml"
infile recipe-rung "$TMP/rung.yaml" recipe check "$TMP/rung.yaml"
expect_err mistakes-recipe-rung-mean "unknown rung 'slcie'; did you mean 'slice'\\?\$"
infile run-recipe-rung "$TMP/rung.yaml" run "$TMP/rung.yaml" --db "$TMP/r.db"
sed 's/^  a: bf16$/  a: bf61/' "$R" >"$TMP/fmt.yaml"
infile recipe-format "$TMP/fmt.yaml" recipe check "$TMP/fmt.yaml"
expect_err mistakes-recipe-format-msg "unknown format 'bf61'"
sed "s/^device: sim:$P\$/device: sim:sm90-mma-bf16-f23/" "$R" >"$TMP/dev.yaml"
check mistakes-recipe-device-setup grep -q '^device: sim:sm90-mma-bf16-f23$' "$TMP/dev.yaml"
infile recipe-device "$TMP/dev.yaml" recipe check "$TMP/dev.yaml"
expect_err mistakes-recipe-device-mean "did you mean 'sm90-mma-bf16-f32'\\?\$"
infile run-recipe-device "$TMP/dev.yaml" run "$TMP/dev.yaml" --db "$TMP/r.db"
sed "s/^device: sim:$P\$/device: simm:x/" "$R" >"$TMP/kind.yaml"
infile recipe-device-kind "$TMP/kind.yaml" recipe check "$TMP/kind.yaml"
run_ladder model show "$P"
sed 's/^d: f32$/d: f23/' "$out" >"$TMP/m.yaml"
check mistakes-model-setup grep -q '^d: f23$' "$TMP/m.yaml"
infile model-format "$TMP/m.yaml" model check "$TMP/m.yaml"
expect_err mistakes-model-format-msg "unknown format 'f23'"
infile eval-model-format "$TMP/m.yaml" eval --model "$TMP/m.yaml"
infile diff-model-format "$TMP/m.yaml" diff "$TMP/m.yaml" "$P"
infile report-model-format "$TMP/m.yaml" report "$TMP/m.yaml" -o "$TMP/r.html"

test_done
