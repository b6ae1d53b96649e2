// container_of(ptr, struct k, member) on kernel types: the folded offsetof
// constant becomes the member's relocated byte offset.
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

// The member of record C (IR type ST) at bit offset Bits, for
// container_of: the access path (struct members only) of the shallowest
// member of non-zero size that starts there.  1 when there is one such
// member, 0 when none, -1 when several at the same depth (ambiguous).
int Rewriter::memberPathAt(DICompositeType *C, StructType *ST, uint64_t Bits,
                           SmallVectorImpl<Step> &Path) {
  struct Level {
    DICompositeType *C;
    StructType *ST;
    uint64_t Base;
    SmallVector<Step, 4> Path;
  };
  SmallVector<Level, 4> Cur, Next;
  Cur.push_back({C, ST, 0, {}});
  for (int Depth = 0; Depth < 8 && !Cur.empty(); ++Depth, Cur.swap(Next)) {
    Next.clear();
    int Found = 0;
    for (Level &L : Cur) {
      DINodeArray Elems = L.C->getElements();
      for (unsigned K = 0; K < L.ST->getNumElements(); ++K) {
        bool BF;
        int I = findMember(L.C, L.ST, K, BF);
        if (I < 0)
          continue;
        auto *Mb = cast<DIDerivedType>(Elems[I]);
        uint64_t Off = L.Base + Mb->getOffsetInBits(), Sz = Mb->getSizeInBits();
        if (!Sz || Bits < Off || Bits >= Off + Sz)
          continue;
        Step St{Step::Struct, L.ST, K, (unsigned)I, L.C, Mb->getName().str()};
        if (Off == Bits) {
          if (Found++ == 0) {
            Path.assign(L.Path.begin(), L.Path.end());
            Path.push_back(St);
          }
          continue;
        }
        // the offset lies inside this member: look into it if it is a
        // struct (unions and arrays are not followed)
        auto *MC = dyn_cast_or_null<DICompositeType>(stripDI(Mb->getBaseType()));
        auto *MST = dyn_cast<StructType>(L.ST->getElementType(K));
        if (MC && MST && MC->getTag() == dwarf::DW_TAG_structure_type) {
          Level X{MC, MST, Off, L.Path};
          X.Path.push_back(St);
          Next.push_back(std::move(X));
        }
      }
    }
    if (Found)
      return Found == 1 ? 1 : -1;
  }
  return 0;
}

// "sub (0, ptrtoint (getelementptr (T, null, 0, ...)))": the constant a
// pointer-based offsetof(T, member) leaves; the GEP, or null.
static GEPOperator *offsetofExpr(Value *V) {
  auto *CE = dyn_cast<ConstantExpr>(V);
  if (!CE || CE->getOpcode() != Instruction::Sub ||
      !isa<ConstantInt>(CE->getOperand(0)) ||
      !cast<ConstantInt>(CE->getOperand(0))->isZero())
    return nullptr;
  auto *PI = dyn_cast<ConstantExpr>(CE->getOperand(1));
  if (!PI || PI->getOpcode() != Instruction::PtrToInt)
    return nullptr;
  auto *GO = dyn_cast<GEPOperator>(PI->getOperand(0));
  if (!GO || !isa<ConstantPointerNull>(GO->getPointerOperand()) ||
      !isa<StructType>(GO->getSourceElementType()) || GO->getNumIndices() < 2)
    return nullptr;
  return GO;
}

// The access path of offsetof's GEP GO (struct members only) on record C.
bool Rewriter::memberPathOf(DICompositeType *C, StructType *ST, GEPOperator *GO,
                            SmallVectorImpl<Step> &Path) {
  if (!isZero(GO->getOperand(1)))
    return false;
  for (unsigned I = 2; I < GO->getNumOperands(); ++I) {
    auto *CI = dyn_cast<ConstantInt>(GO->getOperand(I));
    if (!C || !ST || !CI || C->getTag() != dwarf::DW_TAG_structure_type)
      return false;
    unsigned K = CI->getZExtValue();
    bool BF;
    int DIIdx = K < ST->getNumElements() ? findMember(C, ST, K, BF) : -1;
    if (DIIdx < 0)
      return false;
    auto *Mb = cast<DIDerivedType>(C->getElements()[DIIdx]);
    Path.push_back({Step::Struct, ST, K, (unsigned)DIIdx, C, Mb->getName().str()});
    C = dyn_cast_or_null<DICompositeType>(stripDI(Mb->getBaseType()));
    ST = dyn_cast<StructType>(ST->getElementType(K));
  }
  return true;
}

// container_of(ptr, struct T, member) on a kernel type T: clang folds
// offsetof() into "(T *)((char *)ptr - K)".  The member at offset K of T's
// local layout is found from the debug info and K becomes its relocated
// byte offset (__builtin_preserve_field_info(.., BPF_FIELD_BYTE_OFFSET), as
// bpf_core_field_offset() computes it).
// The struct type a container_of result V (an i8 GEP) is used as, with
// opaque pointers (no cast says it): the source type of a member GEP on it,
// or the declared type of the local variable it is stored to, following a
// statement expression's temporaries (stored, reloaded, stored on).
static StructType *containerType(Value *V, int Depth = 0) {
  if (Depth > 3)
    return nullptr;
  for (User *U : V->users()) {
    if (auto *UG = dyn_cast<GetElementPtrInst>(U))
      if (UG->getPointerOperand() == V && UG->getNumIndices() >= 2)
        return dyn_cast<StructType>(UG->getSourceElementType());
    auto *S = dyn_cast<StoreInst>(U);
    if (!S || S->getValueOperand() != V)
      continue;
    auto *A = dyn_cast<AllocaInst>(S->getPointerOperand());
    if (!A)
      continue;
    if (DIType *T = compat::declaredType(A)) {
      auto *PT = dyn_cast_or_null<DIDerivedType>(stripDI(T));
      if (!PT || PT->getTag() != dwarf::DW_TAG_pointer_type)
        continue;
      auto *C = dyn_cast_or_null<DICompositeType>(stripDI(PT->getBaseType()));
      if (C && C->getTag() == dwarf::DW_TAG_structure_type &&
          !C->getName().empty())
        return StructType::getTypeByName(V->getContext(),
                                         ("struct." + C->getName()).str());
      continue;
    }
    for (User *AU : A->users())
      if (auto *L = dyn_cast<LoadInst>(AU))
        if (StructType *ST = containerType(L, Depth + 1))
          return ST;
  }
  return nullptr;
}

bool Rewriter::rewriteContainerOf(Function &F) {
  struct Item {
    GetElementPtrInst *G;
    BitCastInst *BC; // typed pointers: the cast to T*; null when opaque
    StructType *ST;
  };
  SmallVector<Item, 4> Work;
  for (Instruction &I : instructions(F)) {
    auto *BC = dyn_cast<BitCastInst>(&I);
    auto *G = BC ? dyn_cast<GetElementPtrInst>(BC->getOperand(0))
                 : dyn_cast<GetElementPtrInst>(&I);
    auto *ST = BC ? dyn_cast_or_null<StructType>(compat::pointee(BC->getDestTy()))
                  : nullptr;
    if (!G || G->getNumIndices() != 1 ||
        !G->getSourceElementType()->isIntegerTy(8) || (BC && !ST) ||
        (!BC && !Opaque))
      continue;
    Value *Idx = G->getOperand(1);
    if (!offsetofExpr(Idx) && isa<ConstantExpr>(Idx)) {
      // another constant form (e.g. an offsetof through a union): its value
      Constant *F = ConstantFoldConstant(cast<ConstantExpr>(Idx), DL);
      if (isa<ConstantInt>(F))
        G->setOperand(1, Idx = F);
    }
    auto *CI = dyn_cast<ConstantInt>(Idx);
    if (!(CI && CI->getSExtValue() < 0) && !offsetofExpr(Idx))
      continue;
    if (!BC) {
      GEPOperator *GO = offsetofExpr(Idx);
      ST = GO ? dyn_cast<StructType>(GO->getSourceElementType())
              : containerType(G);
    }
    if (!ST)
      continue;
    Work.push_back({G, BC, ST});
  }
  bool Changed = false;
  for (Item &W : Work) {
    GetElementPtrInst *G = W.G;
    BitCastInst *BC = W.BC;
    StructType *ST = W.ST;
    Instruction *At = BC ? (Instruction *)BC : G; // where remarks point
    bool Known;
    DICompositeType *C = lookupRoot(ST, Known);
    if (!C || C->getTag() != dwarf::DW_TAG_structure_type)
      continue;
    SmallVector<Step, 4> Path;
    uint64_t K;
    int R = 0;
    if (GEPOperator *GO = offsetofExpr(G->getOperand(1))) {
      // libbpf's offsetof(): "0 - (unsigned long)&((T *)0)->member", the
      // member's own path; as a fallback its offset
      APInt Off(64, 0);
      if (GO->getSourceElementType() != ST ||
          !GO->accumulateConstantOffset(DL, Off))
        continue;
      K = Off.getZExtValue();
      R = memberPathOf(C, ST, GO, Path) ? 1 : 0;
    } else {
      K = -cast<ConstantInt>(G->getOperand(1))->getSExtValue();
    }
    if (!R)
      R = memberPathAt(C, ST, K * 8, Path);
    if (R <= 0) {
      missed(At, "container_of: " + Twine(R ? "several members" : "no member") +
                     " of '" + C->getName() + "' at offset " + Twine(K) +
                     ": not relocated");
      continue;
    }
    IRBuilder<> B(G);
    Value *V = emitSteps(B, ConstantPointerNull::get(ST->getPointerTo()), Path);
    Function *FI = Intrinsic::getDeclaration(
        &M, Intrinsic::bpf_preserve_field_info, {V->getType()});
    Value *Off = B.CreateCall(FI, {V, B.getInt64(BYTE_OFFSET)});
    Value *NG = B.CreateGEP(B.getInt8Ty(), G->getPointerOperand(),
                            B.CreateNeg(B.CreateZExt(Off, B.getInt64Ty())));
    std::string Name = C->getName().str();
    appendSteps(Name, Path);
    remark(At, "relocated container_of offset " + Name);
    if (BC) {
      BC->setOperand(0, NG);
    } else {
      NG->takeName(G);
      G->replaceAllUsesWith(NG);
    }
    if (G->use_empty())
      G->eraseFromParent();
    ++NumRelocated;
    Changed = true;
  }
  return Changed;
}

} // namespace relocore
