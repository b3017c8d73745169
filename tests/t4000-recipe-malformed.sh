#!/bin/sh
# ladder recipe check on every malformed recipe of tests/recipes-bad/: each
# must exit 3, print nothing on stdout, and print exactly one line on stderr,
# "ladder: <file>:<expect>", where <expect> is the text after "# expect: "
# on the file's first line (written with the mistake, by
# tests/recipes-bad/generate.py, from where the mistake was put). Then every
# recipe of recipes/ must pass the same check.
. tests/lib.sh

n=0
for f in tests/recipes-bad/*.yaml; do
    n=$((n + 1))
    name=recipe-malformed-$(basename "$f" .yaml)
    expect=$(head -n 1 "$f" | sed -n 's/^# expect: //p')
    if [ -z "$expect" ]; then
        fail "$name" "no '# expect:' line"
        continue
    fi
    run_ladder recipe check "$f"
    want="ladder: $f:$expect"
    got=$(cat "$err")
    lines=$(wc -l <"$err")
    if [ "$rc" != 3 ]; then
        fail "$name" "exit $rc, expected 3; stderr: $(head -c 300 "$err")"
    elif [ -s "$out" ]; then
        fail "$name" "stdout not empty: $(head -c 200 "$out")"
    elif [ "$lines" != 1 ] || [ "$got" != "$want" ]; then
        fail "$name" "stderr '$got', expected '$want'"
    else
        ok "$name"
    fi
done
if [ "$n" -ge 220 ]; then ok recipe-malformed-count; else
    fail recipe-malformed-count "only $n malformed recipes"; fi

for f in recipes/*.yaml; do
    name=recipe-good-$(basename "$f" .yaml)
    run_ladder recipe check "$f"
    base=$(basename "$f" .yaml)
    if [ "$rc" = 0 ] && grep -q "^ok $f $base " "$out" && [ ! -s "$err" ]; then
        ok "$name"
    else
        fail "$name" "exit $rc: $(head -c 300 "$err")"
    fi
done

# The recipe's sha256 is that of its bytes (sha256sum, an independent tool).
f=recipes/sm90-mma-bf16-f32.yaml
run_ladder recipe check "$f"
if command -v sha256sum >/dev/null 2>&1; then
    want=$(sha256sum "$f" | cut -d' ' -f1)
    expect_out recipe-check-sha256 "sha256 $want\$"
fi

# A file that does not exist is a data error with the name quoted.
run_ladder recipe check "$TMP/none.yaml"
expect_rc recipe-check-missing-file 3
expect_err recipe-check-missing-file-msg "^ladder: cannot open '$TMP/none.yaml'"
expect_usage_error recipe-check-no-file recipe check
expect_usage_error recipe-bad-subcommand recipe frobnicate x.yaml

test_done
