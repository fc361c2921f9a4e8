# pathdoctor: one GNU Makefile.  Knobs: CC, OPT; SANITIZE= the sanitizers
# of the check build (default address,undefined; SANITIZE=thread for the
# race check), built in a folder of its own per set; DEVELOPER=1 the
# strict warnings as errors for every build (the check build always has
# them; a user's plain build stays quiet); V=1 for full command lines;
# ISAL=no inflates gzip with zlib although ISA-L (libisal, found by
# pkg-config) is there, built in build/zlib so the two builds coexist;
# ARCHIVE=shared links the shared libarchive where its static archive
# would be used (below).

CC       ?= cc
CLANG    ?= clang
OPT      ?= -O2 -g
PKGS     := libarchive libpcap libdw zlib jansson libzstd liblzma sqlite3 libpq \
            libcrypto libxxhash
DEB_PKGS := build-essential pkg-config libarchive-dev libpcap-dev libzstd-dev \
            liblz4-dev libbz2-dev libacl1-dev nettle-dev libxml2-dev \
            liblzma-dev libisal-dev isal libarchive-tools libssl-dev \
            zstd lz4 bzip2 xz-utils \
            libdw-dev libelf-dev zlib1g-dev libjansson-dev libcmocka-dev \
            libxxhash-dev \
            clang tcpdump tshark python3-jsonschema iperf3 nftables ethtool \
            iproute2 pciutils busybox procps shellcheck chromium \
            libsqlite3-dev libpq-dev postgresql sqlite3 openssh-server \
            openssh-client parallel

DEV_WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wformat=2 -Wvla -Wwrite-strings \
            -Wpointer-arith -Wno-format-nonliteral
ifeq ($(DEVELOPER),1)
WARN     := $(DEV_WARN)
else
WARN     := -Wall
endif
# loaded when first used (src/base/dynlib.h): headers only at build time
DLOPEN_PKGS := sqlite3 libpq libcrypto libpcap
# compiled in from their headers (XXH_INLINE_ALL), never linked
INLINE_PKGS := libxxhash
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libarchive linked from its static archive where that and the -dev
# packages of what it needs are there (ARCHIVE=shared: the shared one):
# the shared libarchive brings libxml2 for the xar format, and through
# it ICU and the C++ runtime, eight libraries relocated at every start,
# which pathdoctor never reads with; linked as needed, only what the
# readers it enables call is kept (src/bundle/bundle.c)
ARCHIVE_STATIC_LIBS := -Wl,--as-needed -Wl,-Bstatic -larchive -Wl,-Bdynamic \
    $(filter-out -larchive,$(shell pkg-config --static --libs libarchive \
    2>/dev/null))
ifneq ($(ARCHIVE),shared)
ARCHIVE_STATIC := $(shell printf 'int main(void){return 0;}\n' | $(CC) -x c \
    -o /dev/null - -Wl,--no-as-needed $(ARCHIVE_STATIC_LIBS) \
    >/dev/null 2>&1 && echo yes)
endif
LINKED_PKGS  = $(filter-out $(DLOPEN_PKGS) $(INLINE_PKGS) $(if $(ARCHIVE_STATIC),libarchive), \
               $(PKGS))
PKG_LIBS   = $(if $(ARCHIVE_STATIC),$(ARCHIVE_STATIC_LIBS)) \
             $(shell pkg-config --libs $(LINKED_PKGS) 2>/dev/null) -ldl
# the SONAME of pkg-config's library $(1) named $(2), else $(3)
soname = $(or $(shell objdump -p "$$(pkg-config --variable=libdir $(1) \
         2>/dev/null)/$(2)" 2>/dev/null | awk '$$1 == "SONAME" {print $$2}'),$(3))
SONAMES := -DPD_SONAME_PQ='"$(call soname,libpq,libpq.so,libpq.so.5)"' \
           -DPD_SONAME_SQLITE='"$(call soname,sqlite3,libsqlite3.so,libsqlite3.so.0)"' \
           -DPD_SONAME_CRYPTO='"$(call soname,libcrypto,libcrypto.so,libcrypto.so.3)"' \
           -DPD_SONAME_PCAP='"$(call soname,libpcap,libpcap.so,libpcap.so.0.8)"'
CPPFLAGS := -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L $(SONAMES)
# gzip through ISA-L when it is there, zlib (always linked) otherwise
ifeq ($(ISAL),no)
B        := build/zlib
HAVE_ISAL :=
else
B        := build
HAVE_ISAL := $(shell pkg-config --exists libisal 2>/dev/null && echo yes)
endif
ifeq ($(HAVE_ISAL),yes)
PKGS     += libisal
CPPFLAGS += -DPD_HAVE_ISAL
endif
BASE_CFLAGS = -std=c11 $(PKG_CFLAGS) -MMD -MP
comma    := ,
SANITIZE ?= address,undefined
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-sanitize-recover=all \
             -fno-omit-frame-pointer
# build/san for the default set, build/san-thread for SANITIZE=thread, ...
SAN      := $(B)/san$(if $(filter address$(comma)undefined,$(SANITIZE)),,-$(subst $(comma),-,$(SANITIZE)))

SRC      := $(filter-out $(if $(HAVE_ISAL),,src/base/inflate_isal.c), \
            $(wildcard src/*.c src/*/*.c formats/*.c))
LIB_SRC  := $(filter-out src/main.c,$(SRC))
UNIT_SRC := $(wildcard tests/unit/*.c)

OBJ      := $(SRC:%.c=$(B)/obj/%.o)
SAN_OBJ  := $(SRC:%.c=$(SAN)/%.o)
SAN_LIB  := $(LIB_SRC:%.c=$(SAN)/%.o)
UNIT_OBJ := $(UNIT_SRC:%.c=$(SAN)/%.o)

ifeq ($(V),1)
Q :=
else
Q := @
endif

SAMPLE_DIRS := $(wildcard samples/bundles/*)
SAMPLES     := $(SAMPLE_DIRS:samples/bundles/%=samples/%.tgz)

.PHONY: all check check-build demo deps samples fuzz update-golden clean \
        install uninstall FORCE

all: $(B)/pathdoctor

# the link's libraries as last linked: a change (ARCHIVE=shared, a
# library installed since) links again although no object changed
$(B)/link-libs: FORCE
	@mkdir -p $(dir $@)
	@echo '$(PKG_LIBS)' | cmp -s - $@ || echo '$(PKG_LIBS)' >$@

$(B)/pathdoctor: $(OBJ) $(B)/link-libs
	$(Q)$(CC) $(OPT) -o $@ $(OBJ) $(PKG_LIBS) -lm -pthread

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(BASE_CFLAGS) $(WARN) $(OPT) -c -o $@ $<

$(SAN)/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(BASE_CFLAGS) $(DEV_WARN) -O1 -g $(SAN_FLAGS) \
	    $(shell pkg-config --cflags cmocka) -c -o $@ $<

$(SAN)/pathdoctor: $(SAN_OBJ) $(B)/link-libs
	$(Q)$(CC) $(SAN_FLAGS) -o $@ $(SAN_OBJ) $(PKG_LIBS) -lm -pthread

$(SAN)/unit-tests: $(SAN_LIB) $(UNIT_OBJ) $(B)/link-libs
	$(Q)$(CC) $(SAN_FLAGS) -o $@ $(SAN_LIB) $(UNIT_OBJ) $(PKG_LIBS) \
	    -pthread $(shell pkg-config --libs cmocka) -lm

# The fuzz harnesses, replayed without libFuzzer by onefile.c.
$(SAN)/replay-%: $(SAN)/tests/fuzz/fuzz_%.o \
    $(SAN)/tests/fuzz/onefile.o $(SAN_LIB) $(B)/link-libs
	$(Q)$(CC) $(SAN_FLAGS) -o $@ $(filter %.o,$^) $(PKG_LIBS) -lm -pthread

# check installs what is missing first, so it works on a fresh machine;
# the ThreadSanitizer binary is built beside the check build for the
# race stage (tests/tsan.sh).
check: deps
	$(Q)$(MAKE) --no-print-directory check-build
	$(Q)$(MAKE) --no-print-directory SANITIZE=thread \
	    build/san-thread/pathdoctor
	$(Q)TZ=UTC LC_ALL=C sh tests/check.sh $(SAN)

check-build: $(SAN)/pathdoctor $(SAN)/unit-tests \
    $(SAN)/replay-member $(SAN)/replay-bundle $(SAN)/replay-format \
    $(SAN)/replay-diff

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
DATADIR ?= $(PREFIX)/share/pathdoctor
INSTALLED := $(BINDIR)/pathdoctor $(BINDIR)/pathdoctor-collect \
        $(MANDIR)/man1/pathdoctor.1 $(MANDIR)/man1/pathdoctor-collect.1 \
        $(DATADIR)/report.schema.json $(DATADIR)/diff.schema.json \
        $(DATADIR)/jsonl.schema.json

install: build/pathdoctor
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(DATADIR)
	install -m 755 build/pathdoctor $(DESTDIR)$(BINDIR)/pathdoctor
	install -m 755 src/collect/pathdoctor-collect \
	    $(DESTDIR)$(BINDIR)/pathdoctor-collect
	install -m 644 src/man/pathdoctor.1 src/man/pathdoctor-collect.1 \
	    $(DESTDIR)$(MANDIR)/man1/
	install -m 644 formats/report.schema.json formats/diff.schema.json \
	    formats/jsonl.schema.json \
	    $(DESTDIR)$(DATADIR)/

uninstall:
	rm -f $(INSTALLED:%=$(DESTDIR)%)
	-rmdir $(DESTDIR)$(DATADIR) 2>/dev/null

update-golden: $(SAN)/pathdoctor
	$(Q)TZ=UTC LC_ALL=C sh tests/update-golden.sh $(if $(NEW_EXIT),-e) \
	    $(SAN)/pathdoctor $(T)

FUZZ_FLAGS := -fsanitize=fuzzer,address,undefined -O1 -g
FUZZ_TARGETS := member format bundle diff
# the replay drivers' objects are kept, not removed as intermediates
.SECONDARY: $(FUZZ_TARGETS:%=$(SAN)/tests/fuzz/fuzz_%.o) \
    $(SAN)/tests/fuzz/onefile.o
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

-include $(OBJ:.o=.d) $(SAN_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) \
    $(wildcard $(SAN)/tests/fuzz/*.d)
