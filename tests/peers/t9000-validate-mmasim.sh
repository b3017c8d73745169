#!/bin/sh
# ladder validate of the presets MMA-Sim models (the presets with a file in
# vectors/mmasim; one of each family, or every one with PEERS_ALL=1)
# against MMA-Sim as an exec device, on PEERS_CASES random cases each of
# the default generator, mix (default 100,000, with PEERS_ALL=1 1,000,000;
# docs/testing.md gives the time). tests/peers/validate-mmasim.inc says how
# the presets are chosen, how the mismatches are sorted into classes and
# when a preset passes. PEERS_ONLY=<regex> limits the presets.
#
#     make test-peers                # every family; make test-peers-long: all
#     LADDER=build/rel/ladder PEERS=build/peers sh tests/peers/t9000-validate-mmasim.sh
. tests/lib.sh
. tests/peers/validate-mmasim.inc
GEN=mix
if [ "${PEERS_ALL:-}" = 1 ]; then CASES=${PEERS_CASES:-1000000}; else CASES=${PEERS_CASES:-100000}; fi

peers_all

test_done
