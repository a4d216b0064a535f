# Makefile - ptosim: `make` builds, `make check` tests, `make run` runs the default workload, `make bench` measures.
# `make check-cluster` runs only the cluster tests (a one-node Slurm cluster and an sshd; make check runs them too).
# `make check-docs` runs only the documentation's checks (its examples, links, man page; make check runs them too).

CC ?= cc
# Functions start on a cache line: otherwise a change anywhere moves the hot
# loops of every later object file (the graph reader's lost 5-8 % to one).
OPT ?= -O2 -g -falign-functions=64
BUILD := build

# Install what is missing before pkg-config is asked for flags (a fresh Debian
# machine has none of SimGrid, cJSON, Check, zlib's headers or pkg-config).
ifeq ($(filter clean format,$(MAKECMDGOALS)),)
ifneq ($(shell pkg-config --exists simgrid libcjson check zlib 2>/dev/null && echo ok),ok)
$(info ptosim: installing missing dependencies with scripts/install-deps.sh)
DEPS_STATUS := $(shell sh ./scripts/install-deps.sh >&2 && echo ok)
ifneq ($(DEPS_STATUS),ok)
$(error dependency installation failed; run scripts/install-deps.sh by hand)
endif
endif
endif

PKG_CFLAGS := $(shell pkg-config --cflags simgrid libcjson zlib 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs libcjson zlib 2>/dev/null)
# ptosim loads SimGrid when a command first simulates (sim/simgrid/simgrid_load.c), by the soname of the
# library its headers came with: import, report, gen and diff start without its 30 libraries.
comma := ,
SIMGRID_LIBS := $(shell pkg-config --libs simgrid 2>/dev/null)
SIMGRID_SONAME := $(shell objdump -p "$$(pkg-config --variable=libdir simgrid 2>/dev/null)/libsimgrid.so" \
	2>/dev/null | awk '$$1 == "SONAME" { print $$2 }')
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null)

# SAN: sanitizer flags for both compiling and linking (`make check-sanitize` sets them).
SAN ?=
LDFLAGS_ALL := $(SAN) $(LDFLAGS)

CFLAGS_ALL := $(SAN) -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	$(OPT) -MMD -MP $(PKG_CFLAGS) -DPTOSIM_DATADIR='"$(CURDIR)/platforms"' $(CFLAGS)

MODEL_SRC := $(sort $(wildcard model/*/*.c))
SIM_SRC := $(sort $(wildcard sim/*/*.c))
TEST_SRC := $(sort $(wildcard tests/*.c))

MODEL_OBJ := $(MODEL_SRC:%.c=$(BUILD)/%.o)
SIM_OBJ := $(SIM_SRC:%.c=$(BUILD)/%.o) $(BUILD)/sim/perfsim/perfsim_harness.o
# The fuzz targets' library (make fuzz, below; lint links it against $(BUILD)'s objects). import prices
# kernels with Perf-Sim too (sim/import/import_cost.c): its binding and the harness text it carries are in it.
FUZZ_LIB_SRC := $(MODEL_SRC) sim/import/import.c sim/import/import_read.c sim/import/import_graph.c \
	sim/import/import_state.c sim/import/import_heap.c sim/import/import_cost.c sim/import/import_perfsim.c \
	sim/import/import_lex.c \
	sim/perfsim/perfsim.c sim/perfsim/perfsim_price.c sim/cli/stop_signal.c sim/cli/progress.c \
	$(BUILD)/sim/perfsim/perfsim_harness.c sim/cli/cli.c sim/cli/opt_table.c \
	sim/report/report_data.c sim/report/report_data_dfx.c sim/report/report_data_sweep.c \
	sim/report/report_data_roof.c sim/json/json_scan.c sim/json/json_span.c sim/json/json_stream.c
FUZZ_LIB_OBJ := $(FUZZ_LIB_SRC:%.c=build-fuzz/%.o)
# conform's comparison, which fuzz_conform links beside the library (lint links it too)
CONFORM_CMP_SRC := sim/conform/conform_compare.c sim/conform/conform_read.c sim/conform/conform_deps.c \
	sim/conform/conform_scope_swim.c
FUZZ_LINK_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(filter-out $(BUILD)/%,$(FUZZ_LIB_SRC))) $(BUILD)/sim/perfsim/perfsim_harness.o
FUZZ_LIBS = $(shell pkg-config --libs libcjson zlib 2>/dev/null) -lm -pthread
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)

.PHONY: FORCE all check check-docs golden check-cluster check-sanitize fuzz fuzz-build run bench clean format lint chromium-dep \
	cluster-dep install perfsim-dep
all: $(BUILD)/ptosim

# Objects are rebuilt when the compile flags change (OPT, SAN, CFLAGS): the
# stamp's content is the flags, rewritten only when they differ.
$(BUILD)/.cflags: FORCE
	@mkdir -p $(BUILD)
	@printf '%s\n' '$(CFLAGS_ALL)' | cmp -s - $@ || printf '%s\n' '$(CFLAGS_ALL)' > $@
FORCE:

$(BUILD)/%.o: %.c $(BUILD)/.cflags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

# The Perf-Sim harness is C++ that `ptosim import --costs perf-sim` compiles at run time with the user's
# compiler: ptosim carries its text as a C string.
$(BUILD)/sim/perfsim/perfsim_harness.c: sim/perfsim/perfsim_harness.cpp
	@mkdir -p $(dir $@)
	@{ echo '/* generated from sim/perfsim/perfsim_harness.cpp by the Makefile */'; \
	   echo 'extern const char perfsim_harness_src[];'; echo 'const char perfsim_harness_src[] ='; \
	   sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; echo ';'; } > $@.tmp && mv $@.tmp $@

$(BUILD)/sim/perfsim/perfsim_harness.o: $(BUILD)/sim/perfsim/perfsim_harness.c $(BUILD)/.cflags
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

$(BUILD)/tests/%.o: tests/%.c $(BUILD)/.cflags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(CHECK_CFLAGS) -DPTOSIM_SRCDIR='"$(CURDIR)"' -DPTOSIM_BIN='"$(CURDIR)/$(BUILD)/ptosim"' \
		-DPTOSIM_FAILALLOC='"$(CURDIR)/$(BUILD)/failalloc.so"' -DPTOSIM_NOLOCK='"$(CURDIR)/$(BUILD)/nolock.so"' \
		-DPTOSIM_LOCKPROBE='"$(CURDIR)/$(BUILD)/lockprobe.so"' -c -o $@ $<

# The allocation-failure walk's injector (tests/test_oom.c), preloaded into ptosim: never sanitized itself
# (in build-san/ it comes before ASan's runtime and hands every allocation it does not fail to ASan's).
$(BUILD)/failalloc.so: tests/oom/failalloc.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -Wall -Wextra -Werror -shared -fPIC -o $@ $< -ldl

# A file system without locks, for the tests of ptosim's warning about it: every flock fails (tests/oom/).
$(BUILD)/nolock.so: tests/oom/nolock.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -Wall -Wextra -Werror -shared -fPIC -o $@ $<

# Whether conform holds its work dir's lock when it starts its run and when the run has ended (tests/oom/).
$(BUILD)/lockprobe.so: tests/oom/lockprobe.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -Wall -Wextra -Werror -shared -fPIC -o $@ $< -ldl

# The sanitized build links SimGrid as well: LeakSanitizer's exit-time tracer can crash on the thread-local
# data of a dlopen'd library, so there SimGrid is loaded with the program and dlopen only finds it.
$(BUILD)/ptosim: $(MODEL_OBJ) $(SIM_OBJ) $(BUILD)/sim/main.o
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS) $(if $(SAN),-Wl$(comma)--no-as-needed $(SIMGRID_LIBS)) -ldl -lm -pthread

$(BUILD)/sim/simgrid/simgrid_load.o: CFLAGS_ALL += -DPTOSIM_SIMGRID_LIB='"$(or $(SIMGRID_SONAME),libsimgrid.so)"'

# the tests call SimGrid themselves too (a deadlock made on purpose): linked, as well as loaded
$(BUILD)/run_tests: $(TEST_OBJ) $(MODEL_OBJ) $(SIM_OBJ) | $(BUILD)/failalloc.so $(BUILD)/nolock.so \
		$(BUILD)/lockprobe.so
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS) $(SIMGRID_LIBS) $(CHECK_LIBS) -ldl -lm -pthread

# model/ must stay free of SimGrid so its tests need no engine, its includes must keep to the layers of
# model/README.md §0 (scripts/check_layers.sh), every "FILE §N" citation must resolve
# to a file and section of the repository, and the fuzz targets must compile.
lint: $(FUZZ_LINK_OBJ) $(CONFORM_CMP_SRC:%.c=$(BUILD)/%.o)
	@if grep -rn -e '#include <simgrid' -e '#include <xbt' model/; then \
		echo "model/ must not include SimGrid headers" >&2; exit 1; fi
	@sh scripts/check_citations.sh
	@sh scripts/check_layers.sh
	@# the fuzz targets need clang to build (make fuzz); their calls are checked here so they cannot drift,
	@# and each is linked (with a stand-in main) against the objects its library list names, so a function
	@# that moved to a file the list lacks is found here rather than by the next `make fuzz-build`
	@printf 'int main(void) { return 0; }\n' > $(BUILD)/fuzz_main.c
	@for f in tests/fuzz/fuzz_*.c; do \
		extra=; [ $$f = tests/fuzz/fuzz_conform.c ] && extra="$(CONFORM_CMP_SRC:%.c=$(BUILD)/%.o)"; \
		$(CC) -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(PKG_CFLAGS) \
			-o $(BUILD)/fuzz_link $$f $(BUILD)/fuzz_main.c $(FUZZ_LINK_OBJ) $$extra $(FUZZ_LIBS) || exit 1; done
	@rm -f $(BUILD)/fuzz_link $(BUILD)/fuzz_main.c

# The report tests render a page in headless Chromium (Debian's `chromium`).
chromium-dep:
	@command -v chromium >/dev/null 2>&1 || sh ./scripts/install-deps.sh --chromium

# The cluster tests start munged, slurmctld, slurmd and sshd as root (Debian's slurm-wlm, munge, openssh-server,
# and GNU parallel); without root they say they are skipped.
cluster-dep:
	@if [ "$$(id -u)" -eq 0 ]; then sh ./scripts/install-deps.sh --cluster; fi

# The Perf-Sim tests compile kernels with pto-isa and the runtime's kernels, which only ../shared/ holds
# (SHARED= elsewhere): unpacked into build/perfsim/ when there, with clang++-19 installed when missing;
# without them those tests say they are skipped. Their compiled kernels are cached in build/perfsim/cache.
SHARED ?= ../shared
perfsim-dep:
	@sh ./scripts/perfsim-trees.sh $(SHARED) $(CURDIR)/build/perfsim

check: lint chromium-dep cluster-dep perfsim-dep $(BUILD)/ptosim $(BUILD)/run_tests
	./$(BUILD)/run_tests
	sh tests/golden/golden.sh $(BUILD)/ptosim check
	$(MAKE) --no-print-directory check-docs
	sh tests/cluster/test_cluster.sh $(BUILD)/ptosim

# Byte-identity guard (tests/golden/golden.sh): `make check` compares every shipped trace's outputs with
# tests/golden/outputs.sha256; `make golden` re-records them, only when the model is meant to change.
golden: $(BUILD)/ptosim
	sh tests/golden/golden.sh $(BUILD)/ptosim record

# The documentation's checks (docs/contributing-docs.md): every ```console example of README.md and docs/
# runs and prints what it says, every relative link resolves, and the man page and bash completion know
# every command and option the binary's --help lists. All three run, so one run shows every problem.
check-docs: $(BUILD)/ptosim
	@rc=0; PTOSIM_BIN=$(BUILD)/ptosim bash scripts/check_docs.sh || rc=1; \
	bash scripts/check_links.sh || rc=1; \
	bash scripts/check_manpage.sh $(BUILD)/ptosim || rc=1; exit $$rc

check-cluster: cluster-dep $(BUILD)/ptosim
	sh tests/cluster/test_cluster.sh $(BUILD)/ptosim

# The binary and the tests built with ASan and UBSan into build-san/, then the
# whole suite. ASan writes what it reports to build-san/asan.* instead of
# stderr, so tests that compare stderr exactly still pass;
# scripts/sanitize-report.sh fails the target on any report in those files but
# SimGrid's known warning about its ucontext switches. A UBSan finding aborts
# the process (status 134, its report on stderr), which no test expects: GCC's
# libubsan ignores log_path. Each test's timeout (Check's, there to catch a hang) is tripled: an -O1 build
# under ASan runs two to three times slower, and one pmu test of seven runs passed 4 s on a loaded host.
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
check-sanitize: lint chromium-dep perfsim-dep
	@rm -f build-san/asan.*
	$(MAKE) BUILD=build-san OPT='-O1 -g' SAN='$(SAN_FLAGS)' build-san/ptosim build-san/run_tests
	ASAN_OPTIONS=log_path=$(CURDIR)/build-san/asan:detect_leaks=1:abort_on_error=0 \
	CK_TIMEOUT_MULTIPLIER=$${CK_TIMEOUT_MULTIPLIER:-3} \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp \
		sh -c './build-san/run_tests && sh tests/golden/golden.sh build-san/ptosim check'; rc=$$?; \
		sh ./scripts/sanitize-report.sh build-san && exit $$rc

# libFuzzer targets (clang) for the graph reader (and it against the reader it
# replaced), the platform loader, the import reader, the report's readers of a run's files and the
# Perf-Sim result readers, built into
# build-fuzz/ with ASan and UBSan; `make fuzz` runs
# each for FUZZ_SECONDS (600) from its seeds in tests/fuzz/seeds/ and fails
# on a finding (scripts/fuzz.sh). clang and libFuzzer come from Debian
# (scripts/install-deps.sh --fuzz) when missing.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 600
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O1 -g \
	-fno-omit-frame-pointer $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(shell pkg-config --cflags libcjson zlib 2>/dev/null) \
	-DPTOSIM_DATADIR='"$(CURDIR)/platforms"'
FUZZ_TARGETS := graph graph_diff platform import report conform perfsim graph_compiled

# -MMD: an object is rebuilt when a header it includes changes (a stale one, built against another layout of
# a struct, reads it wrong and the sanitizers report what the source does not do)
build-fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzzutil.h $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) $(FUZZ_LIBS)

# conform's comparison is conform_compare.c and the files it calls (CONFORM_CMP_SRC), not the command's conform.c
build-fuzz/fuzz_conform: tests/fuzz/fuzz_conform.c tests/fuzz/fuzzutil.h $(FUZZ_LIB_OBJ) \
		$(CONFORM_CMP_SRC:%.c=build-fuzz/%.o)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) $(CONFORM_CMP_SRC:%.c=build-fuzz/%.o) $(FUZZ_LIBS)

# the reader before the flat doc is compiled into the target that compares the two
build-fuzz/fuzz_graph_diff: tests/fuzz/fuzz_graph_diff.c tests/fuzz/graph_old.c tests/fuzz/fuzzutil.h \
		$(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) $(FUZZ_LIBS)

fuzz-build:
	@sh ./scripts/install-deps.sh --fuzz
	$(MAKE) $(FUZZ_TARGETS:%=build-fuzz/fuzz_%)

fuzz: fuzz-build
	sh ./scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

run: $(BUILD)/ptosim
	./$(BUILD)/ptosim run traces/default.jsonl -o out/default --enable-chip-swimlane

# Speed and memory figures (not a test: the machines are noisy); see scripts/bench/run.sh.
bench: $(BUILD)/ptosim $(BUILD)/measure $(BUILD)/heap_baseline
	BUILD=$(BUILD) sh scripts/bench/run.sh

$(BUILD)/measure: scripts/bench/measure.c
	@mkdir -p $(BUILD)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -o $@ $<

$(BUILD)/heap_baseline: scripts/bench/heap_baseline.c
	@mkdir -p $(BUILD)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -o $@ $<

# make install PREFIX=... DESTDIR=...: the binary, its platforms (found beside it, in
# PREFIX/share/ptosim/platforms), the man page and bash completion.
PREFIX ?= /usr/local
install: $(BUILD)/ptosim
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/ptosim/platforms \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 $(BUILD)/ptosim $(DESTDIR)$(PREFIX)/bin/ptosim
	install -m 644 platforms/*.json platforms/*.xml $(DESTDIR)$(PREFIX)/share/ptosim/platforms/
	install -m 644 sim/ptosim.1 $(DESTDIR)$(PREFIX)/share/man/man1/ptosim.1
	install -m 644 sim/ptosim.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/ptosim

clean:
	rm -rf $(BUILD) build-san build-fuzz out

format:
	clang-format -i model/*/*.c model/*/*.h sim/*.c sim/*/*.c sim/*/*.h tests/*.c tests/*.h

-include $(MODEL_OBJ:.o=.d) $(SIM_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BUILD)/sim/main.d
-include $(FUZZ_LIB_OBJ:.o=.d) $(CONFORM_CMP_SRC:%.c=build-fuzz/%.d)
