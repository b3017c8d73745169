# CUDA kernels, included by the top Makefile.
#
# The pure C part of kernels/ (layout.c: fragment packing; table.c: the
# kernel table; launch.c: the host side) is always built. When nvcc is found
# (NVCC ?= nvcc on the PATH, else /usr/local/cuda/bin/nvcc; `make NVCC=`
# disables), every kernels/*.cu is compiled into one cubin per target,
#
#   $(BUILD)/kernels/<file>.<sm>.cubin
#
# with the -gencode form (-arch=sm_90a with -c fails under nvcc 13; see
# docs/reference/ptx-notes.md section 1), the cubins are embedded in the
# binary ($(BUILD)/kernels/cubins.c), and -DLADDER_CUDA turns the cuda
# device on. The binary loads libcuda.so.1 at run time, so it needs no CUDA
# library to start: CUDA_LDLIBS is only -ldl.
#
# GPU_ARCHS="80 89 90a 100a 120a" (the default) limits the targets. The first
# build also fetches cuobjdump for `ladder sass` (scripts/cuobjdump.sh).

# Rules here must not become the default goal of the top Makefile.
lad_saved_goal := $(.DEFAULT_GOAL)

ifeq ($(origin NVCC),undefined)
NVCC := $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
endif
GPU_ARCHS ?= 80 89 90a 100a 120a

KERNEL_C_OBJ := $(BUILD)/kernels/layout.o $(BUILD)/kernels/table.o \
                $(BUILD)/kernels/launch.o $(BUILD)/kernels/cubin.o
LIB_OBJ += $(filter-out $(LIB_OBJ),$(KERNEL_C_OBJ))

# Targets each source is built for.
KERNEL_TARGETS_mma_sync := 80 89 90a 100a 120a
KERNEL_TARGETS_wgmma := 90a
KERNEL_TARGETS_tcgen05 := 100a

ifneq ($(NVCC),)
CUDA_HOME := $(patsubst %/bin/nvcc,%,$(NVCC))
NVCC_VERSION := $(shell $(NVCC) --version 2>/dev/null | sed -n 's/.*release [0-9.]*, V\([0-9.]*\).*/\1/p')
CUBINS := $(foreach f,mma_sync wgmma tcgen05,$(foreach a,$(filter $(GPU_ARCHS),$(KERNEL_TARGETS_$(f))),$(BUILD)/kernels/$(f).sm_$(a).cubin))
KERNEL_OBJ := $(BUILD)/kernels/cubins.o
CUDA_LDLIBS := -ldl
ALL_CFLAGS += -DLADDER_CUDA
CUDA_TOOLS := build/cuda-tools/bin/cuobjdump

$(BUILD)/kernels/launch.o: ALL_CFLAGS += -isystem $(CUDA_HOME)/include \
    -DLADDER_NVCC_VERSION='"$(NVCC_VERSION)"'

# One cubin per (source, target); the arch-specific targets need the
# -gencode form.
define lad_cubin_rule
$(BUILD)/kernels/%.sm_$(1).cubin: kernels/%.cu kernels/kparams.h
	@mkdir -p $$(dir $$@)
	$$(NVCC) -cubin -O3 -gencode=arch=compute_$(1),code=sm_$(1) -Ikernels -o $$@ $$<
endef
$(foreach a,80 89 90a 100a 120a,$(eval $(call lad_cubin_rule,$(a))))

$(BUILD)/kernels/cubins.c: $(CUBINS) kernels/embed.sh
	@mkdir -p $(dir $@)
	sh kernels/embed.sh $@ $(CUBINS)

$(BUILD)/kernels/cubins.o: $(BUILD)/kernels/cubins.c
	$(CC) -c -o $@ $<

# The disassembler for `ladder sass` and tests/t6000-sass-opcodes.sh;
# failing to get it does not fail the build (the test says so loudly).
all: $(CUDA_TOOLS)
$(CUDA_TOOLS):
	@sh scripts/cuobjdump.sh build >/dev/null || \
	    echo "kernels: cuobjdump unavailable; 'ladder sass' and the opcode test need it (sh scripts/cuobjdump.sh)"

# The hardware self-test (devices/cuda_selftest.c: it tests the kernels and
# the cuda device above them); needs only libc and libdl, so the binary runs
# on a GPU machine that lacks libyaml and SQLite.
SELFTEST_OBJ := $(BUILD)/devices/cuda_selftest.o $(PIC_OBJ) $(filter $(BUILD)/util/%,$(LIB_OBJ)) \
                $(KERNEL_C_OBJ) $(KERNEL_OBJ) $(BUILD)/devices/cuda.o
$(BUILD)/kernels/selftest: $(SELFTEST_OBJ)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -ldl -lm
-include $(BUILD)/devices/cuda_selftest.d

.PHONY: kernels kernels-selftest
kernels: $(CUBINS)
kernels-selftest: $(BUILD)/kernels/selftest
else
$(info kernels: nvcc not found; CUDA kernels skipped (cuda devices will report "no CUDA device support built"))
endif

.DEFAULT_GOAL := $(lad_saved_goal)
