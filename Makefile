# SPDX-License-Identifier: GPL-2.0-only
#
# cfsreplay build.  One GNU Makefile for the whole tree.
#
#   make                 build ./cfsreplay
#   make check           install missing dependencies, build, run every test
#   make demo            install missing dependencies, build, report on a bundled trace
#   make V=1             print the commands
#   make O=DIR           build out of tree
#   make SANITIZE=address,undefined check
#   make valgrind        run the unit and CLI tests under valgrind
#   make bench           speed and memory on large traces
#   make format / check-format / doc / clean

.DELETE_ON_ERROR:
.SECONDARY:
.SUFFIXES:

O ?= .
override O := $(abspath $(O))
SRCDIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))

PKG_CONFIG ?= pkg-config
CC ?= cc
ifeq ($(origin CC),default)
CC := gcc
endif

ifneq ($(V),1)
Q := @
QUIET_CC = @echo '  CC      '$(patsubst $(CURDIR)/%,%,$@);
QUIET_LINK = @echo '  LINK    '$(patsubst $(CURDIR)/%,%,$@);
QUIET_AR = @echo '  AR      '$(patsubst $(CURDIR)/%,%,$@);
QUIET_BPF = @echo '  BPF     '$(patsubst $(CURDIR)/%,%,$@);
else
Q :=
endif

VERSION := 0.1.0
WERROR ?= 1
CFLAGS ?= -O2 -g
BASIC_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Wmissing-prototypes \
	-Wstrict-prototypes -Wold-style-definition -Wvla -Wformat=2 -Wshadow \
	-MMD -MP -DCFSR_VERSION=\"$(VERSION)\"
ifeq ($(WERROR),1)
BASIC_CFLAGS += -Werror
endif
ifdef SANITIZE
BASIC_CFLAGS += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
endif

# pkg-config name : minimum version : Debian package
LIB_DEPS := libtraceevent:1.7:libtraceevent-dev libtracefs:1.6:libtracefs-dev \
	zlib:1.2:zlib1g-dev libzstd:1.4:libzstd-dev \
	json-c:0.16:libjson-c-dev libbpf:1.1:libbpf-dev
TEST_DEPS := cmocka:1.1:libcmocka-dev

pkg_name = $(word 1,$(subst :, ,$(1)))
pkg_min = $(word 2,$(subst :, ,$(1)))
pkg_deb = $(word 3,$(subst :, ,$(1)))
pkg_missing = $(foreach d,$(1),$(if $(shell $(PKG_CONFIG) --atleast-version=$(call pkg_min,$(d)) \
	$(call pkg_name,$(d)) 2>/dev/null && echo y),,$(d)))

# Targets that install dependencies first must not need them to parse.
NODEP_GOALS := check demo deps clean help
ifneq ($(filter-out $(NODEP_GOALS),$(or $(MAKECMDGOALS),all)),)
MISSING := $(strip $(call pkg_missing,$(LIB_DEPS)))
ifneq ($(MISSING),)
$(error missing $(call pkg_name,$(firstword $(MISSING))) >= $(call pkg_min,$(firstword $(MISSING))): install the Debian package $(call pkg_deb,$(firstword $(MISSING))) (or run scripts/install-deps.sh))
endif
endif

# The PELT capture's BPF program (formats/pelt.bpf.c) is compiled by clang
# for the BPF target and linked into the binary (formats/pelt-bpf-obj.S).
CLANG ?= clang
BPF_CFLAGS := -target bpf -g -O2 -Wall -Werror -D__TARGET_ARCH_$(shell uname -m | \
	sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/') \
	-idirafter /usr/include/$(shell $(CC) -print-multiarch 2>/dev/null)
ifneq ($(filter-out $(NODEP_GOALS),$(or $(MAKECMDGOALS),all)),)
ifeq ($(shell command -v $(CLANG) 2>/dev/null),)
$(error missing $(CLANG): install the Debian packages clang and llvm (or run scripts/install-deps.sh))
endif
endif

LIB_NAMES := $(foreach d,$(LIB_DEPS),$(call pkg_name,$(d)))
# -isystem keeps warnings about our code only
PKG_CFLAGS = $(patsubst -I%,-isystem %,$(shell $(PKG_CONFIG) --cflags $(LIB_NAMES)))
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(LIB_NAMES))
CMOCKA_CFLAGS = $(patsubst -I%,-isystem %,$(shell $(PKG_CONFIG) --cflags cmocka))
CMOCKA_LIBS = $(shell $(PKG_CONFIG) --libs cmocka)

# -iquote: lib/math.h must not shadow <math.h>
ALL_CFLAGS = $(BASIC_CFLAGS) $(CFLAGS) -iquote $(SRCDIR)/lib -iquote $(SRCDIR)/formats $(PKG_CFLAGS)
ALL_LDLIBS = $(PKG_LIBS) -lm

LIB_SRCS := $(sort $(wildcard $(SRCDIR)/lib/*.c))
FMT_SRCS := $(sort $(filter-out %.bpf.c,$(wildcard $(SRCDIR)/formats/*.c)))
BPF_OBJ := $(O)/formats/pelt.bpf.o
CMD_SRCS := $(sort $(wildcard $(SRCDIR)/cmd/*.c))
UNIT_SRCS := $(sort $(wildcard $(SRCDIR)/tests/unit/test-*.c))

obj = $(patsubst $(SRCDIR)/%.c,$(O)/%.o,$(1))
LIB_OBJS := $(call obj,$(LIB_SRCS))
FMT_OBJS := $(call obj,$(FMT_SRCS)) $(O)/formats/pelt-bpf-obj.o
CMD_OBJS := $(call obj,$(CMD_SRCS))
HELPER_BINS := $(O)/tests/helpers/pelt-capture $(O)/tests/helpers/meta-set \
	$(O)/tests/helpers/dat-write
UNIT_BINS := $(patsubst $(SRCDIR)/tests/unit/%.c,$(O)/tests/unit/%,$(UNIT_SRCS))
LIBCFSR := $(O)/libcfsreplay.a
PROG := $(O)/cfsreplay

all: $(PROG)

$(O)/%.o: $(SRCDIR)/%.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BPF_OBJ): $(SRCDIR)/formats/pelt.bpf.c
	@mkdir -p $(dir $@)
	$(QUIET_BPF)$(CLANG) $(BPF_CFLAGS) -MMD -MP -iquote $(SRCDIR)/formats -c -o $@ $<

$(O)/formats/pelt-bpf-obj.o: $(SRCDIR)/formats/pelt-bpf-obj.S $(BPF_OBJ)
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) -c -DPELT_BPF_OBJ='"$(BPF_OBJ)"' -o $@ $<

$(O)/tests/unit/%.o: $(SRCDIR)/tests/unit/%.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -c -o $@ $<

$(LIBCFSR): $(LIB_OBJS) $(FMT_OBJS)
	$(QUIET_AR)rm -f $@ && $(AR) rcs $@ $^

$(PROG): $(CMD_OBJS) $(LIBCFSR)
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $(CMD_OBJS) $(LIBCFSR) $(ALL_LDLIBS)

# Test drivers: programs built on libcfsreplay.a that CLI tests run
$(O)/tests/helpers/%.o: $(SRCDIR)/tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/tests/helpers/%: $(O)/tests/helpers/%.o $(LIBCFSR)
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $< $(LIBCFSR) $(ALL_LDLIBS)

$(O)/tests/unit/%: $(O)/tests/unit/%.o $(LIBCFSR)
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $< $(LIBCFSR) $(ALL_LDLIBS) $(CMOCKA_LIBS)

-include $(LIB_OBJS:.o=.d) $(FMT_OBJS:.o=.d) $(BPF_OBJ:.o=.d) $(CMD_OBJS:.o=.d) $(UNIT_BINS:=.d) \
	$(HELPER_BINS:=.d)

deps:
	$(Q)$(SRCDIR)/scripts/install-deps.sh

# The README's two commands.  Each installs what is missing, then re-enters
# make so that pkg-config sees the installed libraries.
check: deps
	$(Q)$(MAKE) --no-print-directory -f $(SRCDIR)/Makefile test

demo: deps
	$(Q)$(MAKE) --no-print-directory -f $(SRCDIR)/Makefile all
	$(PROG) $(SRCDIR)/traces/recorded.dat

unit-tests: $(UNIT_BINS)

test: $(PROG) $(UNIT_BINS) $(HELPER_BINS) $(O)/libcfsreplay-objs.list
	$(Q)CFSREPLAY=$(abspath $(PROG)) UNIT_DIR=$(abspath $(O)/tests/unit) \
		HELPER_DIR=$(abspath $(O)/tests/helpers) \
		OBJ_LIST=$(abspath $(O)/libcfsreplay-objs.list) VALGRIND="$(VALGRIND)" \
		$(SRCDIR)/scripts/run-tests.sh

# Objects of lib/ and formats/ for scripts/check-no-exit.sh
$(O)/libcfsreplay-objs.list: $(LIB_OBJS) $(FMT_OBJS)
	$(Q)printf '%s\n' $(abspath $^) > $@

valgrind:
	$(Q)$(MAKE) --no-print-directory -f $(SRCDIR)/Makefile test \
		VALGRIND="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --suppressions=$(SRCDIR)/tests/valgrind.supp"

bench: $(PROG)
	$(Q)CFSREPLAY=$(abspath $(PROG)) $(SRCDIR)/scripts/bench.sh

format:
	$(Q)cd $(SRCDIR) && clang-format -i $$(git ls-files 'lib/*.[ch]' 'formats/*.[ch]' \
		'cmd/*.[ch]' 'tests/unit/*.c' 'tests/helpers/*.c')

check-format:
	$(Q)$(SRCDIR)/scripts/check-format.sh

doc:
	$(Q)$(SRCDIR)/scripts/check-docs.sh

# Only what the build made: with O unset, $(O) is the source tree itself.
clean:
	$(Q)rm -f $(LIB_OBJS) $(FMT_OBJS) $(CMD_OBJS) $(LIB_OBJS:.o=.d) $(FMT_OBJS:.o=.d) \
		$(CMD_OBJS:.o=.d) $(UNIT_BINS) $(UNIT_BINS:=.o) $(UNIT_BINS:=.d) \
		$(HELPER_BINS) $(HELPER_BINS:=.o) $(HELPER_BINS:=.d) \
		$(LIBCFSR) $(PROG) $(O)/libcfsreplay-objs.list $(BPF_OBJ) $(BPF_OBJ:.o=.d)

help:
	@sed -n 's/^#   //p' $(SRCDIR)/Makefile

.PHONY: all deps check demo test unit-tests valgrind bench format check-format doc clean help
