#!/bin/sh
# The command table: help, --version, usage errors, and the same --help and
# bad-option behaviour from every command listed by `ladder help`.
. tests/lib.sh

run_ladder --version
expect_rc cli-version-rc 0
expect_out cli-version-text '^ladder [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{7,40}|unknown)(, dirty)?\)$'

run_ladder help
expect_rc cli-help-rc 0
expect_out cli-help-usage '^usage: ladder <command> \[options\]$'
expect_out cli-help-lists-format '^   format +'
expect_no_err cli-help-no-err

run_ladder --help
expect_rc cli-dash-help-rc 0
expect_out cli-dash-help-usage '^usage: ladder '

expect_usage_error cli-no-command
expect_usage_error cli-unknown-command frobnicate
expect_usage_error cli-unknown-option --frobnicate
expect_usage_error cli-help-unknown-command help frobnicate
expect_usage_error cli-version-extra --version extra
run_ladder help help
expect_rc cli-help-help-rc 0
expect_out cli-help-help-usage '^usage: ladder <command> \[options\]$'
# `--` ends the options: what follows is positional even when it starts
# with a dash, and `--` itself is not an argument.
run_ladder format decode -- e4m3 7e
expect_rc cli-double-dash-rc 0
expect_out cli-double-dash-out '^7e .* 448 '
run_ladder check --model sm90-mma-bf16-f32 -- --help
expect_rc cli-double-dash-positional-rc 3
expect_err cli-double-dash-positional "'--help'"
# eval's help names the command that lists the presets, which exists.
run_ladder eval --help
if grep -q 'model list' "$out"; then fail cli-eval-help-presets "names 'ladder model list'"; else ok cli-eval-help-presets; fi
expect_out cli-eval-help-names-presets '\(ladder presets\)'
run_ladder presets
expect_rc cli-eval-help-presets-exists 0
run_ladder frobnicate
expect_err cli-unknown-command-message "^ladder: unknown command 'frobnicate'"

# Every command: `help <name>` and `<name> --help` print the same usage on
# stdout and exit 0; an unknown option is one line on stderr and exit 2.
"$LADDER" help | sed -n 's/^   \([a-z][a-z0-9-]*\) .*/\1/p' >"$TMP/commands"
check cli-help-has-commands test -s "$TMP/commands"
while read -r c; do
    run_ladder help "$c"
    cp "$out" "$TMP/help-$c"
    if [ "$rc" -eq 0 ] && grep -q '^usage: ladder' "$out" && [ ! -s "$err" ]; then
        ok "cli-help-$c"
    else
        fail "cli-help-$c" "exit $rc, stdout '$(_peek "$out")', stderr '$(_peek "$err")'"
    fi
    run_ladder "$c" --help
    if [ "$rc" -eq 0 ] && cmp -s "$out" "$TMP/help-$c"; then
        ok "cli-dash-help-$c"
    else
        fail "cli-dash-help-$c" "exit $rc, or stdout differs from 'ladder help $c'"
    fi
    expect_usage_error "cli-bad-option-$c" "$c" --no-such-option
done <"$TMP/commands"

# Numeric options: a whole number in range, else one line naming the option
# and its range, exit 2, before anything is opened or run.
expect_usage_error cli-number-letters history --limit x --db "$TMP/none.db"
expect_err cli-number-letters-message "^ladder: --limit must be 1\.\.1000000000, not 'x'$"
expect_usage_error cli-number-negative validate --model sm90-mma-bf16-f32 --device sim:sm90-mma-bf16-f32 --cases -5
expect_err cli-number-negative-message "^ladder: --cases must be 1\.\.1000000000, not '-5'$"
expect_usage_error cli-number-above-max validate --model sm90-mma-bf16-f32 --device sim:sm90-mma-bf16-f32 --cases 10000000000
expect_err cli-number-above-max-message "^ladder: --cases must be 1\.\.1000000000, not '10000000000'$"
expect_usage_error cli-number-bare-0x validate --model sm90-mma-bf16-f32 --device sim:sm90-mma-bf16-f32 --cases 0x
expect_usage_error cli-number-space validate --model sm90-mma-bf16-f32 --device sim:sm90-mma-bf16-f32 --cases ' 5'
# Decimal, even with leading zeros; hex only after 0x.
for n in 010:10 08:8 0x10:16 0X1f:31; do
    run_ladder validate --model sm90-mma-bf16-f32 --device sim:sm90-mma-bf16-f32 --db "$TMP/n.db" -q --cases "${n%:*}"
    expect_out_eq "cli-number-${n%:*}" "validate: 0/${n#*:} mismatches (sm90-mma-bf16-f32 vs sim:sm90-mma-bf16-f32)"
done
expect_usage_error cli-number-range fit --beam 65 "$TMP/none.vec"
expect_usage_error cli-number-overflow validate --model sm90-mma-bf16-f32 --device sim:sm90-mma-bf16-f32 --seed 99999999999999999999999
check cli-number-nothing-created test ! -e "$TMP/none.db"

test_done
