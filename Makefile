# relocore: thin driver over CMake and the test scripts.
#   make demo    the end-to-end proof
#   make check   the whole test suite (ends with "N passed, N failed")
#   make install [PREFIX=/usr/local] [DESTDIR=...]   (make uninstall)
.PHONY: all build deps demo check bench fuzz clean install uninstall

PREFIX ?= /usr/local

all: build

deps:
	@bash scripts/deps.sh

build: deps
	@cmake -S . -B build -G "Unix Makefiles" -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	@$(MAKE) --no-print-directory -C build -j2

demo: build
	@bash scripts/demo.sh

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
