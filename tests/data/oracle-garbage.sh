#!/bin/sh
# Answers the first case (framed as its line is), then prints a line that
# is not a hex word.
IFS=';' read -r a b c rest && case $a in @*) echo "${a%% *} $c" ;; *) echo "$c" ;; esac
read -r line && case $line in @*) echo "${line%% *} hello world" ;; *) echo "hello world" ;; esac
cat > /dev/null
