# Ladder build. `make` builds ./ladder; `make test` runs the whole suite;
# `make SANITIZER=address,undefined test` does both under sanitizers (in a
# separate build folder); `make bench` prints the benchmarks; `make install
# PREFIX=...` installs libladder (docs/library.md); `make fuzz` builds the
# libFuzzer targets (docs/robustness.md).
#
# Overrides: CC=clang, CFLAGS (default -O2 -g; the flags the build needs
# are added to it, not replaced), CFLAGS_MODEL (default -O3, added for the
# model's inner loop), NVCC=/path/to/nvcc (NVCC= disables CUDA),
# STATIC_DEPS=1 links libyaml and SQLite statically (for carrying the binary
# to another machine), GPU_ARCHS="80 89 90a 100a" limits the kernel targets.

CC ?= cc
SANITIZER ?=
STATIC_DEPS ?=
BUILD := build/$(if $(SANITIZER),san,rel)

# CFLAGS is the user's (`make CFLAGS=-O0` replaces only the optimisation);
# ALL_CFLAGS adds what the build cannot do without, as git's Makefile does.
CFLAGS ?= -O2 -g
ALL_CFLAGS = $(CFLAGS) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wvla \
    -MMD -MP -I. -I$(BUILD)
LDFLAGS ?=
ALL_LDFLAGS = $(LDFLAGS)
LDLIBS := -lm -lpthread
ifneq ($(SANITIZER),)
ALL_CFLAGS += -fsanitize=$(SANITIZER) -fno-omit-frame-pointer -fno-sanitize-recover=all
ALL_LDFLAGS += -fsanitize=$(SANITIZER)
endif
ifneq ($(STATIC_DEPS),)
LDLIBS := -Wl,-Bstatic -lyaml -lsqlite3 -Wl,-Bdynamic $(LDLIBS) -ldl
else
LDLIBS := -lyaml -lsqlite3 $(LDLIBS)
endif

# The commit stamp of --version and of the store's builds table: a header
# that scripts/version.sh rewrites only when the commit (or dirtiness)
# changes, so that exactly the objects including it are rebuilt then.
VERSION_H := $(BUILD)/version.h

# Everything but cli/ is library code; cli/ is the command table and commands.
# PROG_SRC are programs of their own beside the code they test (the GPU
# self-test, kernels/kernels.mk), not library code.
PROG_SRC := devices/cuda_selftest.c
LIB_SRC := $(filter-out $(PROG_SRC),$(sort $(wildcard util/*.c model/*.c io/*.c probes/*.c devices/*.c inference/*.c db/*.c report/*.c)))
CLI_SRC := $(sort $(wildcard cli/*.c))
TEST_SRC := $(sort $(wildcard tests/unit/*.c))
BENCH_SRC := $(sort $(wildcard tests/bench/*.c))
# The core, libladder's code (CORE_SRC below), is compiled once,
# position-independent, for ladder and libladder alike: -fPIC with
# -fno-semantic-interposition gives the code -fPIE does (calls within the
# library are not assumed interposable). The longest compiles of all, the
# lane code (plan_lanes.c 37 s, cases_kernel.c 25 s, gemm_kernel.c 13 s at
# -O3 -g; every other file a few seconds), come first, so that a parallel
# build starts them first.
SLOW_SRC := model/plan_lanes.c model/cases_kernel.c model/gemm_kernel.c
CORE_SRC := $(SLOW_SRC) $(filter-out $(SLOW_SRC),$(sort $(wildcard model/*.c))) util/err.c
PIC_OBJ := $(CORE_SRC:%.c=$(BUILD)/pic/%.o)
LIB_OBJ := $(PIC_OBJ) $(patsubst %.c,$(BUILD)/%.o,$(filter-out $(CORE_SRC),$(LIB_SRC)))
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/%.o)

# CUDA kernels (kernels/kernels.mk): sets KERNEL_OBJ, CUDA_LDLIBS and adds
# -DLADDER_CUDA to ALL_CFLAGS when nvcc is found; says what it skipped otherwise.
KERNEL_OBJ :=
CUDA_LDLIBS :=
-include kernels/kernels.mk

# The cublaslt device (devices/cublaslt.c) needs the toolkit's cublasLt.h at
# build time only: it loads libcublasLt and libcudart when it opens.
ifneq ($(NVCC),)
ifneq ($(wildcard $(CUDA_HOME)/include/cublasLt.h),)
$(BUILD)/devices/cublaslt.o $(BUILD)/devices/device.o: ALL_CFLAGS += -DLADDER_CUBLASLT \
    -isystem $(CUDA_HOME)/include -DLADDER_CUDA_LIB='"$(CUDA_HOME)/lib64"'
else
$(info devices: no $(CUDA_HOME)/include/cublasLt.h; the cublaslt device skipped)
endif
endif

DEPS_STAMP := build/.deps-ok

# libladder: model/ and the error struct it reports through (util/err.c),
# CORE_SRC, libc and pthreads alone, position-independent, as a static and
# a shared library (docs/library.md). Model files need io/ and libyaml and
# stay out.
PUBLIC_H := model/ladder.h model/format.h model/datapath.h model/params.def \
    model/params.h model/presets.h model/program.h
LIBLADDER := $(BUILD)/libladder.a $(BUILD)/libladder.so
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all test bench deps clean lib install fuzz
all: ladder lib
lib: $(LIBLADDER)

# Fuzz targets (tests/fuzz/fuzz_<name>.c, docs/robustness.md). `make fuzz`
# builds build/fuzz/fuzz_<name> with clang, libFuzzer and ASan+UBSan, from
# the library built again with coverage (without CUDA: the targets run no
# device). The replay driver links every target into one plain program of
# this build, which runs the kept corpus and crashers in `make test`.
FUZZ_TARGETS := recipe modelfile vecline vecfile format plan npy merge migrate
# fuzz_merge drives the command itself (its temporary store and rename)
FUZZ_CLI := cli/cmd_merge.o cli/cli.o cli/table.o
FUZZ_CC ?= clang
FUZZ_BUILD := build/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = -O1 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wvla \
    -MMD -MP -I. -I$(FUZZ_BUILD) $(FUZZ_SAN)
FUZZ_LIB_OBJ := $(LIB_SRC) $(KERNEL_C_OBJ:$(BUILD)/%.o=%.c)
FUZZ_LIB_OBJ := $(FUZZ_LIB_OBJ:%.c=$(FUZZ_BUILD)/%.o)
REPLAY_OBJ := $(BUILD)/tests/fuzz/replay.o $(FUZZ_TARGETS:%=$(BUILD)/tests/fuzz/fuzz_%.o) \
    $(FUZZ_CLI:%=$(BUILD)/%)


ladder: $(BUILD)/ladder
	@if [ -z "$(SANITIZER)" ]; then cp $(BUILD)/ladder ladder; fi

$(BUILD)/ladder: $(LIB_OBJ) $(CLI_OBJ) $(KERNEL_OBJ)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CUDA_LDLIBS) $(LDLIBS)

$(BUILD)/unit: $(TEST_OBJ) $(LIB_OBJ) $(KERNEL_OBJ)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CUDA_LDLIBS) $(LDLIBS)

$(BUILD)/bench: $(BENCH_OBJ) $(LIB_OBJ) $(KERNEL_OBJ)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CUDA_LDLIBS) $(LDLIBS)

$(BUILD)/libladder.a: $(PIC_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libladder.so: $(PIC_OBJ)
	$(CC) $(ALL_LDFLAGS) -shared -Wl,-soname,libladder.so -o $@ $^ -lpthread

# make install PREFIX=... [DESTDIR=...]: the libraries, the headers under
# include/ladder/model/ and include/ladder/util/ (as in the tree, so that
# their relative includes hold; ladder.pc puts model/ on the include path,
# for #include <ladder.h>) and lib/pkgconfig/ladder.pc.
# ladder.pc is written here, not made as a target, so that it always names
# this PREFIX.
install: $(LIBLADDER)
	mkdir -p $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/ladder/model \
	    $(DESTDIR)$(PREFIX)/include/ladder/util
	cp $(LIBLADDER) $(DESTDIR)$(PREFIX)/lib/
	cp $(PUBLIC_H) $(DESTDIR)$(PREFIX)/include/ladder/model/
	cp util/err.h $(DESTDIR)$(PREFIX)/include/ladder/util/
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' \
	    'includedir=$${prefix}/include/ladder/model' '' 'Name: ladder' \
	    'Description: bit-exact model of GPU tensor-core arithmetic' \
	    'Version: 0.1.0' 'Libs: -L$${libdir} -lladder' 'Libs.private: -lpthread' \
	    'Cflags: -I$${includedir}' >$(DESTDIR)$(PREFIX)/lib/pkgconfig/ladder.pc

$(BUILD)/pic/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -fno-semantic-interposition -c -o $@ $<

$(BUILD)/fuzz-replay: $(REPLAY_OBJ) $(LIB_OBJ) $(KERNEL_OBJ)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CUDA_LDLIBS) $(LDLIBS)

# Each target's entry point gets its own name in the replay driver.
$(BUILD)/tests/fuzz/fuzz_%.o: ALL_CFLAGS += -DLLVMFuzzerTestOneInput=$(notdir $*)_one

fuzz: $(FUZZ_BUILD)/.deps-ok $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)

# clang and libFuzzer's runtime, installed on first use (scripts/deps.sh).
$(FUZZ_BUILD)/.deps-ok:
	@FUZZ_CC=$(FUZZ_CC) sh scripts/deps.sh fuzz
	@mkdir -p $(FUZZ_BUILD) && touch $@
.SECONDARY: $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/tests/fuzz/fuzz_%.o)

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_BUILD)/fuzzlib.a
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $(filter %.o,$^) $(filter %.a,$^) $(LDLIBS)
$(FUZZ_BUILD)/fuzz_merge: $(FUZZ_CLI:%=$(FUZZ_BUILD)/%)

$(FUZZ_BUILD)/fuzzlib.a: $(FUZZ_LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_BUILD)/%.o: %.c $(FUZZ_BUILD)/version.h | $(DEPS_STAMP) $(FUZZ_BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BUILD)/version.h: FORCE
	@mkdir -p $(FUZZ_BUILD) && sh scripts/version.sh $@

$(BUILD)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/cli/main.o $(BUILD)/db/store.o: $(VERSION_H)
$(VERSION_H): FORCE
	@sh scripts/version.sh $@
.PHONY: FORCE
FORCE:

# The model's evaluator (the parameters' lane selection, the reference and
# the plan's fast paths) is the inner loop of every simulated run, of
# inference and of validation: -O3 is worth about 12% there (make bench).
# CFLAGS_MODEL= leaves them at CFLAGS. Under sanitizers -O1 -g1 (line
# tables, which a sanitizer's report needs, without the variables): the lane
# code compiles in a fraction of its time at -O3 -g, and the sanitizer
# suite's unit tests and t4220 take the same time at -O1 as at -O3.
ifneq ($(SANITIZER),)
CFLAGS_MODEL ?= -O1 -g1
else
CFLAGS_MODEL ?= -O3
endif
MODEL_HOT := datapath eval plan plan_unscaled plan_scaled plan_lanes gemm_kernel cases_kernel
$(MODEL_HOT:%=$(BUILD)/pic/model/%.o): ALL_CFLAGS += $(CFLAGS_MODEL)
# The lane code inlines every shape it runs into one function with a frame
# of some 200 KB; AddressSanitizer's use-after-scope poisoning of its locals
# on every call was nine tenths of an inference under the sanitizers
# (ladder infer of a 256-case sm90-mma-bf16-f32 run: 6.5 s, 0.45 s
# without). Its stack redzones, heap checks and UBSan stay.
ifneq ($(findstring address,$(SANITIZER)),)
$(SLOW_SRC:%.c=$(BUILD)/pic/%.o): ALL_CFLAGS += -fno-sanitize-address-use-after-scope
endif
# Those flags in a file rewritten only when they change (as git's
# GIT-CFLAGS), so that objects built with others are built again.
MODEL_FLAGS := $(BUILD)/model-flags
$(MODEL_FLAGS): FORCE
	@mkdir -p $(BUILD); f='$(CFLAGS) | $(CFLAGS_MODEL) | $(SANITIZER) | lanes without use-after-scope'; \
	    [ "$$(cat $@ 2>/dev/null)" = "$$f" ] || echo "$$f" >$@
$(MODEL_HOT:%=$(BUILD)/pic/model/%.o): $(MODEL_FLAGS)

# Debian packages the build needs; installed on first use (scripts/deps.sh).
deps $(DEPS_STAMP):
	@sh scripts/deps.sh build
	@mkdir -p build && touch $(DEPS_STAMP)

# The rational reference test (tests/unit/test_rational.c) takes 250,000
# cases per family in `make test`: its own default, 1,000,000, is half a
# minute more of CI, and `make test-long` runs it. Under sanitizers
# everything runs three to five times slower, so the heavy tests run the
# same checks on less: 25,000 random cases per family, one vector file per
# generation for fit, a handful of blind recoveries, four of the eight
# block-scaled blind inferences (docs/testing.md),
# and the separating search of the decide rung without its further look
# (LADDER_ANSWER_FURTHER=0, inference/answer.c: the same code on more
# cases, four fifths of a sanitized simulated run). t5105, which only
# draws random models and checks them, t4800, whose tutorial pages show a
# decide rung that the further look gave cases, and t7030, whose package
# builds its own library without the sanitizers, run in the plain pass
# alone (the summary says three programs were not run).
# `make test-long` runs the long sweeps.
ifneq ($(SANITIZER),)
TEST_ENV := LADDER_TEST_QUICK=1 LADDER_RATIONAL_CASES=25000 LADDER_ANSWER_FURTHER=0 \
            LADDER_TEST_EXCLUDE="t5105-random-draws t4800-tutorials t7030-python-package"
else
TEST_ENV := LADDER_RATIONAL_CASES=250000
endif

# What of docs/commands/ comes from the command table, cli/commands.def:
# the index README.md and each page's table of arguments and options
# (tests/t0011-cli-table.sh checks that they are up to date).
.PHONY: docs-commands
docs-commands: $(BUILD)/ladder
	sh scripts/docs-commands.sh $(BUILD)/ladder

# The suites' programs are built first by a make of their own on every CPU
# (unless -j was given: then with the jobs asked for). Built one file at a
# time, the plain and the sanitizer builds were a fifth of CI's time.
SUITE_BIN := $(BUILD)/ladder $(BUILD)/unit $(LIBLADDER) $(BUILD)/fuzz-replay
NPROC := $(shell nproc 2>/dev/null || echo 1)
BUILD_SUITE = @$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) $(SUITE_BIN)

# `make test` and `make check` are quiet (failures, skips, the slowest
# programs, the summary line); V=1 shows every line.
TEST_VERBOSE := LADDER_TEST_VERBOSE=$(if $(filter 1,$(V)),1,0)

# `make check`: the unit tests, on fewer rational cases, and the shell tests
# but the slowest programs (10 s or more each in `make test V=1` on the
# 2-core development machine; docs/testing.md), which make test runs,
# and the decide rung without its further look, as the sanitizer pass.
CHECK_EXCLUDE := t5100-blind-recovery t4220-run-infer t5000-fit-vectors \
                 t5110-infer-row-order t7030-python-package t6000-sass-opcodes \
                 t4340-survey-verdicts t4600-report t4291-store-concurrent-runs \
                 t4330-progress t5105-random-draws t0220-derived-presets \
                 t3230-check-mmasim t4800-tutorials t4287-store-malloc-faults \
                 t7007-gemm-kernel
CHECK_ENV := LADDER_TEST_QUICK=1 LADDER_RATIONAL_CASES=20000 LADDER_ANSWER_FURTHER=0 \
             LADDER_TEST_EXCLUDE="$(CHECK_EXCLUDE)"

.PHONY: test-long check
test:
	$(BUILD_SUITE)
	@sh scripts/deps.sh test
	@$(TEST_ENV) $(TEST_VERBOSE) LADDER=$(BUILD)/ladder UNIT=$(BUILD)/unit BUILD=$(BUILD) sh tests/run.sh

check:
	$(BUILD_SUITE)
	@sh scripts/deps.sh test
	@$(CHECK_ENV) $(TEST_VERBOSE) LADDER=$(BUILD)/ladder UNIT=$(BUILD)/unit BUILD=$(BUILD) sh tests/run.sh

test-long:
	$(BUILD_SUITE)
	@sh scripts/deps.sh test
	@$(TEST_VERBOSE) LADDER_RATIONAL_CASES=1000000 LADDER_BLIND_PRESETS=1 LADDER_BLIND_DRAWS=1000 LADDER_BLIND_CASES=100000 LADDER_BLIND_BIG=3 LADDER_BLIND_FURTHER=1 LADDER_TEST_KILLS=100 \
	    LADDER_FIT_ALL=1 LADDER_ROW_ORDER_ALL=1 LADDER_CANON_DRAWS=300 LADDER_CANON_CASES=100000 \
	    LADDER=$(BUILD)/ladder UNIT=$(BUILD)/unit BUILD=$(BUILD) sh tests/run.sh

# The Python package installed by pip into a fresh venv, numpy and ml_dtypes
# fetched as it declares them (make test builds it in place instead).
.PHONY: test-python
test-python: $(BUILD)/ladder
	@sh scripts/deps.sh test
	@LADDER_TEST_PIP=1 LADDER=$(BUILD)/ladder sh tests/t7030-python-package.sh

# MMA-Sim as a second model (tests/peers/): needs torch, so not in `make test`.
# scripts/slurm on a real one-node SLURM (Debian's slurm-wlm and munge,
# installed when missing), as root; not part of `make test`.
.PHONY: test-cluster
test-cluster: $(BUILD)/ladder
	@LADDER=$(BUILD)/ladder sh scripts/slurm/test-cluster.sh

# test-peers takes one preset of each family (tests/peers/validate-mmasim.inc)
# and 100,000 cases of the default generator each; test-peers-long every
# preset, 1,000,000 cases each (hours; docs/testing.md).
.PHONY: test-peers test-peers-long
test-peers: $(BUILD)/ladder
	@sh scripts/deps.sh peers
	@for t in tests/peers/*.sh; do LADDER=$(BUILD)/ladder PEERS=build/peers sh $$t || exit 1; done

test-peers-long: $(BUILD)/ladder
	@sh scripts/deps.sh peers
	@for t in tests/peers/*.sh; do PEERS_ALL=1 LADDER=$(BUILD)/ladder PEERS=build/peers sh $$t || exit 1; done

# torch tensors through the Python package and ladder.torch.emulate against
# ladder.matmul, and the tutorial docs/tutorials/4-model-numerics.md
# (tests/torch/): needs torch, in its own venv build/torch, so not in
# `make test`.
.PHONY: test-torch
test-torch: $(BUILD)/ladder $(BUILD)/libladder.so
	@sh scripts/deps.sh torch
	@for t in tests/torch/*.sh; do LADDER=$(BUILD)/ladder TORCH_VENV=build/torch sh $$t || exit 1; done

# The reference engine that tests/bench/infer.py times beside this one: the
# inference engine as it was before its decision steps, named by its commit
# and built from this repository's own history (tests/bench/ref-engine.sh).
# It reads stores up to schema 6, so on this build's stores its column is
# empty (docs/performance.md, "Inference"). BENCH_REF= skips it.
BENCH_REF ?= f841202
# The engine tests/bench/conflict.py times beside this one: the last before
# conflicts were proven from one exact product and before a proven
# conflict's sweep was cut to its groups. BENCH_CONFLICT_REF= skips it.
BENCH_CONFLICT_REF ?= 38aa62d
bench: $(BUILD)/bench $(BUILD)/ladder
	@$(BUILD)/bench
	@$(if $(BENCH_REF),sh tests/bench/ref-engine.sh $(BENCH_REF) build/bench-ref &&) \
	    python3 tests/bench/infer.py $(BUILD)/ladder $(if $(BENCH_REF),build/bench-ref/build/rel/ladder)
	@$(if $(BENCH_CONFLICT_REF),sh tests/bench/ref-engine.sh $(BENCH_CONFLICT_REF) build/bench-ref-conflict &&) \
	    python3 tests/bench/conflict.py $(BUILD)/ladder $(if $(BENCH_CONFLICT_REF),build/bench-ref-conflict/build/rel/ladder)
	@python3 tests/bench/eval_io.py $(BUILD)/ladder 1000000
	@$(if $(wildcard build/peers/bin/python),build/peers/bin/python tests/bench/gemm_mmasim.py $(BUILD)/ladder,\
	    echo "gemm against MMA-Sim: no build/peers (make test-peers makes it)")
	@$(if $(wildcard build/peers/bin/python),build/peers/bin/python tests/bench/eval_mmasim.py $(BUILD)/ladder,\
	    echo "eval against MMA-Sim: no build/peers (make test-peers makes it)")
	@$(if $(wildcard build/torch/bin/python),LADDER_LIB=$(BUILD)/libladder.so build/torch/bin/python tests/bench/torch_block.py $(BUILD)/ladder,\
	    echo "torch block under emulate: no build/torch (make test-torch makes it)")

clean:
	rm -rf build ladder

-include $(LIB_OBJ:.o=.d) $(PIC_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BENCH_OBJ:.o=.d) $(REPLAY_OBJ:.o=.d)
-include $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/tests/fuzz/fuzz_%.d)
