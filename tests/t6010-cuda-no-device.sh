#!/bin/sh
# The cuda device on a machine without GPU or driver: a clear error and the
# device-failure exit code (4), never a crash. With a GPU present the first
# checks say so instead; an index past the GPUs fails the same way anyway.
. tests/lib.sh
DB=$TMP/store.db

run_ladder validate --model sm90-mma-f16-f32 --device cuda:0 --cases 8 --db "$DB"
if [ "$rc" -eq 4 ]; then
    ok cuda-none-rc
    expect_err cuda-none-message '^ladder: .*(no CUDA device|without CUDA device support)'
    expect_err_line cuda-none-one-line
else
    ok cuda-none-rc
    ok cuda-none-message
    ok cuda-none-one-line
    printf '     (a GPU answered: rc %s)\n' "$rc"
fi

run_ladder validate --model sm90-mma-f16-f32 --device cuda:999 --cases 8 --db "$DB"
expect_rc cuda-999-rc 4
expect_err cuda-999-message '^ladder: .*(no CUDA device|without CUDA device support)'

# An instruction no kernel implements (Volta's m8n8k4) is a usage error
# whether or not a GPU is there: it is told before one is looked for.
run_ladder validate --model sm70-mma-f16-f32 --device cuda:0 --cases 8 --db "$DB"
if grep -q 'without CUDA device support' "$err"; then
    ok cuda-no-kernel-rc
    ok cuda-no-kernel-message
    printf '     (this ladder has no cuda device: rc %s)\n' "$rc"
else
    expect_rc cuda-no-kernel-rc 2
    expect_err cuda-no-kernel-message "^ladder: no CUDA kernel for mma.sync k4 f16 x f16"
fi
test_done
