#!/bin/sh
# ladder validate --gen near-zero of the float presets MMA-Sim models (a
# file in vectors/mmasim; one of each family, or every one with
# PEERS_ALL=1) against MMA-Sim, on PEERS_NEAR_ZERO_CASES cases
# each (default 20,000, the size of the runs
# docs/findings-mmasim.txt lists): products near the anchor floors, zero lanes, C
# zero or tiny (probes/gen.h), where the floors of zero terms part the two
# (class B of docs/findings.md). tests/peers/validate-mmasim.inc says how a
# preset passes. PEERS_ONLY=<regex> limits the presets.
#
#     LADDER=build/rel/ladder PEERS=build/peers sh tests/peers/t9010-validate-mmasim-near-zero.sh
. tests/lib.sh
. tests/peers/validate-mmasim.inc
GEN=near-zero
CASES=${PEERS_NEAR_ZERO_CASES:-20000}

peers_all integer true

test_done
