#!/bin/sh
# run-one.sh LOGDIR NAME CMD: runs the shell command line CMD for
# tests/run.sh, its output into LOGDIR/NAME.log, then its exit status into
# LOGDIR/NAME.rc (written last, by rename, so that the file's presence says
# the log is complete).
sh -c "$3" >"$1/$2.log" 2>&1
echo $? >"$1/$2.rc.tmp"
mv "$1/$2.rc.tmp" "$1/$2.rc"
