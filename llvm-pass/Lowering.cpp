// Lowering: access chains -> llvm.preserve.{struct,union,array}.access.index
// (what clang emits for preserve_access_index types), bitfield reads -> the
// BPF_CORE_READ_BITFIELD(_PROBED) sequence, and the per-function driver.
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

// --------------------------------------------------------------- rewrite

Value *Rewriter::emitSteps(IRBuilder<> &B, Value *V, ArrayRef<Step> Steps) {
  for (const Step &St : Steps) {
    switch (St.K) {
    case Step::Struct:
      V = B.CreatePreserveStructAccessIndex(St.ElTy, V, St.GepIdx, St.DIIdx,
                                            St.MD);
      break;
    case Step::Union:
      V = B.CreatePreserveUnionAccessIndex(V, St.DIIdx, St.MD);
      break;
    case Step::Array:
      V = B.CreatePreserveArrayAccessIndex(St.ElTy, V, St.DIIdx, St.GepIdx,
                                           St.MD);
      break;
    }
  }
  return V;
}

// Base of the chain N belongs to (the value a BPF_CORE_READ would be given).
Value *Rewriter::topBase(Node *N, IRBuilder<> &B) {
  while (N->ChainsToParent)
    N = N->Parent;
  Value *V = N->Parent ? materialize(N->Parent) : (Value *)N->Base;
  if (N->PreIdx) {
    if (V->getType() != N->BaseElTy->getPointerTo(
                            V->getType()->getPointerAddressSpace()))
      V = B.CreateBitCast(V, N->BaseElTy->getPointerTo());
    V = B.CreateGEP(N->BaseElTy, V, N->PreIdx);
  }
  return V;
}

Value *Rewriter::materialize(Node *N) {
  if (N->Value_)
    return N->Value_;
  IRBuilder<> B(N->Orig);
  Value *V;
  if (N->ChainsToParent) {
    V = materialize(N->Parent);
  } else {
    V = topBase(N, B);
  }
  if (V->getType() != N->BaseElTy->getPointerTo())
    V = B.CreateBitCast(V, N->BaseElTy->getPointerTo());
  V = emitSteps(B, V, N->Steps);
  if (N->Bitfield) {
    // Only reached when a bitfield storage unit is used other than by a
    // recognised read: address it (offset of the first member relocated is
    // not meaningful), which the caller reports as an error.
    V = B.CreateStructGEP(N->BFTy, V, N->BFGepIdx);
  }
  if (!N->Tail.empty())
    V = B.CreateInBoundsGEP(N->CurTy, V, N->Tail);
  if (V->getType() != N->Orig->getType())
    V = B.CreateBitCast(V, N->Orig->getType());
  N->Value_ = V;
  return V;
}

Value *Rewriter::fieldInfo(IRBuilder<> &B, Node *N, const Step &Member,
                           FieldInfo K) {
  // A fresh chain from the root for every relocation, as clang emits for
  // __builtin_preserve_field_info.
  SmallVector<Node *, 4> Chain;
  for (Node *X = N; X; X = X->ChainsToParent ? X->Parent : nullptr)
    Chain.push_back(X);
  Node *Top = Chain.back();
  Value *V = topBase(N, B);
  if (V->getType() != Top->BaseElTy->getPointerTo())
    V = B.CreateBitCast(V, Top->BaseElTy->getPointerTo());
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It)
    V = emitSteps(B, V, (*It)->Steps);
  V = emitSteps(B, V, Member);
  Function *FI = Intrinsic::getDeclaration(&M, Intrinsic::bpf_preserve_field_info,
                                           {V->getType()});
  return B.CreateCall(FI, {V, B.getInt64(K)});
}

// Recognise clang's bitfield read (load; lshr/and or shl/ashr), find the
// member, and replace it with the BPF_CORE_READ_BITFIELD(_PROBED) sequence.
bool Rewriter::rewriteBitfieldLoad(Node *N, LoadInst *L, bool Probe,
                                   SmallVectorImpl<Instruction *> &Dead) {
  auto *IT = dyn_cast<IntegerType>(L->getType());
  if (!IT || IT->getBitWidth() > 64)
    return false;
  unsigned W = IT->getBitWidth();
  Instruction *Last = L;
  SmallVector<Instruction *, 3> Ops{L};
  auto Next = [&](unsigned Opc, uint64_t &C) -> bool {
    if (!Last->hasOneUse())
      return false;
    auto *BO = dyn_cast<BinaryOperator>(*Last->user_begin());
    if (!BO || BO->getOpcode() != Opc || BO->getOperand(0) != Last)
      return false;
    auto *CI = dyn_cast<ConstantInt>(BO->getOperand(1));
    if (!CI)
      return false;
    C = CI->getZExtValue();
    Last = BO;
    Ops.push_back(BO);
    return true;
  };
  uint64_t A, Bv;
  unsigned Off = 0, Width = W;
  if (Next(Instruction::LShr, A)) {
    Off = A;
    Width = W - A;
    if (Next(Instruction::And, Bv))
      Width = compat::popcount(Bv);
  } else if (Next(Instruction::And, Bv)) {
    Width = compat::popcount(Bv);
  } else if (Next(Instruction::Shl, A)) {
    if (!Next(Instruction::AShr, Bv))
      return false;
    Width = W - Bv;
    Off = Bv - A;
  } else if (Next(Instruction::AShr, Bv)) {
    Width = W - Bv;
    Off = Bv;
  }
  uint64_t BitOff = N->BFByteOff * 8 + Off;
  DINodeArray Elems = N->BFRecord->getElements();
  int Found = -1;
  for (unsigned I = 0; I < Elems.size(); ++I) {
    auto *Mb = dyn_cast_or_null<DIDerivedType>(Elems[I]);
    if (Mb && Mb->isBitField() && Mb->getOffsetInBits() == BitOff &&
        Mb->getSizeInBits() == Width)
      Found = I;
  }
  if (Found < 0)
    return false;
  auto *Mb = cast<DIDerivedType>(Elems[Found]);
  Step Member{Step::Struct, N->BFTy, N->BFGepIdx, (unsigned)Found,
              N->BFRecord, Mb->getName().str()};
  Function &F = *L->getFunction();
  IRBuilder<> B(L);
  Type *I64 = B.getInt64Ty();
  Value *Size = fieldInfo(B, N, Member, BYTE_SIZE);
  Value *Base = B.CreateBitCast(topBase(N, B), compat::bytePtrTy(B));
  Value *OffV = B.CreateZExt(fieldInfo(B, N, Member, BYTE_OFFSET), I64);
  Value *Addr = B.CreateGEP(B.getInt8Ty(), Base, OffV);
  Value *Raw;
  if (Probe) {
    IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
    AllocaInst *Tmp = EB.CreateAlloca(I64, nullptr, "relocore.bf");
    B.CreateStore(B.getInt64(0), Tmp);
    probeRead(B, F, I64, Addr, Size, Tmp);
    Raw = B.CreateLoad(I64, Tmp);
  } else {
    // As libbpf's macro: an empty asm keeps the relocated address in one
    // register (else the offset relocation is duplicated into each case).
    FunctionType *AsmTy = FunctionType::get(Addr->getType(), {Addr->getType()},
                                            false);
    Addr = B.CreateCall(InlineAsm::get(AsmTy, "", "=r,0", true), {Addr});
    // switch (BYTE_SIZE) { case 1/2/4/8: load that size }
    BasicBlock *Head = L->getParent();
    BasicBlock *Done = Head->splitBasicBlock(L, "relocore.bf.done");
    Head->getTerminator()->eraseFromParent();
    B.SetInsertPoint(Head);
    SwitchInst *Sw = B.CreateSwitch(Size, Done, 4);
    B.SetInsertPoint(&*Done->begin());
    PHINode *Phi = B.CreatePHI(I64, 5);
    Phi->addIncoming(B.getInt64(0), Head);
    for (unsigned Bytes : {1u, 2u, 4u, 8u}) {
      BasicBlock *BB = BasicBlock::Create(Ctx, "relocore.bf.ld", &F, Done);
      IRBuilder<> LB(BB);
      Type *Ty = LB.getIntNTy(Bytes * 8);
      Value *P = LB.CreateBitCast(Addr, Ty->getPointerTo());
      Value *Ld = LB.CreateZExt(LB.CreateLoad(Ty, P), I64);
      LB.CreateBr(Done);
      Sw->addCase(LB.getInt32(Bytes), BB);
      Phi->addIncoming(Ld, BB);
    }
    Raw = Phi;
    B.SetInsertPoint(L);
  }
  Value *LS = B.CreateZExt(fieldInfo(B, N, Member, LSHIFT_U64), I64);
  Value *Shifted = B.CreateShl(Raw, LS);
  Value *IsSigned = B.CreateICmpNE(fieldInfo(B, N, Member, SIGNED),
                                   B.getInt32(0));
  Instruction *ThenT, *ElseT;
  SplitBlockAndInsertIfThenElse(IsSigned, L, &ThenT, &ElseT);
  IRBuilder<> TB(ThenT), FB(ElseT);
  Value *SV = TB.CreateAShr(Shifted, TB.CreateZExt(
                                         fieldInfo(TB, N, Member, RSHIFT_U64), I64));
  Value *UV = FB.CreateLShr(Shifted, FB.CreateZExt(
                                         fieldInfo(FB, N, Member, RSHIFT_U64), I64));
  B.SetInsertPoint(L);
  PHINode *R = B.CreatePHI(I64, 2);
  R->addIncoming(SV, ThenT->getParent());
  R->addIncoming(UV, ElseT->getParent());
  Value *Res = B.CreateTrunc(R, IT);
  Last->replaceAllUsesWith(Res);
  for (auto It = Ops.rbegin(); It != Ops.rend(); ++It)
    Dead.push_back(*It);
  remark(L, "relocated bitfield read " + accessString(N, &Member) +
                (Probe ? " (bpf_probe_read_kernel)" : ""));
  ++NumRelocated;
  return true;
}

bool Rewriter::runOnFunction(Function &F) {
  bool ContainerOf = rewriteContainerOf(F);
  Nodes.clear();
  NodeOf.clear();
  ReversePostOrderTraversal<Function *> RPOT(&F);
  for (BasicBlock *BB : RPOT)
    for (auto It = BB->begin(); It != BB->end(); ++It) {
      Instruction &I = *It;
      if (Opaque) {
        // (a placeholder goes in before I; I is still analyzed below)
        if (auto *L = dyn_cast<LoadInst>(&I))
          analyzeOpaqueAccess(L, L->getPointerOperandIndex(), L->getType(),
                              true);
        else if (auto *S = dyn_cast<StoreInst>(&I))
          analyzeOpaqueAccess(S, S->getPointerOperandIndex(),
                              S->getValueOperand()->getType(), true);
        else if (auto *G = dyn_cast<GetElementPtrInst>(&I))
          analyzeOpaqueAccess(G, G->getPointerOperandIndex(),
                              G->getSourceElementType(), false);
      }
      if (auto *G = dyn_cast<GetElementPtrInst>(&I))
        analyzeGEP(G);
      else if (auto *BC = dyn_cast<BitCastInst>(&I))
        analyzeCast(BC);
    }
  if (Nodes.empty()) {
    dropPlaceholders();
    return ContainerOf;
  }
  bool Probe = ProbeFns.count(&F);
  SmallVector<Instruction *, 16> Dead;
  SmallPtrSet<Instruction *, 16> Handled;

  // Bitfield reads first: they consume the storage node's loads.
  for (auto &NP : Nodes) {
    Node *N = NP.get();
    if (!N->Bitfield)
      continue;
    SmallVector<LoadInst *, 4> Loads;
    SmallVector<Instruction *, 4> Casts;
    bool Bad = false;
    for (User *U : N->Orig->users()) {
      if (auto *L = dyn_cast<LoadInst>(U)) {
        Loads.push_back(L);
      } else if (auto *BC = dyn_cast<BitCastInst>(U)) {
        Casts.push_back(BC);
        for (User *UU : BC->users())
          if (auto *L = dyn_cast<LoadInst>(UU))
            Loads.push_back(L);
          else
            Bad = true;
      } else if (!NodeOf.count(U)) {
        Bad = true;
      }
    }
    bool P = Probe && probeRoot(N);
    for (LoadInst *L : Loads)
      if (!rewriteBitfieldLoad(N, L, P, Dead)) {
        Bad = true;
        break;
      }
    if (Bad) {
      error(N->Orig, "cannot relocate this use of a bitfield of '" +
                         N->BFRecord->getName() +
                         "' (only reads of a bitfield are relocated)");
      continue;
    }
    for (Instruction *C : Casts)
      Dead.push_back(C);
    Handled.insert(N->Orig);
  }
  for (Instruction *I : Dead) {
    I->replaceAllUsesWith(UndefValue::get(I->getType()));
    I->eraseFromParent();
  }
  Dead.clear();

  // Materialize every node whose value is used outside the chains, replace
  // the original GEP/bitcast, and turn loads through it into probe reads.
  for (auto &NP : Nodes) {
    Node *N = NP.get();
    if (Handled.count(N->Orig))
      continue;
    bool ValueUse = false;
    for (User *U : N->Orig->users()) {
      Node *C = NodeOf.lookup(U);
      if (!C || !C->ChainsToParent)
        ValueUse = true;
    }
    if (!ValueUse)
      continue;
    Value *V = materialize(N);
    rewriteUses(N, V, F, Probe && probeRoot(N), Dead);
  }
  for (Instruction *I : Dead)
    I->eraseFromParent();
  // Originals, children before parents.
  for (auto It = Nodes.rbegin(); It != Nodes.rend(); ++It) {
    Instruction *I = (*It)->Orig;
    if (I->use_empty())
      I->eraseFromParent();
  }
  dropPlaceholders();
  return true;
}

bool Rewriter::run() {
  // Cheap pre-scan: nothing to do (e.g. a fully annotated program) unless
  // some GEP or bitcast works on a record type.
  bool Candidates = false;
  for (Function &F : M) {
    for (Instruction &I : instructions(F)) {
      if (auto *G = dyn_cast<GetElementPtrInst>(&I))
        Candidates = G->getNumIndices() >= 2 &&
                     isa<StructType>(G->getSourceElementType());
      else if (auto *BC = dyn_cast<BitCastInst>(&I))
        Candidates = isa_and_nonnull<StructType>(compat::pointee(BC->getSrcTy())) ||
                     (isa_and_nonnull<StructType>(   // container_of
                          compat::pointee(BC->getDestTy())) &&
                      isa<GetElementPtrInst>(BC->getOperand(0)));
      if (Candidates)
        break;
    }
    if (Candidates)
      break;
  }
  Opaque = compat::opaquePointers(Ctx);
  // Opaque pointers: a union, or bitfield storage at offset 0, can be
  // reached with no GEP at all, through a pointer variable of that type.
  if (!Candidates && Opaque)
    for (Function &F : M) {
      if (F.isDeclaration())
        continue;
      for (Instruction &I : F.getEntryBlock())
        if (isa<AllocaInst>(I) && I.getType()->isPointerTy() &&
            rootWithoutGEP(compat::declaredType(&I))) {
          Candidates = true;
          break;
        }
      if (Candidates)
        break;
    }
  if (!Candidates)
    return false;
  indexDebugInfo();
  classifyFunctions();
  bool Changed = false;
  for (Function &F : M)
    if (!F.isDeclaration())
      Changed |= runOnFunction(F);
  return Changed;
}

} // namespace relocore
