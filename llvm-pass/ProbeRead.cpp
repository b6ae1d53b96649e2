// Probe-read rewriting: in probe programs, loads and copies through kernel
// pointers become bpf_probe_read_kernel of the relocated address.
#include "Rewriter.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsBPF.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace relocore {

Value *Rewriter::probeRead(IRBuilder<> &B, Function &F, Type *Ty, Value *Src,
                           Value *Size, Value *Dst) {
  Type *I8P = compat::bytePtrTy(B);
  if (!Dst) {
    IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
    Dst = EB.CreateAlloca(Ty, nullptr, "relocore.tmp");
  }
  if (!Size)
    Size = B.getInt32(DL.getTypeStoreSize(Ty));
  FunctionType *FT = FunctionType::get(B.getInt64Ty(),
                                       {I8P, B.getInt32Ty(), I8P}, false);
  // helper 113: bpf_probe_read_kernel(void *dst, u32 size, const void *src)
  Value *Helper = ConstantExpr::getIntToPtr(B.getInt64(113),
                                            FT->getPointerTo());
  B.CreateCall(FT, Helper, {B.CreateBitCast(Dst, I8P), Size,
                            B.CreateBitCast(Src, I8P)});
  return Dst;
}

// Roots on the stack or in globals are read directly; so are context types.
bool Rewriter::probeRoot(Node *N) {
  while (N->ChainsToParent)
    N = N->Parent;
  if (N->RootDI && isDirectType(N->RootDI->getName()))
    return false;
  Value *Obj = getUnderlyingObject(N->Parent ? N->Parent->Orig : N->Base);
  if (Node *P = NodeOf.lookup(Obj))
    return probeRoot(P);
  return !isa<AllocaInst>(Obj) && !isa<GlobalVariable>(Obj);
}


// Replace node N's original GEP/cast by its relocated value V; with P (a
// probe program, root not on the stack/in a global) loads and copies through
// it become bpf_probe_read_kernel calls (the originals go to Dead).
void Rewriter::rewriteUses(Node *N, Value *V, Function &F, bool P,
                           SmallVectorImpl<Instruction *> &Dead) {
  SmallVector<LoadInst *, 4> Loads;
  SmallVector<MemTransferInst *, 2> Copies;
  auto Collect = [&](Value *Ptr) {
    for (User *U : Ptr->users()) {
      if (auto *L = dyn_cast<LoadInst>(U)) {
        if (L->getPointerOperand() == Ptr)
          Loads.push_back(L);
      } else if (auto *MC = dyn_cast<MemTransferInst>(U)) {
        if (MC->getRawSource() == Ptr)
          Copies.push_back(MC);
      }
    }
  };
  Collect(N->Orig);
  for (User *U : N->Orig->users())
    if (isa<BitCastInst>(U) && !NodeOf.count(U))
      Collect(U);
  N->Orig->replaceAllUsesWith(V);
  std::string Acc = accessString(N);
  if (!P || (Loads.empty() && Copies.empty())) {
    remark(N->Orig, "relocated " + Acc);
    ++NumRelocated;
  }
  if (!P)
    return;
  for (LoadInst *L : Loads) {
    IRBuilder<> B(L);
    Value *Tmp = probeRead(B, F, L->getType(), L->getPointerOperand());
    LoadInst *NL = B.CreateLoad(L->getType(), Tmp);
    L->replaceAllUsesWith(NL);
    Dead.push_back(L);
    remark(L, "relocated " + Acc + " (bpf_probe_read_kernel)");
    ++NumRelocated;
  }
  for (MemTransferInst *MC : Copies) {
    IRBuilder<> B(MC);
    probeRead(B, F, nullptr, MC->getRawSource(),
              B.CreateZExtOrTrunc(MC->getLength(), B.getInt32Ty()),
              MC->getRawDest());
    Dead.push_back(MC);
    remark(MC, "relocated copy of " + Acc + " (bpf_probe_read_kernel)");
    ++NumRelocated;
  }
}

} // namespace relocore
