# CMake toolchain file: cross-compile relocore's static CLI for the guests
# of a foreign Debian architecture (vm/cross.sh): RC_TRIPLET names it
# (aarch64-linux-gnu for arm64, s390x-linux-gnu for s390x).  Debian's
# gcc-RC_TRIPLET brings the compiler and, in /usr/RC_TRIPLET, libc
# (libc6-dev-ARCH-cross); libbpf, libelf, zlib and liblzma come from
# RC_SYSROOT (vm/sysroot.sh ARCH: that architecture's -dev packages
# unpacked in the cache).
#   cmake -S . -B build/ARCH -DCMAKE_TOOLCHAIN_FILE=cmake/cross-linux-gnu.cmake \
#         -DRC_TRIPLET=TRIPLET -DRC_SYSROOT=DIR -DRELOCORE_CLI_ONLY=ON
# try_compile projects read this file again: hand them both
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES RC_SYSROOT RC_TRIPLET)
if(NOT RC_SYSROOT OR NOT RC_TRIPLET)
  message(FATAL_ERROR "cross-linux-gnu.cmake: pass -DRC_TRIPLET=TRIPLET -DRC_SYSROOT=DIR (vm/sysroot.sh ARCH)")
endif()
string(REGEX REPLACE "-.*" "" RC_PROCESSOR "${RC_TRIPLET}")
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${RC_PROCESSOR})
set(CMAKE_C_COMPILER ${RC_TRIPLET}-gcc)
set(CMAKE_FIND_ROOT_PATH ${RC_SYSROOT} /usr/${RC_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_LIBRARY_ARCHITECTURE ${RC_TRIPLET})
set(CMAKE_C_FLAGS_INIT "-isystem ${RC_SYSROOT}/usr/include")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-L${RC_SYSROOT}/usr/lib/${RC_TRIPLET}")
