# CMake toolchain file: cross-compile relocore's static CLI for arm64 guests
# (vm/cross.sh).  Debian's gcc-aarch64-linux-gnu brings the compiler and, in
# /usr/aarch64-linux-gnu, libc (libc6-dev-arm64-cross); libbpf, libelf,
# zlib and liblzma come from RC_SYSROOT (vm/sysroot.sh arm64: the arm64 -dev
# packages unpacked in the cache).
#   cmake -S . -B build/arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         -DRC_SYSROOT=DIR -DRELOCORE_CLI_ONLY=ON
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
# try_compile projects read this file again: hand them RC_SYSROOT
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES RC_SYSROOT)
if(NOT RC_SYSROOT)
  message(FATAL_ERROR "aarch64-linux-gnu.cmake: pass -DRC_SYSROOT=DIR (vm/sysroot.sh arm64)")
endif()
set(CMAKE_FIND_ROOT_PATH ${RC_SYSROOT} /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_C_FLAGS_INIT "-isystem ${RC_SYSROOT}/usr/include")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-L${RC_SYSROOT}/usr/lib/aarch64-linux-gnu")
