// Everything that differs between the LLVM versions the plugin builds
// against (14, 16, 19).  Nothing else in llvm-pass/ tests LLVM_VERSION_MAJOR.
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

#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#if LLVM_VERSION_MAJOR != 14 && LLVM_VERSION_MAJOR != 16 && LLVM_VERSION_MAJOR != 19
#error "relocore-pass is built and tested against LLVM 14, 16 and 19"
#endif

namespace llvm {
class DIType;
class Module;
class TargetMachine;
}

namespace relocore {
namespace compat {

// The type a pointer type points to; null for an opaque pointer.
inline llvm::Type *pointee(llvm::Type *T) {
  if (!T->isPointerTy())
    return nullptr;
#if LLVM_VERSION_MAJOR >= 19
  return nullptr;
#else
  if (T->isOpaquePointerTy())
    return nullptr;
  return T->getNonOpaquePointerElementType();
#endif
}

// Whether the module's pointers are opaque (no pointee types, no pointer
// bitcasts): union members and bitfield storage units are then found from
// the accessed type and the debug info.
inline bool opaquePointers(llvm::LLVMContext &Ctx) {
#if LLVM_VERSION_MAJOR >= 19
  return true;
#else
  return !Ctx.supportsTypedPointers();
#endif
}

// i8* (typed) or ptr
inline llvm::Type *bytePtrTy(llvm::IRBuilderBase &B) {
#if LLVM_VERSION_MAJOR >= 19
  return B.getPtrTy();
#else
  return B.getInt8PtrTy();
#endif
}

inline bool startsWith(llvm::StringRef S, llvm::StringRef P) {
#if LLVM_VERSION_MAJOR >= 16
  return S.starts_with(P);
#else
  return S.startswith(P);
#endif
}

inline unsigned popcount(uint64_t V) {
#if LLVM_VERSION_MAJOR >= 16
  return llvm::popcount(V);
#else
  return llvm::countPopulation(V);
#endif
}

inline bool endsWith(llvm::StringRef S, llvm::StringRef P) {
#if LLVM_VERSION_MAJOR >= 16
  return S.ends_with(P);
#else
  return S.endswith(P);
#endif
}

// The type of the local variable that alloca V holds (its dbg.declare:
// an intrinsic call, or from 19 on a debug record); null when none.
llvm::DIType *declaredType(llvm::Value *V);

// Runs the BPF target's early CO-RE passes (abstract member access,
// preserve DI type, IR peephole: the target's PipelineStartEP extensions)
// over M, on TM (a BPF TargetMachine).  Defined in RelocorePass.cpp.
void runTargetCorePasses(llvm::Module &M, llvm::TargetMachine &TM);

} // namespace compat
} // namespace relocore

#endif
