# pathdoctor: one GNU Makefile.  Knobs: CC, OPT, SANITIZE (the check
# build uses address,undefined), V=1 for full command lines.

CC       ?= cc
CLANG    ?= clang
OPT      ?= -O2 -g
PKGS     := libarchive libpcap libdw zlib jansson
DEB_PKGS := build-essential pkg-config libarchive-dev libpcap-dev \
            libdw-dev libelf-dev zlib1g-dev libjansson-dev libcmocka-dev \
            clang tcpdump tshark python3-jsonschema iperf3 nftables ethtool \
            iproute2 pciutils busybox

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wformat=2 -Wvla -Wwrite-strings \
            -Wpointer-arith -Wno-format-nonliteral
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CPPFLAGS := -Iinclude -D_POSIX_C_SOURCE=200809L
BASE_CFLAGS = -std=c11 $(WARN) $(PKG_CFLAGS) -MMD -MP
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
             -fno-omit-frame-pointer

SRC      := $(wildcard src/*.c src/rules/*.c formats/*.c)
LIB_SRC  := $(filter-out src/main.c,$(SRC))
UNIT_SRC := $(wildcard tests/unit/*.c)

OBJ      := $(SRC:%.c=build/obj/%.o)
SAN_OBJ  := $(SRC:%.c=build/san/%.o)
SAN_LIB  := $(LIB_SRC:%.c=build/san/%.o)
UNIT_OBJ := $(UNIT_SRC:%.c=build/san/%.o)

ifeq ($(V),1)
Q :=
else
Q := @
endif

SAMPLE_DIRS := $(wildcard samples/bundles/*)
SAMPLES     := $(SAMPLE_DIRS:samples/bundles/%=samples/%.tgz)

.PHONY: all check check-build demo deps samples fuzz update-golden clean \
        install

all: build/pathdoctor

build/pathdoctor: $(OBJ)
	$(Q)$(CC) $(OPT) -o $@ $^ $(PKG_LIBS) -lm -pthread

build/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(BASE_CFLAGS) $(OPT) -c -o $@ $<

build/san/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(BASE_CFLAGS) -O1 -g $(SAN_FLAGS) \
	    $(shell pkg-config --cflags cmocka) -c -o $@ $<

build/san/pathdoctor: $(SAN_OBJ)
	$(Q)$(CC) $(SAN_FLAGS) -o $@ $^ $(PKG_LIBS) -lm -pthread

build/san/unit-tests: $(SAN_LIB) $(UNIT_OBJ)
	$(Q)$(CC) $(SAN_FLAGS) -o $@ $^ $(PKG_LIBS) -pthread \
	    $(shell pkg-config --libs cmocka) -lm

# The fuzz harnesses, replayed without libFuzzer by onefile.c.
build/san/replay-%: build/san/tests/fuzz/fuzz_%.o \
    build/san/tests/fuzz/onefile.o $(SAN_LIB)
	$(Q)$(CC) $(SAN_FLAGS) -o $@ $^ $(PKG_LIBS) -lm -pthread

# check installs what is missing first, so it works on a fresh machine.
check: deps
	$(Q)$(MAKE) --no-print-directory check-build
	$(Q)TZ=UTC LC_ALL=C sh tests/check.sh build/san

check-build: build/san/pathdoctor build/san/unit-tests \
    build/san/replay-member build/san/replay-bundle build/san/replay-format

samples: $(SAMPLES)

samples/%.tgz: samples/bundles/% samples/make-bundle.sh \
    $(shell find samples/bundles -type f 2>/dev/null)
	$(Q)sh samples/make-bundle.sh $< $@

deps:
	@missing=$$(for p in $(DEB_PKGS); do \
	    dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "installing:" $$missing; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq $$missing >/dev/null; \
	fi

demo: deps
	$(Q)$(MAKE) --no-print-directory all samples
	./build/pathdoctor samples/gx10-before.tgz

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man

install: build/pathdoctor
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 build/pathdoctor $(DESTDIR)$(BINDIR)/pathdoctor
	install -m 755 src/collect/pathdoctor-collect \
	    $(DESTDIR)$(BINDIR)/pathdoctor-collect
	install -m 644 src/man/pathdoctor.1 src/man/pathdoctor-collect.1 \
	    $(DESTDIR)$(MANDIR)/man1/

update-golden: build/san/pathdoctor
	$(Q)TZ=UTC LC_ALL=C sh tests/update-golden.sh $(if $(NEW_EXIT),-e) \
	    build/san/pathdoctor $(T)

FUZZ_FLAGS := -fsanitize=fuzzer,address,undefined -O1 -g
FUZZ_TARGETS := member format bundle
fuzz: $(LIB_SRC) $(FUZZ_TARGETS:%=tests/fuzz/fuzz_%.c)
	@mkdir -p build/fuzz
	$(Q)for t in $(FUZZ_TARGETS); do \
	    $(CLANG) -std=c11 $(CPPFLAGS) $(PKG_CFLAGS) $(FUZZ_FLAGS) \
	        -o build/fuzz/fuzz_$$t tests/fuzz/fuzz_$$t.c $(LIB_SRC) \
	        $(PKG_LIBS) -lm -pthread || exit 1; done
	@echo "run: build/fuzz/fuzz_member tests/fuzz/corpus/member" \
	    "(fuzz_format the same corpus, fuzz_bundle tests/fuzz/corpus/bundle)"

clean:
	rm -rf build

-include $(OBJ:.o=.d) $(SAN_OBJ:.o=.d) $(UNIT_OBJ:.o=.d)
