#!/bin/sh
# An exec-device oracle that answers every case with its C word, unchanged:
# right for any datapath whose C and D formats are the same. A framed line
# ("@<n> A;B;C") is answered framed ("@<n> C").
while IFS=';' read -r a b c rest; do
    case $a in
    @*) echo "${a%% *} $c" ;;
    *) echo "$c" ;;
    esac
done
