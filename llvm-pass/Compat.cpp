// The version-dependent code of the plugin (see Compat.h): the only file of
// llvm-pass/ that tests LLVM_VERSION_MAJOR.
#include "Compat.h"

#include "llvm/ADT/bit.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Target/TargetMachine.h"
#if LLVM_VERSION_MAJOR < 16
#include "llvm/Transforms/IPO/PassManagerBuilder.h"
#endif

#if LLVM_VERSION_MAJOR != 14 && LLVM_VERSION_MAJOR != 16 && LLVM_VERSION_MAJOR != 19
#error "relocore-pass is built and tested against LLVM 14, 16 and 19"
#endif

using namespace llvm;

namespace relocore {

Type *compat::pointee(Type *T) {
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

bool compat::opaquePointers(LLVMContext &Ctx) {
#if LLVM_VERSION_MAJOR >= 19
  return true;
#else
  return !Ctx.supportsTypedPointers();
#endif
}

Type *compat::bytePtrTy(IRBuilderBase &B) {
#if LLVM_VERSION_MAJOR >= 19
  return B.getPtrTy();
#else
  return B.getInt8PtrTy();
#endif
}

bool compat::startsWith(StringRef S, StringRef Prefix) {
#if LLVM_VERSION_MAJOR >= 16
  return S.starts_with(Prefix);
#else
  return S.startswith(Prefix);
#endif
}

bool compat::endsWith(StringRef S, StringRef Suffix) {
#if LLVM_VERSION_MAJOR >= 16
  return S.ends_with(Suffix);
#else
  return S.endswith(Suffix);
#endif
}

unsigned compat::popcount(uint64_t V) {
#if LLVM_VERSION_MAJOR >= 16
  return llvm::popcount(V);
#else
  return llvm::countPopulation(V);
#endif
}

// How each LLVM runs the target's passes again (README "LLVM versions").
void compat::runTargetCorePasses(Module &M, TargetMachine &TM) {
#if LLVM_VERSION_MAJOR < 16
  PassManagerBuilder PMB;
  PMB.OptLevel = 0; // only the target's EP_EarlyAsPossible extensions
  TM.adjustPassManager(PMB);
  legacy::FunctionPassManager FPM(&M);
  PMB.populateFunctionPassManager(FPM);
  FPM.doInitialization();
  for (Function &F : M)
    if (!F.isDeclaration())
      FPM.run(F);
  FPM.doFinalization();
#else
  // A private PassBuilder on the BPF TargetMachine: its constructor has
  // the target register its callbacks (the CO-RE passes at PipelineStartEP).
  PassBuilder PB(&TM);
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
#if LLVM_VERSION_MAJOR >= 19
  ModulePassManager MPM;
  PB.invokePipelineStartEPCallbacks(MPM, OptimizationLevel::O0);
#else
  // no invokePipelineStartEPCallbacks before 17: the O0 pipeline runs the
  // PipelineStartEP callbacks first (then the always-inliner and the
  // target's other O0 extensions, which leave CO-RE code alone)
  ModulePassManager MPM = PB.buildO0DefaultPipeline(OptimizationLevel::O0);
#endif
  MPM.run(M, MAM);
#endif
}

DIType *compat::declaredType(Value *V) {
  // clang's dbg.declare, or after declare-to-assign (assignment tracking,
  // which runs before PipelineStartEP at -O1 and up) the alloca's dbg.assign
  // markers
#if LLVM_VERSION_MAJOR >= 19
  for (DbgVariableRecord *R : findDVRDeclares(V))
    return R->getVariable()->getType();
  for (DbgDeclareInst *D : findDbgDeclares(V))
    return D->getVariable()->getType();
  if (auto *I = dyn_cast<Instruction>(V)) {
    for (DbgVariableRecord *R : at::getDVRAssignmentMarkers(I))
      return R->getVariable()->getType();
    for (DbgAssignIntrinsic *D : at::getAssignmentMarkers(I))
      return D->getVariable()->getType();
  }
#else
  for (DbgDeclareInst *D : FindDbgDeclareUses(V))
    return D->getVariable()->getType();
#if LLVM_VERSION_MAJOR >= 16
  if (auto *I = dyn_cast<Instruction>(V))
    for (DbgAssignIntrinsic *D : at::getAssignmentMarkers(I))
      return D->getVariable()->getType();
#endif
#endif
  return nullptr;
}

void compat::forEachDebugVariable(Function &F,
                                  function_ref<void(DILocalVariable *)> Fn) {
  for (Instruction &I : instructions(F)) {
#if LLVM_VERSION_MAJOR >= 19
    for (DbgVariableRecord &R : filterDbgVars(I.getDbgRecordRange()))
      Fn(R.getVariable());
#endif
    if (auto *D = dyn_cast<DbgVariableIntrinsic>(&I))
      Fn(D->getVariable());
  }
}

} // namespace relocore
