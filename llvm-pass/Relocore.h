// Shared declarations of the relocore LLVM plugin (see README).
#ifndef RELOCORE_PASS_H
#define RELOCORE_PASS_H

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include <string>

namespace llvm {
class Module;
class DICompositeType;
}

namespace relocore {

// Which record types are kernel types (relocated) and which are the
// program's own (left alone).  See README "Kernel types".
class KernelTypes {
public:
  // Loads -relocore-kernel-btf (once per process) and the name lists.
  // Returns false with @Err set when the BTF file cannot be read.
  bool init(std::string &Err);
  // @Name: the record's tag name, or for an anonymous record its typedef
  // name; @File: the file that declares it; @MainFile: the CU's file.
  bool isKernel(llvm::StringRef Name, llvm::StringRef File,
                llvm::StringRef MainFile) const;
  bool haveBTF() const { return !BTFNames.empty(); }
  bool inBTF(llvm::StringRef Name) const;

private:
  llvm::StringSet<> BTFNames;
};

// Reads the names of the STRUCT/UNION (and typedef) types of a raw BTF file
// or an ELF file with a .BTF section.  Returns false with @Err set.
bool readBTFRecordNames(llvm::StringRef Path, llvm::StringSet<> &Names,
                        std::string &Err);

// "task_struct___old" -> "task_struct"
llvm::StringRef essentialName(llvm::StringRef Name);

// __bpf_* globals -> libbpf .kconfig externs.  Returns true if changed.
bool rewriteKconfigGlobals(llvm::Module &M);

// A location-less diagnostic ("relocore: ..."), error or warning.
void diagnose(llvm::Module &M, const llvm::Twine &Msg, bool Error);

} // namespace relocore

#endif
