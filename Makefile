# Makefile - ptosim: `make` builds, `make check` tests, `make run` runs the default workload, `make bench` measures.
# `make check-cluster` runs only the cluster tests (a one-node Slurm cluster and an sshd; make check runs them too).

CC ?= cc
OPT ?= -O2 -g
BUILD := build

# Install what is missing before pkg-config is asked for flags (a fresh Debian
# machine has none of SimGrid, cJSON, Check or pkg-config).
ifeq ($(filter clean format,$(MAKECMDGOALS)),)
ifneq ($(shell pkg-config --exists simgrid libcjson check 2>/dev/null && echo ok),ok)
$(info ptosim: installing missing dependencies with scripts/install-deps.sh)
DEPS_STATUS := $(shell sh ./scripts/install-deps.sh >&2 && echo ok)
ifneq ($(DEPS_STATUS),ok)
$(error dependency installation failed; run scripts/install-deps.sh by hand)
endif
endif
endif

PKG_CFLAGS := $(shell pkg-config --cflags simgrid libcjson 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs simgrid libcjson 2>/dev/null)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null)

CFLAGS_ALL := -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	$(OPT) -MMD -MP $(PKG_CFLAGS) -DPTOSIM_DATADIR='"$(CURDIR)/platforms"' $(CFLAGS)

MODEL_SRC := $(sort $(wildcard model/*.c))
SIM_SRC := $(filter-out sim/main.c,$(sort $(wildcard sim/*.c)))
TEST_SRC := $(sort $(wildcard tests/*.c))

MODEL_OBJ := $(MODEL_SRC:%.c=$(BUILD)/%.o)
SIM_OBJ := $(SIM_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)

.PHONY: all check check-cluster run bench clean format lint chromium-dep cluster-dep install
all: $(BUILD)/ptosim

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(CHECK_CFLAGS) -DPTOSIM_SRCDIR='"$(CURDIR)"' -c -o $@ $<

$(BUILD)/ptosim: $(MODEL_OBJ) $(SIM_OBJ) $(BUILD)/sim/main.o
	$(CC) -o $@ $^ $(PKG_LIBS) -lm -pthread

$(BUILD)/run_tests: $(TEST_OBJ) $(MODEL_OBJ) $(SIM_OBJ)
	$(CC) -o $@ $^ $(PKG_LIBS) $(CHECK_LIBS) -lm -pthread

# model/ must stay free of SimGrid so its tests need no engine.
lint:
	@if grep -rn -e '#include <simgrid' -e '#include <xbt' model/; then \
		echo "model/ must not include SimGrid headers" >&2; exit 1; fi

# The report tests render a page in headless Chromium (Debian's `chromium`).
chromium-dep:
	@command -v chromium >/dev/null 2>&1 || sh ./scripts/install-deps.sh --chromium

# The cluster tests start munged, slurmctld, slurmd and sshd as root (Debian's slurm-wlm, munge, openssh-server,
# and GNU parallel); without root they say they are skipped.
cluster-dep:
	@if [ "$$(id -u)" -eq 0 ]; then sh ./scripts/install-deps.sh --cluster; fi

check: lint chromium-dep cluster-dep $(BUILD)/ptosim $(BUILD)/run_tests
	./$(BUILD)/run_tests
	sh tests/cluster/test_cluster.sh $(BUILD)/ptosim

check-cluster: cluster-dep $(BUILD)/ptosim
	sh tests/cluster/test_cluster.sh $(BUILD)/ptosim

run: $(BUILD)/ptosim
	./$(BUILD)/ptosim run traces/default.jsonl -o out/default --enable-chip-swimlane

# Speed and memory figures (not a test: the machines are noisy); see bench/run.sh.
bench: $(BUILD)/ptosim $(BUILD)/measure $(BUILD)/heap_baseline
	BUILD=$(BUILD) sh bench/run.sh

$(BUILD)/measure: bench/measure.c
	@mkdir -p $(BUILD)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -o $@ $<

$(BUILD)/heap_baseline: bench/heap_baseline.c
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
	rm -rf $(BUILD) out

format:
	clang-format -i model/*.c model/*.h sim/*.c sim/*.h tests/*.c tests/*.h

-include $(MODEL_OBJ:.o=.d) $(SIM_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BUILD)/sim/main.d
