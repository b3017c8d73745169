#!/bin/sh
# run-one.sh LOGDIR NAME CMD: runs the shell command line CMD for
# tests/run.sh, its output into LOGDIR/NAME.log, its wall time in whole
# seconds into LOGDIR/NAME.time, then its exit status into LOGDIR/NAME.rc
# (written last, by rename, so that the file's presence says the log is
# complete).
t0=$(date +%s)
sh -c "$3" >"$1/$2.log" 2>&1
rc=$?
echo $(($(date +%s) - t0)) >"$1/$2.time"
echo $rc >"$1/$2.rc.tmp"
mv "$1/$2.rc.tmp" "$1/$2.rc"
