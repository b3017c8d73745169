#!/bin/sh
# The cuda device on a machine without GPU or driver: exactly the device
# failure exit code (4, docs/exit-codes.md) and one line naming the cause,
# never a crash or another code. Where nvidia-smi lists a GPU, cuda:0 must
# instead validate (exit 0 or 1 with its result line); an index past the
# GPUs fails with 4 either way.
. tests/lib.sh
DB=$TMP/store.db

gpu=0
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU ' && gpu=1
run_ladder validate --model sm90-mma-f16-f32 --device cuda:0 --cases 8 --db "$DB"
if [ "$gpu" = 0 ]; then
    expect_rc cuda-none-rc 4
    expect_err cuda-none-message "^ladder: device 'cuda:0': (no CUDA device|.*without CUDA device support)"
    expect_err_line cuda-none-one-line
else
    case $rc in
    0 | 1) ok cuda-none-rc ;;
    *) fail cuda-none-rc "a GPU is listed, but cuda:0 exited $rc: $(head -n 1 "$err")" ;;
    esac
    expect_out cuda-none-message '^validate: [0-9]+/8 mismatches '
    skip cuda-none-one-line "a GPU is listed: cuda:0 validates, no error line to count"
fi

run_ladder validate --model sm90-mma-f16-f32 --device cuda:999 --cases 8 --db "$DB"
expect_rc cuda-999-rc 4
expect_err cuda-999-message "^ladder: device 'cuda:999': (no CUDA device|.*without CUDA device support)"
expect_err_line cuda-999-one-line

# An instruction no kernel implements (Volta's m8n8k4) is a usage error
# whether or not a GPU is there: it is told before one is looked for. A
# ladder built without CUDA cannot tell it: the checks are skipped.
run_ladder validate --model sm70-mma-f16-f32 --device cuda:0 --cases 8 --db "$DB"
if grep -q 'without CUDA device support' "$err"; then
    skip cuda-no-kernel-rc "this ladder was built without the cuda device"
    skip cuda-no-kernel-message "this ladder was built without the cuda device"
else
    expect_rc cuda-no-kernel-rc 2
    expect_err cuda-no-kernel-message "^ladder: .*no CUDA kernel for mma.sync k4 f16 x f16"
fi
test_done
