#!/bin/sh
# ladder validate of every preset MMA-Sim models (the presets with a file in
# vectors/mmasim) against MMA-Sim as an exec device, on PEERS_CASES random
# cases each of the default generator, mix (default 1,000,000;
# docs/testing.md gives the time). tests/peers/validate-mmasim.inc says how
# the mismatches are sorted into classes and when a preset passes.
# PEERS_ONLY=<regex> limits the presets.
#
#     make test-peers                # or:
#     LADDER=build/rel/ladder PEERS=build/peers sh tests/peers/t9000-validate-mmasim.sh
. tests/lib.sh
. tests/peers/validate-mmasim.inc
GEN=mix
CASES=${PEERS_CASES:-1000000}

peers_all

test_done
