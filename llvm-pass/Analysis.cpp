// Access analysis: which records are kernel types (from the debug info), and
// the access chains (Node: Steps of struct/union/array members) that the
// GEPs and casts of a function form on them.
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

DIType *stripDI(DIType *T) {
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    unsigned Tag = D->getTag();
    if (Tag == dwarf::DW_TAG_typedef || Tag == dwarf::DW_TAG_const_type ||
        Tag == dwarf::DW_TAG_volatile_type ||
        Tag == dwarf::DW_TAG_restrict_type ||
        Tag == dwarf::DW_TAG_atomic_type)
      T = D->getBaseType();
    else
      break;
  }
  return T;
}

bool isRecord(const DIType *T) {
  auto *C = dyn_cast_or_null<DICompositeType>(T);
  return C && (C->getTag() == dwarf::DW_TAG_structure_type ||
               C->getTag() == dwarf::DW_TAG_union_type);
}

// "struct.task_struct" -> "task_struct"; "struct.anon.3" -> "" (anonymous)
StringRef irRecordName(Type *T, bool &IsUnion) {
  auto *ST = dyn_cast<StructType>(T);
  IsUnion = false;
  if (!ST || !ST->hasName())
    return "";
  StringRef N = ST->getName();
  if (N.consume_front("union."))
    IsUnion = true;
  else if (!N.consume_front("struct."))
    return "";
  N = N.substr(0, N.find('.'));
  return N == "anon" ? "" : N;
}

// ---------------------------------------------------------------- set-up

void Rewriter::indexDebugInfo() {
  for (DICompileUnit *CU : M.debug_compile_units()) {
    if (MainFile.empty())
      MainFile = CU->getFilename().str();
    if (CU->getEmissionKind() == DICompileUnit::FullDebug)
      HaveTypes = true;
  }
  walkStart();
}

// The walk's roots: the compile units, then per function its subprogram,
// the variables of its debug intrinsics (or records) and the scopes of its
// instructions' locations (inlined subprograms).
void Rewriter::walkStart() {
  std::vector<MDNode *> Root;
  const DILocalScope *Last = nullptr;

  for (DICompileUnit *CU : M.debug_compile_units())
    Root.push_back(CU);
  for (Function &F : M) {
    if (DISubprogram *SP = F.getSubprogram())
      Root.push_back(SP);
    compat::forEachDebugVariable(F, [&](DILocalVariable *V) {
      Root.push_back(V);
    });
    for (Instruction &I : instructions(F))
      for (const DILocation *L = I.getDebugLoc().get(); L; L = L->getInlinedAt())
        if (L->getScope() != Last) {
          Last = L->getScope();
          Root.push_back(const_cast<DILocalScope *>(Last));
        }
  }
  Walk = std::move(Root);
}

// First visit of @N: index it, and queue what it refers to.
void Rewriter::walkEnter(MDNode *N) {
  auto Add = [&](Metadata *MD) {
    if (auto *K = dyn_cast_or_null<MDNode>(MD))
      if (!isa<DIFile>(K) && !isa<DICompileUnit>(K) && !Seen.count(K))
        Walk.push_back(K);
  };

  if (auto *T = dyn_cast<DIType>(N)) {
    Add(T->getScope());
    if (auto *ST = dyn_cast<DISubroutineType>(T)) {
      for (DIType *R : ST->getTypeArray())
        Add(R);
    } else if (auto *C = dyn_cast<DICompositeType>(T)) {
      if (isRecord(C) && !C->getName().empty() && !C->isForwardDecl())
        ByName.try_emplace(C->getName(), C);
      Add(C->getBaseType());
      for (Metadata *E : C->getElements())
        if (isa<DIType>(E) || isa<DISubprogram>(E))
          Add(E);
    } else if (auto *D = dyn_cast<DIDerivedType>(T)) {
      if (D->getTag() == dwarf::DW_TAG_typedef && !D->getName().empty())
        TypedefOf.try_emplace(D->getName(), D);
      Add(D->getBaseType());
    }
  } else if (auto *SP = dyn_cast<DISubprogram>(N)) {
    Add(SP->getScope());
    Add(SP->getType());
  } else if (auto *V = dyn_cast<DIVariable>(N)) {
    Add(V->getScope());
    Add(V->getType());
  } else if (auto *CU = dyn_cast<DICompileUnit>(N)) {
    for (DICompositeType *E : CU->getEnumTypes())
      Add(E);
    for (Metadata *R : CU->getRetainedTypes())
      if (isa<DIType>(R) || isa<DISubprogram>(R))
        Add(R);
    for (DIGlobalVariableExpression *G : CU->getGlobalVariables())
      Add(G->getVariable());
  } else if (auto *S = dyn_cast<DIScope>(N)) {
    Add(S->getScope());	// lexical blocks, namespaces, modules
  }
}

// One node further; false when the walk is over.
bool Rewriter::walkStep() {
  while (WalkNext < Walk.size()) {
    MDNode *N = Walk[WalkNext++];
    if (Seen.insert(N).second) {
      walkEnter(N);
      return true;
    }
  }
  return false;
}

// Walk until @Name is indexed as a record or a typedef, or to the end.
void Rewriter::indexUntil(StringRef Name) {
  while (!ByName.count(Name) && !TypedefOf.count(Name) && walkStep())
    ;
}

bool Rewriter::isDirectType(StringRef Name) const {
  if (DirectTypes.getNumOccurrences()) {
    for (const std::string &D : DirectTypes)
      if (Name == D)
        return true;
    return false;
  }
  return Name == "pt_regs" || Name == "user_pt_regs" ||
         Name == "bpf_raw_tracepoint_args" || Name == "bpf_perf_event_data" ||
         compat::startsWith(Name, "trace_event_raw_");
}

bool isProbeSection(StringRef S) {
  for (StringRef P : {"kprobe", "kretprobe", "uprobe", "uretprobe",
                      "tracepoint", "tp/", "raw_tracepoint", "raw_tp",
                      "perf_event", "ksyscall", "kretsyscall", "usdt"})
    if (compat::startsWith(S, P))
      return true;
  return false;
}

// Probe mode for functions reachable from kprobe-like programs (they may not
// dereference kernel pointers); direct loads elsewhere.
void Rewriter::classifyFunctions() {
  if (!NaturalDeref)
    return;
  SmallVector<Function *, 16> Work;
  bool AnyProbe = false, AnyProg = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasSection())
      continue;
    AnyProg = true;
    if (isProbeSection(F.getSection())) {
      AnyProbe = true;
      if (ProbeFns.insert(&F).second)
        Work.push_back(&F);
    }
  }
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    for (Instruction &I : instructions(*F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration() && ProbeFns.insert(Callee).second)
            Work.push_back(Callee);
  }
  // Functions no program reaches (yet): probe if the module has probe
  // programs or no program at all (a library of helpers).
  if (AnyProbe || !AnyProg)
    for (Function &F : M)
      if (!F.isDeclaration() && !F.hasSection()) {
        bool Called = false;
        for (User *U : F.users())
          if (isa<CallBase>(U))
            Called = true;
        if (!Called)
          ProbeFns.insert(&F);
      }
}

void Rewriter::error(Instruction *I, const Twine &Msg) {
  Errors = true;
  Function *F = I->getFunction();
  DebugLoc DLoc = I->getDebugLoc();
  std::string S = ("relocore: " + Msg).str();
  if (!DLoc)
    S += " (in function " + F->getName().str() +
         "; no source line: compile with -g)";
  Ctx.diagnose(DiagnosticInfoUnsupported(*F, S, DLoc, DS_Error));
}

void Rewriter::remark(Instruction *I, const Twine &Msg) {
  OptimizationRemarkEmitter ORE(I->getFunction());
  ORE.emit([&]() {
    return OptimizationRemark(PassName, "Relocated", I) << Msg.str();
  });
}

void Rewriter::missed(Instruction *I, const Twine &Msg) {
  OptimizationRemarkEmitter ORE(I->getFunction());
  ORE.emit([&]() {
    return OptimizationRemarkMissed(PassName, "NotRelocated", I) << Msg.str();
  });
}

// The DI record of a GEP/bitcast source type that starts a chain, when it is
// a kernel type.  Known=false when the type is not described (no -g).
DICompositeType *Rewriter::lookupRoot(Type *ElTy, bool &Known) {
  bool IsUnion;
  StringRef Name = irRecordName(ElTy, IsUnion);
  Known = true;
  if (Name.empty())
    return nullptr;
  DICompositeType *C = nullptr;
  StringRef File;
  indexUntil(Name);
  auto It = ByName.find(Name);
  if (It != ByName.end()) {
    C = It->second;
    File = C->getFilename();
  } else {
    auto TIt = TypedefOf.find(Name);
    if (TIt != TypedefOf.end()) {
      C = dyn_cast_or_null<DICompositeType>(stripDI(TIt->second));
      File = TIt->second->getFilename();
      if (C && !C->getName().empty())
        C = nullptr; // named record behind a typedef: IR uses the record name
    }
  }
  if (!C || !isRecord(C)) {
    Known = false;
    return nullptr;
  }
  if (!KT.isKernel(Name, File, MainFile))
    return nullptr;
  return C;
}

// ------------------------------------------------------------- analysis

int Rewriter::findMember(DICompositeType *C, StructType *ST, unsigned K,
                         bool &BF) {
  const StructLayout *SL = DL.getStructLayout(ST);
  uint64_t Off = SL->getElementOffsetInBits(K);
  uint64_t Sz = DL.getTypeSizeInBits(ST->getElementType(K));
  BF = false;
  int OffOnly = -1;
  DINodeArray Elems = C->getElements();
  for (unsigned I = 0; I < Elems.size(); ++I) {
    auto *Mb = dyn_cast_or_null<DIDerivedType>(Elems[I]);
    if (!Mb || Mb->getTag() != dwarf::DW_TAG_member || Mb->isStaticMember())
      continue;
    if (Mb->isBitField()) {
      if (Mb->getOffsetInBits() >= Off && Mb->getOffsetInBits() < Off + Sz)
        BF = true;
      continue;
    }
    if (Mb->getOffsetInBits() != Off)
      continue;
    if (Mb->getSizeInBits() == Sz)
      return I;
    if (OffOnly < 0 && Sz != 0 && Mb->getSizeInBits() != 0)
      OffOnly = I;
  }
  if (BF)
    return -1;
  return OffOnly;
}

bool Rewriter::irMatchesDI(Type *T, DIType *D, int Depth) {
  D = stripDI(D);
  if (!D)
    return false;
  uint64_t TSz = DL.getTypeSizeInBits(T);
  if (T->isPointerTy())
    return isa<DIDerivedType>(D) && D->getTag() == dwarf::DW_TAG_pointer_type;
  if (T->isIntegerTy() || T->isFloatingPointTy())
    return (isa<DIBasicType>(D) ||
            D->getTag() == dwarf::DW_TAG_enumeration_type) &&
           D->getSizeInBits() == TSz;
  auto *C = dyn_cast<DICompositeType>(D);
  if (!C || C->getSizeInBits() != TSz)
    return false;
  if (T->isArrayTy())
    return C->getTag() == dwarf::DW_TAG_array_type;
  auto *ST = dyn_cast<StructType>(T);
  if (!ST || !isRecord(C))
    return false;
  bool IsUnion;
  StringRef N = irRecordName(ST, IsUnion);
  if (IsUnion != (C->getTag() == dwarf::DW_TAG_union_type))
    return false;
  if (!N.empty() && !C->getName().empty())
    return N == C->getName();
  if (IsUnion || Depth > 2)
    return true;
  // Anonymous structs of equal size: every IR field must start where a DI
  // member (or bitfield storage) starts.
  const StructLayout *SL = DL.getStructLayout(ST);
  for (unsigned K = 0; K < ST->getNumElements(); ++K) {
    bool BF;
    auto *AT = dyn_cast<ArrayType>(ST->getElementType(K));
    if (AT && AT->getElementType()->isIntegerTy(8)) {
      // clang's padding arrays have no member; real char arrays do
      if (findMember(C, ST, K, BF) < 0 && !BF)
        continue;
    }
    int I = findMember(C, ST, K, BF);
    if (I < 0 && !BF)
      return false;
    (void)SL;
  }
  return true;
}

int Rewriter::findUnionMember(DICompositeType *C, Type *To) {
  DINodeArray Elems = C->getElements();
  for (unsigned I = 0; I < Elems.size(); ++I) {
    auto *Mb = dyn_cast_or_null<DIDerivedType>(Elems[I]);
    if (!Mb || Mb->getTag() != dwarf::DW_TAG_member || Mb->isBitField())
      continue;
    if (irMatchesDI(To, Mb->getBaseType()))
      return I;
  }
  return -1;
}

bool isZero(Value *V) {
  auto *CI = dyn_cast<ConstantInt>(V);
  return CI && CI->isZero();
}

Node *Rewriter::analyzeGEP(GetElementPtrInst *G) {
  if (G->getNumIndices() < 2)
    return nullptr;
  Value *Base = G->getPointerOperand();
  Node *Parent = NodeOf.lookup(Base);
  DIType *CurDI = nullptr;
  DICompositeType *Root = nullptr;
  if (Parent) {
    if (Parent->Bitfield || !Parent->ResultDI)
      return nullptr;
    CurDI = Parent->ResultDI;
    Root = Parent->RootDI;
  } else {
    bool Known;
    Root = lookupRoot(G->getSourceElementType(), Known);
    if (!Known && KT.inBTF(irRecordName(G->getSourceElementType(), Known))) {
      error(G, "cannot relocate an access to kernel type 'struct " +
                   irRecordName(G->getSourceElementType(), Known) +
                   "': no type debug info (compile with -g)");
      return nullptr;
    }
    if (!Known && !HaveTypes && !KT.haveBTF() && !WarnedNoTypes) {
      WarnedNoTypes = true;
      error(G, "no type debug info: kernel types cannot be recognized and "
               "nothing is relocated (compile with -g)");
    }
    if (!Root)
      return nullptr;
    // A kernel record embedded in a program-local object keeps the local
    // layout: leave it alone.
    Value *U = Base->stripPointerCasts();
    if (auto *BG = dyn_cast<GEPOperator>(U))
      if (BG->getNumIndices() >= 2 && !NodeOf.count(U))
        return nullptr;
    CurDI = Root;
  }
  auto N = std::make_unique<Node>();
  N->Orig = G;
  N->Parent = Parent;
  N->RootDI = Root;
  N->Base = Base;
  N->BaseElTy = G->getSourceElementType();
  Value *Idx0 = G->getOperand(1);
  auto *C0 = dyn_cast<ConstantInt>(Idx0);
  // p[1].x is "q = p + 1" then "&q->x" in unoptimized IR: fold the first
  if (!Parent && isZero(Idx0))
    if (auto *PG = dyn_cast<GetElementPtrInst>(Base))
      if (PG->getNumIndices() == 1 &&
          PG->getSourceElementType() == G->getSourceElementType() &&
          !NodeOf.count(PG) && isa<ConstantInt>(PG->getOperand(1))) {
        C0 = cast<ConstantInt>(PG->getOperand(1));
        N->Base = Base = PG->getPointerOperand();
        Idx0 = C0;
      }
  if (!Parent && C0 && C0->getSExtValue() > 0 && C0->getSExtValue() < INT32_MAX) {
    // p[1].x on a kernel pointer: as clang does, the index is the access
    // string's first (scaled by the target's size of the record)
    unsigned K = C0->getZExtValue();
    DIBuilder DIB(M, /*AllowUnresolved=*/false);
    N->Steps.push_back({Step::Array, G->getSourceElementType(), K, 0,
                        DIB.createPointerType(Root, DL.getPointerSizeInBits()),
                        "[" + std::to_string(K) + "]"});
  } else if (!isZero(Idx0)) {
    N->PreIdx = Idx0;
  }
  N->ChainsToParent = Parent && !N->PreIdx;
  Type *CurTy = G->getSourceElementType();
  unsigned I = 2, E = G->getNumOperands();
  for (; I < E; ++I) {
    Value *Idx = G->getOperand(I);
    auto *CI = dyn_cast<ConstantInt>(Idx);
    auto *C = dyn_cast_or_null<DICompositeType>(stripDI(CurDI));
    if (auto *ST = dyn_cast<StructType>(CurTy)) {
      if (!C || C->getTag() != dwarf::DW_TAG_structure_type || !CI)
        break;
      unsigned K = CI->getZExtValue();
      bool BF;
      int DIIdx = findMember(C, ST, K, BF);
      if (DIIdx < 0) {
        if (BF && I + 1 == E) {
          N->Bitfield = true;
          N->BFRecord = C;
          N->BFTy = ST;
          N->BFGepIdx = K;
          N->BFByteOff = DL.getStructLayout(ST)->getElementOffset(K);
          ++I;
        } else {
          missed(G, "no debug-info member of '" + C->getName() +
                        "' at IR field " + Twine(K) + ": not relocated");
        }
        break;
      }
      auto *Mb = cast<DIDerivedType>(C->getElements()[DIIdx]);
      N->Steps.push_back({Step::Struct, ST, K, (unsigned)DIIdx, C,
                          Mb->getName().str()});
      CurTy = ST->getElementType(K);
      CurDI = Mb->getBaseType();
      continue;
    }
    if (auto *AT = dyn_cast<ArrayType>(CurTy)) {
      if (!C || C->getTag() != dwarf::DW_TAG_array_type || !CI ||
          C->getElements().empty())
        break;
      N->Steps.push_back({Step::Array, AT, (unsigned)CI->getZExtValue(), 1, C,
                          "[" + std::to_string(CI->getZExtValue()) + "]"});
      CurTy = AT->getElementType();
      if (C->getElements().size() > 1) {
        // A multi-dimensional array is one DI type with a subrange per
        // dimension.  As clang does for __builtin_preserve_access_index,
        // the row is described by a new array type of the remaining
        // subranges, so every index is relocated.
        DIBuilder DIB(M, /*AllowUnresolved=*/false);
        SmallVector<Metadata *, 4> Rest;
        for (unsigned D = 1; D < C->getElements().size(); ++D)
          Rest.push_back(C->getElements()[D]);
        CurDI = DIB.createArrayType(DL.getTypeAllocSizeInBits(CurTy),
                                    C->getAlignInBits(), C->getBaseType(),
                                    DIB.getOrCreateArray(Rest));
        continue;
      }
      CurDI = C->getBaseType();
      continue;
    }
    break;
  }
  if (N->Steps.empty() && !N->Bitfield)
    return nullptr;
  N->CurTy = CurTy;
  if (I < E) {
    N->Tail.push_back(ConstantInt::get(Type::getInt32Ty(Ctx), 0));
    for (; I < E; ++I)
      N->Tail.push_back(G->getOperand(I));
  } else if (!N->Bitfield) {
    N->ResultDI = stripDI(CurDI);
  }
  Node *R = N.get();
  NodeOf[G] = R;
  Nodes.push_back(std::move(N));
  return R;
}

Node *Rewriter::analyzeCast(BitCastInst *BC) {
  Type *FromEl = compat::pointee(BC->getSrcTy());
  Type *ToEl = compat::pointee(BC->getDestTy());
  if (!FromEl || !ToEl)
    return nullptr;
  return castNode(BC, FromEl, ToEl);
}

// Opaque pointers have no casts: a union member is accessed by a load,
// store or GEP of the member's type straight on the union's address, and
// bitfield storage at IR field 0 by a load of its integer type straight on
// the record's address.  When User (operand OpIdx, accessing AccessTy) does
// that on a chain whose result is a kernel union (or such a struct), a
// no-op "bitcast ptr to ptr" is put in between to stand for the cast clang
// emits with typed pointers, and becomes a node as that cast would.
// Leftover placeholders are removed by dropPlaceholders().
Node *Rewriter::analyzeOpaqueAccess(Instruction *User, unsigned OpIdx,
                                    Type *AccessTy, bool LoadStore) {
  Value *Ptr = User->getOperand(OpIdx);
  Node *P = NodeOf.lookup(Ptr);
  DICompositeType *C;
  Type *CurTy;
  if (P) {
    if (P->Bitfield || !P->ResultDI || !P->Tail.empty())
      return nullptr;
    C = dyn_cast<DICompositeType>(P->ResultDI);
    CurTy = P->CurTy;
  } else {
    // a root: the record a pointer points to, from the debug info
    bool Known;
    CurTy = nullptr;
    DICompositeType *PR = pointeeRecord(Ptr, CurTy);
    if (!PR)
      return nullptr;
    if (!CurTy) {
      // no GEP in the module named the record, so clang made no IR type
      // for it: a union needs none (its member steps carry only debug
      // info), so one is declared; a struct's bitfield storage does
      if (PR->getTag() == dwarf::DW_TAG_union_type) {
        CurTy = StructType::create(Ctx, ("union." + PR->getName()).str());
      } else {
        if (LoadStore && AccessTy->isIntegerTy() && bitfieldFirst(PR) &&
            KT.isKernel(PR->getName(), PR->getFilename(), MainFile))
          error(User, "cannot relocate this access to a bitfield at offset 0 "
                      "of kernel type 'struct " + PR->getName() +
                      "': no member access in this file gives clang's IR "
                      "layout of it (opaque pointers); use "
                      "BPF_CORE_READ_BITFIELD");
        return nullptr;
      }
    }
    if (!(C = lookupRoot(CurTy, Known)))
      return nullptr;
  }
  if (!C || !isRecord(C) || AccessTy == CurTy)
    return nullptr;
  if (C->getTag() != dwarf::DW_TAG_union_type) {
    auto *ST = dyn_cast<StructType>(CurTy);
    bool BF;
    if (!LoadStore || !ST || !AccessTy->isIntegerTy() ||
        ST->getNumElements() == 0 || findMember(C, ST, 0, BF) >= 0 || !BF)
      return nullptr;
  }
  auto *PH = new BitCastInst(Ptr, Ptr->getType(), "relocore.member", User);
  User->setOperand(OpIdx, PH);
  Placeholders.push_back(PH);
  return castNode(PH, CurTy, AccessTy);
}

// T is a pointer to a union, or to a struct whose storage at offset 0 holds
// bitfields: accessed with opaque pointers without any GEP.
bool rootWithoutGEP(DIType *T) {
  auto *PT = dyn_cast_or_null<DIDerivedType>(stripDI(T));
  if (!PT || PT->getTag() != dwarf::DW_TAG_pointer_type)
    return false;
  auto *C = dyn_cast_or_null<DICompositeType>(stripDI(PT->getBaseType()));
  if (!C || !isRecord(C))
    return false;
  return C->getTag() == dwarf::DW_TAG_union_type || bitfieldFirst(C);
}

// The first member of record C is a bitfield in the storage at offset 0.
bool bitfieldFirst(DICompositeType *C) {
  for (DINode *E : C->getElements())
    if (auto *Mb = dyn_cast_or_null<DIDerivedType>(E))
      if (Mb->getTag() == dwarf::DW_TAG_member && !Mb->isStaticMember())
        return Mb->isBitField() && Mb->getOffsetInBits() < 8;
  return false;
}

// With opaque pointers, the record a pointer V points to when no GEP names
// it: V is loaded from a local variable (its declared type) or from a
// chain's member of pointer type (the member's type).  IRTy: the record's
// IR type, null when clang made none.  Null when unknown.
DICompositeType *Rewriter::pointeeRecord(Value *V, Type *&IRTy) {
  auto *L = dyn_cast<LoadInst>(V);
  if (!L || !L->getType()->isPointerTy())
    return nullptr;
  Value *Src = L->getPointerOperand();
  DIType *T = nullptr;
  if (Node *N = NodeOf.lookup(Src)) {
    if (!N->Bitfield && N->Tail.empty())
      T = N->ResultDI;
  } else if (isa<AllocaInst>(Src)) {
    T = compat::declaredType(Src);
  }
  auto *PT = dyn_cast_or_null<DIDerivedType>(stripDI(T));
  if (!PT || PT->getTag() != dwarf::DW_TAG_pointer_type)
    return nullptr;
  auto *C = dyn_cast_or_null<DICompositeType>(stripDI(PT->getBaseType()));
  if (!C || !isRecord(C) || C->getName().empty())
    return nullptr;
  bool IsUnion = C->getTag() == dwarf::DW_TAG_union_type;
  IRTy = StructType::getTypeByName(
      Ctx, ((IsUnion ? "union." : "struct.") + C->getName()).str());
  return C;
}

void Rewriter::dropPlaceholders() {
  for (WeakTrackingVH &V : Placeholders)
    if (auto *PH = dyn_cast_or_null<BitCastInst>(V)) {
      PH->replaceAllUsesWith(PH->getOperand(0));
      PH->eraseFromParent();
    }
  Placeholders.clear();
}

// A node for cast BC (or its placeholder) from a pointer to FromEl to one
// to ToEl: a union member, or bitfield storage at IR field 0.
Node *Rewriter::castNode(Instruction *BC, Type *FromEl, Type *ToEl) {
  Value *Base = BC->getOperand(0);
  Node *Parent = NodeOf.lookup(Base);
  DICompositeType *C = nullptr, *Root = nullptr;
  if (Parent) {
    if (Parent->Bitfield)
      return nullptr;
    C = dyn_cast_or_null<DICompositeType>(Parent->ResultDI);
    Root = Parent->RootDI;
  } else {
    bool Known;
    C = Root = lookupRoot(FromEl, Known);
  }
  if (!C || !isRecord(C) || !isa<StructType>(FromEl))
    return nullptr;
  auto N = std::make_unique<Node>();
  N->Orig = BC;
  N->Parent = Parent;
  N->ChainsToParent = Parent != nullptr;
  N->Base = Base;
  N->BaseElTy = FromEl;
  N->RootDI = Root;
  N->CurTy = FromEl;
  if (C->getTag() == dwarf::DW_TAG_union_type) {
    int I = findUnionMember(C, ToEl);
    if (I < 0) {
      missed(BC, "no member of union '" + C->getName() +
                     "' matches the accessed type: not relocated");
      return nullptr;
    }
    auto *Mb = cast<DIDerivedType>(C->getElements()[I]);
    N->Steps.push_back({Step::Union, nullptr, 0, (unsigned)I, C,
                        Mb->getName().str()});
    N->ResultDI = stripDI(Mb->getBaseType());
  } else if (ToEl->isIntegerTy()) {
    // bitfield storage at IR field 0 (clang bitcasts instead of a GEP)
    auto *ST = cast<StructType>(FromEl);
    if (ST->getNumElements() == 0)
      return nullptr;
    bool BF;
    if (findMember(C, ST, 0, BF) >= 0 || !BF)
      return nullptr;
    N->Bitfield = true;
    N->BFRecord = C;
    N->BFTy = ST;
    N->BFGepIdx = 0;
    N->BFByteOff = 0;
  } else {
    return nullptr;
  }
  Node *R = N.get();
  NodeOf[BC] = R;
  Nodes.push_back(std::move(N));
  return R;
}

// "task_struct.sched.stats[2]": steps appended to S, as remarks show them
// (anonymous members leave no name).
void appendSteps(std::string &S, ArrayRef<Step> Steps) {
  for (const Step &St : Steps) {
    if (St.K == Step::Array)
      S += St.Name;
    else if (!St.Name.empty())
      S += "." + St.Name;
  }
}

std::string Rewriter::accessString(Node *N, const Step *Extra) {
  SmallVector<Node *, 4> Chain;
  for (Node *X = N; X; X = X->ChainsToParent ? X->Parent : nullptr)
    Chain.push_back(X);
  std::string S = Chain.back()->RootDI ? Chain.back()->RootDI->getName().str()
                                       : std::string("?");
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It)
    appendSteps(S, (*It)->Steps);
  if (Extra)
    appendSteps(S, *Extra);
  return S;
}

} // namespace relocore
