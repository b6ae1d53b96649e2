# CMake toolchain file: cross-compile relocore's static CLI for s390x guests (big-endian)
# (vm/cross.sh).  Debian's gcc-s390x-linux-gnu brings the compiler and, in
# /usr/s390x-linux-gnu, libc (libc6-dev-s390x-cross); libbpf, libelf,
# zlib and liblzma come from RC_SYSROOT (vm/sysroot.sh s390x: the s390x -dev
# packages unpacked in the cache).
#   cmake -S . -B build/s390x -DCMAKE_TOOLCHAIN_FILE=cmake/s390x-linux-gnu.cmake \
#         -DRC_SYSROOT=DIR -DRELOCORE_CLI_ONLY=ON
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(CMAKE_C_COMPILER s390x-linux-gnu-gcc)
# try_compile projects read this file again: hand them RC_SYSROOT
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES RC_SYSROOT)
if(NOT RC_SYSROOT)
  message(FATAL_ERROR "s390x-linux-gnu.cmake: pass -DRC_SYSROOT=DIR (vm/sysroot.sh s390x)")
endif()
set(CMAKE_FIND_ROOT_PATH ${RC_SYSROOT} /usr/s390x-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_LIBRARY_ARCHITECTURE s390x-linux-gnu)
set(CMAKE_C_FLAGS_INIT "-isystem ${RC_SYSROOT}/usr/include")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-L${RC_SYSROOT}/usr/lib/s390x-linux-gnu")
