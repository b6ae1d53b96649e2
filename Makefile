# relocore: thin driver over CMake and the test scripts.
#   make demo    the end-to-end proof
#   make check   the whole test suite (ends with "N passed, N failed")
.PHONY: all build deps demo check bench fuzz clean

all: build

deps:
	@bash scripts/deps.sh

build: deps
	@cmake -S . -B build -G "Unix Makefiles" >/dev/null
	@$(MAKE) --no-print-directory -C build -j2

demo: build
	@bash scripts/demo.sh

check: build
	@bash scripts/check.sh

bench: build
	@bash bench/run.sh

clean:
	rm -rf build
