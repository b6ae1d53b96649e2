# relocore: thin driver over CMake and the test scripts.
#   make demo    the end-to-end proof (with the libbpf-tools that have a
#                ground truth; make demo-full: all 52 of them, both ways)
#   make check   the whole test suite (ends with "N passed, N failed")
#   make install [PREFIX=/usr/local] [DESTDIR=...]   (make uninstall)
.PHONY: all build deps demo demo-full check bench fuzz clean install uninstall times-start

PREFIX ?= /usr/local

# make check and make demo end with a report of where their time went: every
# long step (deps, build, suites, downloads, kernel builds, guests) appends a
# line to build/times.tsv (scripts/cache.sh: rc_time; scripts/times.py)
check demo demo-full: export RC_TIMES = $(CURDIR)/build/times.tsv
# stamp STEP START: one line of the report, when there is one.  Only the
# make that set RC_TIMES writes (a suite's own `make install` runs inside a
# report: RC_TIMES comes to it from the environment)
top = $(filter file,$(origin RC_TIMES))
stamp = { [ -z "$$RC_TIMES" ] || [ -z "$(top)" ] || printf '%s\t%s\t%s\t%s\t\n' $(1) $(1) $$(( $$(date +%s) - $(2) )) $(2) >>"$$RC_TIMES"; }

all: build

times-start:
	@if [ -n "$$RC_TIMES" ] && [ -n "$(top)" ]; then mkdir -p build && : >"$$RC_TIMES"; fi

deps: times-start
	@t=$$(date +%s); bash scripts/deps.sh && $(call stamp,deps,$$t)

build: deps
	@t=$$(date +%s); \
	cmake -S . -B build -G "Unix Makefiles" -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null && \
	$(MAKE) --no-print-directory -C build -j2 && $(call stamp,build,$$t)

demo: build
	@bash scripts/demo.sh

demo-full: build
	@RC_VM_TOOLS=1 bash scripts/demo.sh

check: build
	@bash scripts/check.sh

bench: build
	@bash bench/run.sh

# CMake's install rules (GNUInstallDirs); DESTDIR is honoured by cmake --install.
install: build
	@DESTDIR="$(DESTDIR)" cmake --install build
	@printf '%s\n' "$(DESTDIR)" >build/install_destdir

# Removes what the last make install from build/ wrote
# (build/install_manifest.txt), under the DESTDIR that install was given.
uninstall:
	@DESTDIR="$(or $(DESTDIR),$(shell cat build/install_destdir 2>/dev/null))" \
		cmake -DMANIFEST=$(CURDIR)/build/install_manifest.txt -P scripts/uninstall.cmake
	@rm -f build/install_destdir

clean:
	rm -rf build
