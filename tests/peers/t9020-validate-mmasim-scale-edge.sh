#!/bin/sh
# ladder validate --gen scale-edge of the block-scaled presets MMA-Sim
# models (a file in vectors/mmasim; one of each family, or every one with
# PEERS_ALL=1) against MMA-Sim, on
# PEERS_SCALE_EDGE_CASES cases each (default 20,000, the size of the runs
# docs/findings-mmasim.txt lists): one block's scales
# at the top, the others far below, C minus the top block's exact sum
# (probes/gen.h), where the quantum floors and the C-dominant cut part the
# two (class G of docs/findings.md). tests/peers/validate-mmasim.inc says
# how a preset passes. PEERS_ONLY=<regex> limits the presets.
#
#     LADDER=build/rel/ladder PEERS=build/peers sh tests/peers/t9020-validate-mmasim-scale-edge.sh
. tests/lib.sh
. tests/peers/validate-mmasim.inc
GEN=scale-edge
CASES=${PEERS_SCALE_EDGE_CASES:-20000}

peers_all scale_block 0

test_done
