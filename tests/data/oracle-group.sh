#!/bin/sh
# Writes its process id (its process group's, as the exec device starts it)
# to the file $1, starts a child that would sleep for minutes in the same
# group, answers the first case (framed as its line is) and then never again.
echo $$ >"$1"
sleep 300 &
IFS=';' read -r a b c rest && case $a in @*) echo "${a%% *} $c" ;; *) echo "$c" ;; esac
exec cat >/dev/null
