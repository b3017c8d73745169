#!/bin/sh
# A device outside every model family: the answers of `LADDER eval --model
# MODEL` (framed as the lines are), with the lowest bit of the D word of
# about PERCENT in 100 of them flipped, chosen by a hash of the answer's
# place and SEED, so that the same inputs can get two words.
#
#     oracle-flip.sh PERCENT SEED LADDER MODEL
pct=$1 seed=$2 ladder=$3 model=$4
n=0
"$ladder" eval --model "$model" | while IFS= read -r line; do
    n=$((n + 1))
    if [ $(((n * 2654435761 + seed * 40503) % 1000003 % 100)) -lt "$pct" ]; then
        last=${line#"${line%?}"}
        case $last in
        0) last=1 ;; 1) last=0 ;; 2) last=3 ;; 3) last=2 ;; 4) last=5 ;; 5) last=4 ;;
        6) last=7 ;; 7) last=6 ;; 8) last=9 ;; 9) last=8 ;; a) last=b ;; b) last=a ;;
        c) last=d ;; d) last=c ;; e) last=f ;; f) last=e ;;
        esac
        line=${line%?}$last
    fi
    printf '%s\n' "$line"
done
