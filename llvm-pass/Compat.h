// Everything that differs between the LLVM versions the plugin builds
// against (14, 16, 19), declared here without any version test and defined
// in Compat.cpp, the only file of llvm-pass/ that tests LLVM_VERSION_MAJOR.
//
//   14  typed pointers (opaque ones only with -opaque-pointers); the
//       target's CO-RE passes run through the legacy PassManagerBuilder
//       (TargetMachine::adjustPassManager)
//   16  opaque pointers by default (typed with -no-opaque-pointers);
//       adjustPassManager is gone: a private PassBuilder on a BPF
//       TargetMachine, buildO0DefaultPipeline
//   19  opaque pointers only; PassManagerBuilder is gone:
//       PassBuilder::invokePipelineStartEPCallbacks
#ifndef RELOCORE_COMPAT_H
#define RELOCORE_COMPAT_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"


#include <cstdint>

namespace llvm {
class DILocalVariable;
class DIType;
class Function;
class IRBuilderBase;
class LLVMContext;
class Module;
class TargetMachine;
class Type;
class Value;
}

namespace relocore {
namespace compat {

// The type a pointer type points to; null for an opaque pointer (or not a
// pointer).
llvm::Type *pointee(llvm::Type *T);

// Whether the module's pointers are opaque (no pointee types, no pointer
// bitcasts): union members and bitfield storage units are then found from
// the accessed type and the debug info.
bool opaquePointers(llvm::LLVMContext &Ctx);

// i8* (typed pointers) or ptr
llvm::Type *bytePtrTy(llvm::IRBuilderBase &B);

bool startsWith(llvm::StringRef S, llvm::StringRef Prefix);
bool endsWith(llvm::StringRef S, llvm::StringRef Suffix);
unsigned popcount(uint64_t V);

// The type of the local variable that alloca V holds (its dbg.declare: an
// intrinsic, from 19 on a debug record, or after clang's declare-to-assign
// its dbg.assign markers); null when none.
llvm::DIType *declaredType(llvm::Value *V);

// Calls @Fn for the variable of every debug intrinsic (14, 16) or debug
// record (19) in @F.
void forEachDebugVariable(llvm::Function &F,
                          llvm::function_ref<void(llvm::DILocalVariable *)> Fn);

// Runs the BPF target's early CO-RE passes (abstract member access,
// preserve DI type, IR peephole: the target's PipelineStartEP extensions)
// over M, on TM (a BPF TargetMachine).
void runTargetCorePasses(llvm::Module &M, llvm::TargetMachine &TM);

} // namespace compat
} // namespace relocore

#endif
