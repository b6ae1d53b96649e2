// Kernel types: how the plugin tells a kernel record from a program's own.
//
// A record (struct/union) is a kernel type when
//   - its name is in -relocore-kernel-types, or
//   - it is declared in a header whose path contains one of
//     -relocore-kernel-headers (default: "vmlinux.h"), or
//   - -relocore-kernel-btf=FILE is given, its essential name (before any
//     "___flavor" suffix) names a struct/union/typedef of FILE, and it is not
//     declared in the main source file;
// and its name is not in -relocore-local-types.  Anonymous records take the
// kind of the record (or typedef) they are reached through.
#include "Compat.h"
#include "Relocore.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace relocore {

static cl::opt<std::string> KernelBTF(
    "relocore-kernel-btf", cl::init(""),
    cl::desc("relocore: reference kernel BTF (raw, e.g. "
             "/sys/kernel/btf/vmlinux, or an ELF file with .BTF); records "
             "named in it are kernel types unless declared in the main file"));
static cl::list<std::string> KernelHeaders(
    "relocore-kernel-headers", cl::CommaSeparated,
    cl::desc("relocore: records declared in files whose path contains one of "
             "these strings are kernel types (default: vmlinux.h)"));
static cl::list<std::string> KernelTypeNames(
    "relocore-kernel-types", cl::CommaSeparated,
    cl::desc("relocore: record names always treated as kernel types"));
static cl::list<std::string> LocalTypeNames(
    "relocore-local-types", cl::CommaSeparated,
    cl::desc("relocore: record names never relocated"));

StringRef essentialName(StringRef Name) {
  size_t P = Name.find("___");
  return P == StringRef::npos ? Name : Name.substr(0, P);
}

static bool readRawBTF(StringRef Data, StringSet<> &Names, std::string &Err) {
  using namespace support;
  auto U16 = [&](size_t O) { return endian::read16le(Data.data() + O); };
  auto U32 = [&](size_t O) { return endian::read32le(Data.data() + O); };
  if (Data.size() < 24 || U16(0) != 0xeB9F) {
    Err = "not BTF (bad magic)";
    return false;
  }
  uint32_t HdrLen = U32(4), TypeOff = U32(8), TypeLen = U32(12),
           StrOff = U32(16), StrLen = U32(20);
  uint64_t TStart = (uint64_t)HdrLen + TypeOff, SStart = (uint64_t)HdrLen + StrOff;
  if (TStart + TypeLen > Data.size() || SStart + StrLen > Data.size()) {
    Err = "truncated BTF";
    return false;
  }
  StringRef Strs = Data.substr(SStart, StrLen);
  for (uint64_t P = TStart; P + 12 <= TStart + TypeLen;) {
    uint32_t NameOff = U32(P), Info = U32(P + 4);
    unsigned Kind = (Info >> 24) & 0x1f, VLen = Info & 0xffff;
    P += 12;
    switch (Kind) {
    case 1: case 14: case 17: P += 4; break;           // INT, VAR, DECL_TAG
    case 3: P += 12; break;                             // ARRAY
    case 4: case 5: case 15: case 19: P += 12ull * VLen; break;
    case 6: case 13: P += 8ull * VLen; break;           // ENUM, FUNC_PROTO
    case 2: case 7: case 8: case 9: case 10: case 11: case 12: case 16:
    case 18: break;
    default:
      Err = "unknown BTF kind " + std::to_string(Kind);
      return false;
    }
    if ((Kind == 4 || Kind == 5 || Kind == 8) && NameOff && NameOff < Strs.size()) {
      StringRef N = Strs.substr(NameOff);
      N = N.substr(0, N.find('\0'));
      if (!N.empty())
        Names.insert(N);
    }
  }
  return true;
}

bool readBTFRecordNames(StringRef Path, StringSet<> &Names, std::string &Err) {
  auto BufOr = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
  if (!BufOr) {
    Err = "cannot read " + Path.str() + ": " + BufOr.getError().message();
    return false;
  }
  StringRef Data = (*BufOr)->getBuffer();
  if (compat::startsWith(Data, "\x7f" "ELF")) {
    auto ObjOr = object::ObjectFile::createObjectFile((*BufOr)->getMemBufferRef());
    if (!ObjOr) {
      Err = Path.str() + ": " + toString(ObjOr.takeError());
      return false;
    }
    for (const object::SectionRef &S : (*ObjOr)->sections()) {
      Expected<StringRef> N = S.getName();
      if (!N || *N != ".BTF") {
        if (!N)
          consumeError(N.takeError());
        continue;
      }
      Expected<StringRef> C = S.getContents();
      if (!C) {
        Err = Path.str() + ": " + toString(C.takeError());
        return false;
      }
      if (!readRawBTF(*C, Names, Err)) {
        Err = Path.str() + ": " + Err;
        return false;
      }
      return true;
    }
    Err = Path.str() + ": no .BTF section";
    return false;
  }
  if (!readRawBTF(Data, Names, Err)) {
    Err = Path.str() + ": " + Err;
    return false;
  }
  return true;
}

bool KernelTypes::init(std::string &Err) {
  // One compilation is one process; cache the BTF's names across modules.
  static StringSet<> Cache;
  static std::string CachePath;
  if (!KernelBTF.empty()) {
    if (CachePath != KernelBTF) {
      Cache.clear();
      if (!readBTFRecordNames(KernelBTF, Cache, Err))
        return false;
      CachePath = KernelBTF;
    }
    BTFNames = Cache;
  }
  return true;
}

bool KernelTypes::inBTF(StringRef Name) const {
  return BTFNames.count(essentialName(Name));
}

bool KernelTypes::isKernel(StringRef Name, StringRef File,
                           StringRef MainFile) const {
  for (const std::string &L : LocalTypeNames)
    if (Name == L)
      return false;
  for (const std::string &K : KernelTypeNames)
    if (Name == K)
      return true;
  if (KernelHeaders.empty()) {
    if (compat::endsWith(File, "vmlinux.h"))
      return true;
  } else {
    for (const std::string &H : KernelHeaders)
      if (!H.empty() && File.contains(H))
        return true;
  }
  if (!BTFNames.empty() && !Name.empty() && File != MainFile && inBTF(Name))
    return true;
  return false;
}

} // namespace relocore
