# wbtop - a top-like monitor for Linux writeback.
#
#   make            build ./wbtop (installs missing build dependencies as root)
#   make check      build with ASan+UBSan, run unit, end-to-end and fuzz tests
#   make bench      print the cost figures (callgrind instructions, CPU, RSS)
#   make dips-eval  run the labelled live corpus of the dip detector (root, ~8 min)
#   make dips-lab   record the lab corpus of the dip detector (root, qemu, ~30 min)
#   make dips-fit   fit the dip rule's defaults on the corpus's training part
#   make check-load  the exporter under load: 50 scrapers x 1000 requests (root, ~20 s)
#   make check-kernels  boot Debian 12's kernels (6.1, 6.12) under qemu and check every
#                   kernel-loop figure against independent readings (root, after
#                   sh tools/deps.sh lab; ~5 min; tests/lab/)
#   make install    PREFIX=/usr/local DESTDIR=
#   a Debian package: dpkg-buildpackage -us -uc -b (debian/; tests/e2e/t_deb.sh)
#   make fuzz       run the fuzz targets for longer (FUZZ_SECONDS each)

# Build in parallel by default: three variants (plain, sanitized, fuzz)
# of every file are a lot for one core.
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BUILD  ?= build
CC     ?= cc

# Dependencies first: the pkg-config flags below need them installed.
ifeq ($(filter clean distclean,$(MAKECMDGOALS)),)
ifneq ($(filter check bench fuzz,$(MAKECMDGOALS)),)
DEPS_STATUS := $(shell tools/deps.sh test >&2 && echo ok)
else
DEPS_STATUS := $(shell tools/deps.sh >&2 && echo ok)
endif
ifneq ($(DEPS_STATUS),ok)
$(error missing build dependencies, see the message above)
endif
endif

PKGS       := ncursesw libproc2 blkid sqlite3 libtracefs libtraceevent libmicrohttpd libcrypt
PC_CFLAGS  := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PC_LIBS    := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm -pthread
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wformat=2 -Wpointer-arith -Wcast-align -Wwrite-strings -Wvla -Wundef \
	-Wold-style-definition -Wno-format-nonliteral
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -Iinclude $(WARN) $(PC_CFLAGS) $(CPPFLAGS) $(CFLAGS) -MMD -MP
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# One folder a layer (util, core, source, rec, sink, screen, run: doc/design.md); objects keep it.
SRC      := $(sort $(wildcard src/*/*.c))
LIB_SRC  := $(filter-out src/run/main.c,$(SRC))
OBJ      := $(SRC:src/%.c=$(BUILD)/obj/%.o)
SAN_OBJ  := $(SRC:src/%.c=$(BUILD)/san/%.o)
SAN_LIB  := $(LIB_SRC:src/%.c=$(BUILD)/san/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_LIB := $(LIB_SRC:src/%.c=$(BUILD)/fuzz/lib/%.o)
FUZZ_CC  ?= clang
FUZZFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
UNIT_OBJ := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/san/unit/%.o)

.PHONY: all run check unit e2e fuzz fuzz-build bench dips-eval dips-lab dips-fit check-kernels check-load install uninstall clean distclean
all: wbtop

# Build and start the monitor: make run ARGS="-d 2"
run: wbtop
	./wbtop $(ARGS)

# CPPFLAGS and LDFLAGS as the environment gives them (dpkg's hardening flags).
wbtop: $(OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJ) $(PC_LIBS)

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The sanitized build that every test runs against.
$(BUILD)/san/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SANFLAGS) -c -o $@ $<

# The end-to-end tests' probe of the writeback trace comes with it.
$(BUILD)/san/wbtop: $(SAN_OBJ) | $(BUILD)/san/wbprobe
	$(CC) $(SANFLAGS) -o $@ $(SAN_OBJ) $(PC_LIBS)

# One Check runner for every suite: each tests/unit/test_*.c defines one or
# more "Suite *NAME_suite(void)"; the list is generated from the sources.
$(BUILD)/san/unit/suites.h: $(UNIT_SRC) Makefile
	@mkdir -p $(@D)
	@sed -n 's/^Suite \*\([a-z0-9_]*_suite\)(void)$$/\1/p' $(UNIT_SRC) | sort -u > $@.names
	@{ while read s; do echo "Suite *$$s(void);"; done < $@.names; \
	   echo "#define UNIT_SUITES \\"; \
	   while read s; do echo "	$$s, \\"; done < $@.names; echo; \
	   echo "#define UNIT_SUITE_NAMES \\"; \
	   while read s; do echo "	\"$${s%_suite}\", \\"; done < $@.names; echo; } > $@
	@rm -f $@.names

$(BUILD)/san/unit/%.o: tests/unit/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) $(SANFLAGS) -Wno-missing-prototypes -c -o $@ $<

$(BUILD)/san/unit/runner.o: tests/unit/runner.c $(BUILD)/san/unit/suites.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) $(SANFLAGS) -I$(BUILD)/san/unit -c -o $@ $<

$(BUILD)/san/unit-tests: $(BUILD)/san/unit/runner.o $(UNIT_OBJ) $(SAN_LIB)
	$(CC) $(SANFLAGS) -o $@ $^ $(CHECK_LIBS) $(PC_LIBS)

# Test-only drivers of modules the end-to-end tests look at directly.
$(BUILD)/san/wbprobe: tests/probe/wbprobe.c $(SAN_LIB)
	$(CC) $(ALL_CFLAGS) $(SANFLAGS) -MF $@.d -o $@ $< $(SAN_LIB) $(PC_LIBS)

unit: $(BUILD)/san/unit-tests
	$(BUILD)/san/unit-tests

e2e: $(BUILD)/san/wbtop wbtop $(BUILD)/san/wbprobe
	WBPROBE=$(CURDIR)/$(BUILD)/san/wbprobe WBTOP=$(CURDIR)/$(BUILD)/san/wbtop WBTOP_PLAIN=$(CURDIR)/wbtop sh tests/e2e/run.sh

# libFuzzer targets (clang): the library code built once more with clang,
# since gcc's and clang's sanitizer runtimes do not mix.
$(BUILD)/fuzz/lib/%.o: src/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -Iinclude $(PC_CFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB)
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -Iinclude $(PC_CFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer -MMD -MP -MF $@.d -o $@ $< $(FUZZ_LIB) $(PC_LIBS)

# keep the clang objects: they are not intermediate files to clean up
.SECONDARY: $(FUZZ_LIB)

fuzz-build: $(FUZZ_BIN)

# Longer fuzzing than make check does: make fuzz FUZZ_SECONDS=600
FUZZ_SECONDS ?= 300
fuzz: $(FUZZ_BIN)
	FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh "$(BUILD)"

# The bench's own program is built too, so that a change it no longer compiles with fails here.
check: wbtop $(BUILD)/san/wbtop $(BUILD)/san/unit-tests $(BUILD)/san/wbprobe $(FUZZ_BIN) \
	$(BUILD)/bench/rec_bench $(BUILD)/bench/detect_bench $(BUILD)/bench/wbprobe
	@sh tests/check.sh "$(BUILD)"

# The recording bench links the program's own objects (all but main).
$(BUILD)/bench/rec_bench: bench/rec_bench.c $(filter-out $(BUILD)/obj/run/main.o,$(OBJ))
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(PC_LIBS)

# The kernel loop's probe for its bench, optimised as ./wbtop is, from the program's objects.
$(BUILD)/bench/wbprobe: tests/probe/wbprobe.c $(filter-out $(BUILD)/obj/run/main.o,$(OBJ))
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(PC_LIBS)

# The detector's bench links the detector alone.
$(BUILD)/bench/detect_bench: bench/detect_bench.c $(BUILD)/obj/core/detect.o $(BUILD)/obj/util/median.o \
		$(BUILD)/obj/util/sortwin.o $(BUILD)/obj/util/hashidx.o $(BUILD)/obj/util/grow.o
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lm

bench: wbtop $(BUILD)/bench/rec_bench $(BUILD)/bench/detect_bench $(BUILD)/bench/wbprobe
	@BUILD=$(BUILD) sh bench/bench.sh

# Writers at known rates on loop filesystems, drops of known depth injected, wbtop's marks
# scored against them (tests/dips/corpus.sh).
dips-eval: wbtop
	@DIPS_SEED=$(DIPS_SEED) sh tests/dips/corpus.sh $(CURDIR)/wbtop

# The dip corpus of the lab: the thread's experiment and injected slowdowns on Debian's kernels,
# recorded once and labelled from qemu's count of each disk's writes (tests/lab/corpus_guest.sh,
# tests/dips/lab_labels.py); the recordings and labels are committed in tests/dips/corpus, and
# make check scores them again (t_dips_corpus).  dips-fit fits the rule's defaults on them.
# A corpus is named by its bus (tests/dips/corpus/busN): make dips-lab DIPS_BUS_MIB=24
# DIPS_DISK_MIB=16 DIPS_SECTORS_KB=256 DIPS_SEED=29 records bus24.
DIPS_BUS_MIB ?= 48
DIPS_DISK_MIB ?= 32
DIPS_SECTORS_KB ?= 64
DIPS_SEED ?=
dips-lab: wbtop
	@rm -rf $(BUILD)/dips-lab-bus$(DIPS_BUS_MIB) && \
		WBTOP=$(CURDIR)/wbtop LAB_RESULTS=$(CURDIR)/$(BUILD)/dips-lab-bus$(DIPS_BUS_MIB) \
		LAB_SCRIPT=corpus_guest.sh LAB_CHECK=none LAB_TIMEOUT=2400 \
		LAB_BUS_BPS=$$(($(DIPS_BUS_MIB) * 1048576)) LAB_DISK_BPS=$$(($(DIPS_DISK_MIB) * 1048576)) \
		CORPUS_SECTORS_KB=$(DIPS_SECTORS_KB) CORPUS_SEED=$(DIPS_SEED) sh tests/lab/run.sh && \
		python3 tests/dips/lab_labels.py $(CURDIR)/wbtop $(BUILD)/dips-lab-bus$(DIPS_BUS_MIB) \
		tests/dips/corpus/bus$(DIPS_BUS_MIB)

dips-fit: wbtop
	@python3 tests/dips/fit.py $(CURDIR)/wbtop tests/dips/corpus tests/dips/split.txt

# The kernel lab (tests/lab/run.sh): real kernels under qemu, cgroup v2, device-mapper, md.
check-kernels: wbtop
	@WBTOP=$(CURDIR)/wbtop LAB_RESULTS=$(CURDIR)/$(BUILD)/lab sh tests/lab/run.sh

# The exporter under load (issue 33): 50 scrapers of 1000 requests each at 10 loop devices;
# no failed scrape, no missed sample, RSS bounded (tests/listen/load.py; root, about 20 s).
check-load: wbtop
	@sh tests/listen/run_load.sh

install: wbtop
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 wbtop $(DESTDIR)$(BINDIR)/wbtop
	install -m 644 wbtop.1 $(DESTDIR)$(MANDIR)/man1/wbtop.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/wbtop $(DESTDIR)$(MANDIR)/man1/wbtop.1

clean:
	rm -rf $(BUILD) wbtop

distclean: clean

-include $(OBJ:.o=.d) $(SAN_OBJ:.o=.d) $(BUILD)/san/wbprobe.d $(UNIT_OBJ:.o=.d) $(FUZZ_LIB:.o=.d) $(FUZZ_BIN:=.d)
