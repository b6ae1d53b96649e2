#!/usr/bin/env bash
# scripts/build.sh - `make build`: configure (CMake) and build relocore into
# build/ with both cores, one line in the time report (step "build").
# make demo runs it itself (scripts/demo.sh), after starting the kernel
# builds, so that the two overlap.
set -euo pipefail
source "$(dirname "$0")/cache.sh"
t=$(date +%s)
cmake -S "$RC_ROOT" -B "$RC_BUILD" -G "Unix Makefiles" -DCMAKE_INSTALL_PREFIX="${PREFIX:-/usr/local}" >/dev/null
make --no-print-directory -C "$RC_BUILD" -j2
rc_time build build "$t"
