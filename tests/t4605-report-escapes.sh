#!/bin/sh
# Strings of a recipe (its description, its datapath's name) reach the
# terminal and the Markdown report as text only: recipe check and show,
# run, history and show print ESC, BEL and the UTF-8 C1 CSI as \x1b, \x07,
# \u009b, and a lone C1 byte as \x9b; the Markdown report writes HTML's
# specials as entities outside code blocks, and a recipe's backticks cannot
# close its code block.
. tests/lib.sh

cd "$TMP" || exit 1
sh "$OLDPWD/$TESTS_DATA/recipe-gen.sh" "$LADDER" sm90-mma-bf16-f32 64 >r.yaml
csi=$(printf '\302\233')
awk 'NR == 1 { print; print "description: \"evil \\e[2J\\e]0;title\\a \\x9b31m <script>alert(1)</script> ```\""; next }
    { print }' r.yaml |
    sed 's|^  name: sm90-mma-bf16-f32|  name: "sm90\\e[31m<img src=x onerror=alert(1)>"|' >esc.yaml
check esc-setup grep -q 'description: "evil' esc.yaml

# raw NAME: stdout and stderr of the last run hold no ESC, BEL or C1 CSI.
raw() {
    if cat "$out" "$err" | LC_ALL=C grep -q "$(printf '[\033\007]')\|$csi"; then
        fail "$1" "a raw control character: $(cat "$out" "$err" | LC_ALL=C grep -n "$(printf '[\033\007]')\|$csi" | head -2 | od -c | head -3)"
    else
        ok "$1"
    fi
}
run_ladder recipe check esc.yaml
expect_rc esc-recipe-check-rc 0
raw esc-recipe-check-raw
expect_out esc-recipe-check-shown 'sm90\\x1b\[31m<img'
run_ladder recipe show esc.yaml
raw esc-recipe-show-raw
expect_out esc-recipe-show-shown 'evil \\x1b\[2J\\x1b\]0;title\\x07 \\u009b31m <script>'
run_ladder run esc.yaml --db e.db
expect_rc esc-run-rc 0
raw esc-run-raw
run_ladder history --db e.db
raw esc-history-raw
expect_out esc-history-shown 'sm90\\x1b\[31m'
run_ladder show 1 --db e.db
raw esc-show-raw
expect_out esc-show-shown 'datapath +sm90\\x1b\[31m<img'
# an error message that quotes the string
run_ladder format decode "$(printf 'e4m3\033[2J')" 00
raw esc-error-raw
expect_err esc-error-shown "unknown format 'e4m3\\\\x1b\[2J'"

run_ladder report 1 --db e.db -o e.md
expect_rc esc-report-md-rc 0
# outside fenced code blocks no tag of the recipe's survives
awk '/^```/ { if (!f) { f = length($0) } else if (length($0) >= f) { f = 0 }; next }
     !f && /<script|<img/ { print NR ": " $0 }' e.md >tags
check esc-report-md-no-tags test ! -s tags
check esc-report-md-entities grep -q 'sm90.*&lt;img src=x onerror=alert(1)&gt;' e.md
# the recipe's own text is in a block fenced longer than its ``` run
check esc-report-md-fence grep -q '^````$' e.md

# A lone C1 byte (0x80..0x9f outside a UTF-8 character: 0x9b is a CSI to a
# terminal that reads 8-bit controls) is written as \x9b; a character whose
# UTF-8 holds such bytes (U+20AC, e2 82 ac; U+00E9, c3 a9) passes whole.
cp r.yaml "$(printf 'r\2332J.yaml')"
run_ladder run "$(printf 'r\2332J.yaml')" --db c1.db
expect_rc esc-c1-run-rc 0
for cmd in "show 1" "history"; do
    name=esc-c1-$(echo "$cmd" | cut -d' ' -f1)
    run_ladder $cmd --db c1.db
    if cat "$out" "$err" | LC_ALL=C grep -q "$(printf '[\200-\237]')"; then
        fail $name-raw "a raw C1 byte: $(LC_ALL=C grep "$(printf '[\200-\237]')" "$out" | head -1 | od -c | head -2)"
    else
        ok $name-raw
    fi
done
run_ladder show 1 --db c1.db
expect_out esc-c1-show-shown 'r\\x9b2J\.yaml'
run_ladder format decode "$(printf 'e4m3\342\202\254\303\251\237')" 00
expect_err esc-c1-utf8-kept "unknown format 'e4m3$(printf '\342\202\254\303\251')\\\\x9f'"
run_ladder format decode "$(printf 'e4m3\342\202')" 00
expect_err esc-c1-cut-character "unknown format 'e4m3$(printf '\342')\\\\x82'"
test_done
