#!/bin/sh
# Answers the first case, then prints a line that is not a hex word.
IFS=';' read -r a b c rest && echo "$c"
read -r line && echo "hello world"
cat > /dev/null
