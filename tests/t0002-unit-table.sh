#!/bin/sh
# Every unit-test file tests/unit/test_<noun>.c is run: its noun is in the
# TESTS table of tests/unit/main.c. A file left out would compile, link and
# never run, which no other check would notice.
. tests/lib.sh

for f in tests/unit/test_*.c; do
    noun=$(basename "$f" .c | sed 's/^test_//')
    if grep -Eq "^[[:space:]]*X\\($noun\\)" tests/unit/main.c; then
        ok "unit-table-$noun"
    else
        fail "unit-table-$noun" "$f is not in the TESTS table of tests/unit/main.c"
    fi
done
test_done
