// relocore-pass: CO-RE relocations for kernel types accessed in plain C.
//
// Runs at PipelineStartEP, where clang's IR still has struct-typed GEPs.  It
// rewrites every member access of a kernel record (see KernelTypes.cpp) into
// the llvm.preserve.{struct,union,array}.access.index intrinsics clang emits
// for preserve_access_index types, bitfield reads into the
// BPF_CORE_READ_BITFIELD sequence (llvm.bpf.preserve.field.info), and, in
// kprobe/tracepoint programs, loads through kernel pointers into
// bpf_probe_read_kernel calls.  The BPF target's own CO-RE passes have
// already run at this point, so they are run again (legacy pass manager, on
// a private BPF TargetMachine) to turn the intrinsics into the relocations
// the BTF emitter writes to .BTF.ext.  See README for the options.
#include "Relocore.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsBPF.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/IR/PassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/IPO/PassManagerBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <map>
#include <memory>

using namespace llvm;

extern "C" {
void LLVMInitializeBPFTargetInfo();
void LLVMInitializeBPFTarget();
void LLVMInitializeBPFTargetMC();
}

namespace relocore {

static cl::opt<bool> Enable("relocore", cl::init(true),
                            cl::desc("relocore: enable the plugin"));
static cl::opt<bool> NaturalDeref(
    "relocore-natural-deref", cl::init(true),
    cl::desc("relocore: in kprobe/tracepoint/uprobe/perf_event programs, turn "
             "loads through kernel pointers into bpf_probe_read_kernel"));
static cl::opt<bool> RunBPFPasses(
    "relocore-run-bpf-passes", cl::init(true),
    cl::desc("relocore: lower the inserted intrinsics with the BPF target's "
             "CO-RE passes (off: leave llvm.preserve.* in the IR, for tests)"));
static cl::opt<bool> Kconfig(
    "relocore-kconfig", cl::init(true),
    cl::desc("relocore: map __bpf_* globals to libbpf .kconfig externs"));
static cl::list<std::string> DirectTypes(
    "relocore-direct-types", cl::CommaSeparated,
    cl::desc("relocore: records read directly even in probe programs (context "
             "types; default pt_regs, user_pt_regs, bpf_raw_tracepoint_args, "
             "bpf_perf_event_data, trace_event_raw_*)"));

namespace {

const char *PassName = "relocore";

enum FieldInfo {
  BYTE_OFFSET = 0, BYTE_SIZE = 1, SIGNED = 3, LSHIFT_U64 = 4, RSHIFT_U64 = 5
};

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

// One step of an access chain, as clang would emit it.
struct Step {
  enum Kind { Struct, Union, Array } K;
  Type *ElTy;       // container IR type (struct/array); null for unions
  unsigned GepIdx;  // IR field index / array index
  unsigned DIIdx;   // DI member index / array dimension
  DIType *MD;       // container DI type (a pointer type for p[N] on a pointer)
  std::string Name; // member name ("" for anonymous), "[N]" for arrays
};

struct Node {
  Instruction *Orig = nullptr; // GEP or bitcast replaced by this node
  Node *Parent = nullptr;      // node producing the base (if any)
  bool ChainsToParent = false; // steps continue the parent's chain
  WeakTrackingVH Base;         // original base value (follows RAUW)
  Type *BaseElTy = nullptr;    // GEP source element type (for PreIdx)
  Value *PreIdx = nullptr;     // leading non-zero GEP index (pointer arith)
  SmallVector<Step, 4> Steps;
  Type *CurTy = nullptr;       // IR type pointed to after the steps
  SmallVector<Value *, 2> Tail; // indices of a plain GEP after the steps
  Type *CastTo = nullptr;      // final bitcast type (union member)
  DIType *ResultDI = nullptr;  // DI type pointed to by the result
  DICompositeType *RootDI = nullptr;
  // Bitfield storage: the last GEP index selects a storage unit shared by
  // bitfields; the member is found from each load's shifts.
  bool Bitfield = false;
  DICompositeType *BFRecord = nullptr;
  StructType *BFTy = nullptr;
  unsigned BFGepIdx = 0;
  uint64_t BFByteOff = 0;
  Value *Value_ = nullptr;     // materialized value
};

class Rewriter {
public:
  Rewriter(Module &M, const KernelTypes &KT) : M(M), DL(M.getDataLayout()),
                                                KT(KT), Ctx(M.getContext()) {}
  bool run();

private:
  Module &M;
  const DataLayout &DL;
  const KernelTypes &KT;
  LLVMContext &Ctx;
  std::string MainFile;
  bool HaveTypes = false;
  StringMap<DICompositeType *> ByName;     // record name -> DI
  StringMap<DIDerivedType *> TypedefOf;   // typedef name -> typedef
  SmallPtrSet<Function *, 16> ProbeFns;
  std::vector<std::unique_ptr<Node>> Nodes;
  DenseMap<Value *, Node *> NodeOf;
  unsigned NumRelocated = 0;
  bool Errors = false;
  bool WarnedNoTypes = false;

  void indexDebugInfo();
  void classifyFunctions();
  bool isDirectType(StringRef Name) const;
  DICompositeType *lookupRoot(Type *ElTy, bool &Known);
  void error(Instruction *I, const Twine &Msg);
  void remark(Instruction *I, const Twine &Msg);
  void missed(Instruction *I, const Twine &Msg);

  Node *analyzeGEP(GetElementPtrInst *G);
  Node *analyzeCast(BitCastInst *C);
  int findMember(DICompositeType *C, StructType *ST, unsigned K, bool &BF);
  int findUnionMember(DICompositeType *C, Type *To);
  bool irMatchesDI(Type *T, DIType *D, int Depth = 0);
  std::string accessString(Node *N, const Step *Extra = nullptr);
  Value *topBase(Node *N, IRBuilder<> &B);
  Value *materialize(Node *N);
  Value *emitSteps(IRBuilder<> &B, Value *V, ArrayRef<Step> Steps);
  Value *fieldInfo(IRBuilder<> &B, Node *N, const Step &Member, FieldInfo K);
  bool rewriteBitfieldLoad(Node *N, LoadInst *L, bool Probe,
                           SmallVectorImpl<Instruction *> &Dead);
  bool probeRoot(Node *N);
  int memberPathAt(DICompositeType *C, StructType *ST, uint64_t Bits,
                   SmallVectorImpl<Step> &Path);
  bool memberPathOf(DICompositeType *C, StructType *ST, GEPOperator *GO,
                    SmallVectorImpl<Step> &Path);
  bool rewriteContainerOf(Function &F);
  Value *probeRead(IRBuilder<> &B, Function &F, Type *Ty, Value *Src,
                   Value *Size = nullptr, Value *Dst = nullptr);
  bool runOnFunction(Function &F);
};

// ---------------------------------------------------------------- set-up

void Rewriter::indexDebugInfo() {
  DebugInfoFinder Finder;
  Finder.processModule(M);
  for (DICompileUnit *CU : Finder.compile_units()) {
    if (MainFile.empty())
      MainFile = CU->getFilename().str();
    if (CU->getEmissionKind() == DICompileUnit::FullDebug)
      HaveTypes = true;
  }
  for (DIType *T : Finder.types()) {
    if (auto *C = dyn_cast<DICompositeType>(T)) {
      if (!isRecord(C) || C->getName().empty() ||
          C->isForwardDecl())
        continue;
      ByName.try_emplace(C->getName(), C);
    } else if (auto *D = dyn_cast<DIDerivedType>(T)) {
      if (D->getTag() == dwarf::DW_TAG_typedef && !D->getName().empty())
        TypedefOf.try_emplace(D->getName(), D);
    }
  }
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
         Name.startswith("trace_event_raw_");
}

static bool isProbeSection(StringRef S) {
  for (StringRef P : {"kprobe", "kretprobe", "uprobe", "uretprobe",
                      "tracepoint", "tp/", "raw_tracepoint", "raw_tp",
                      "perf_event", "ksyscall", "kretsyscall", "usdt"})
    if (S.startswith(P))
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

static bool isZero(Value *V) {
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
  Type *From = BC->getSrcTy(), *To = BC->getDestTy();
  if (!From->isPointerTy() || !To->isPointerTy())
    return nullptr;
  Type *FromEl = From->getPointerElementType();
  Type *ToEl = To->getPointerElementType();
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
    N->CastTo = To;
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
    N->CastTo = To;
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
static void appendSteps(std::string &S, ArrayRef<Step> Steps) {
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

Value *Rewriter::probeRead(IRBuilder<> &B, Function &F, Type *Ty, Value *Src,
                           Value *Size, Value *Dst) {
  Type *I8P = B.getInt8PtrTy();
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
      Width = countPopulation(Bv);
  } else if (Next(Instruction::And, Bv)) {
    Width = countPopulation(Bv);
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
  Value *Base = B.CreateBitCast(topBase(N, B), B.getInt8PtrTy());
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
bool Rewriter::rewriteContainerOf(Function &F) {
  SmallVector<std::pair<GetElementPtrInst *, BitCastInst *>, 4> Work;
  for (Instruction &I : instructions(F)) {
    auto *BC = dyn_cast<BitCastInst>(&I);
    auto *G = BC ? dyn_cast<GetElementPtrInst>(BC->getOperand(0)) : nullptr;
    if (!G || G->getNumIndices() != 1 ||
        !G->getSourceElementType()->isIntegerTy(8) ||
        !BC->getDestTy()->isPointerTy() ||
        !isa<StructType>(BC->getDestTy()->getPointerElementType()))
      continue;
    Value *Idx = G->getOperand(1);
    if (!offsetofExpr(Idx) && isa<ConstantExpr>(Idx)) {
      // another constant form (e.g. an offsetof through a union): its value
      Constant *F = ConstantFoldConstant(cast<ConstantExpr>(Idx), DL);
      if (isa<ConstantInt>(F))
        G->setOperand(1, Idx = F);
    }
    auto *CI = dyn_cast<ConstantInt>(Idx);
    if ((CI && CI->getSExtValue() < 0) || offsetofExpr(Idx))
      Work.push_back({G, BC});
  }
  bool Changed = false;
  for (auto &W : Work) {
    GetElementPtrInst *G = W.first;
    BitCastInst *BC = W.second;
    auto *ST = cast<StructType>(BC->getDestTy()->getPointerElementType());
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
      missed(BC, "container_of: " + Twine(R ? "several members" : "no member") +
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
    BC->setOperand(0, NG);
    if (G->use_empty())
      G->eraseFromParent();
    std::string Name = C->getName().str();
    appendSteps(Name, Path);
    remark(BC, "relocated container_of offset " + Name);
    ++NumRelocated;
    Changed = true;
  }
  return Changed;
}

bool Rewriter::runOnFunction(Function &F) {
  bool ContainerOf = rewriteContainerOf(F);
  Nodes.clear();
  NodeOf.clear();
  ReversePostOrderTraversal<Function *> RPOT(&F);
  for (BasicBlock *BB : RPOT)
    for (Instruction &I : *BB) {
      if (auto *G = dyn_cast<GetElementPtrInst>(&I))
        analyzeGEP(G);
      else if (auto *BC = dyn_cast<BitCastInst>(&I))
        analyzeCast(BC);
    }
  if (Nodes.empty())
    return ContainerOf;
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
    bool P = Probe && probeRoot(N);
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
      continue;
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
  for (Instruction *I : Dead)
    I->eraseFromParent();
  // Originals, children before parents.
  for (auto It = Nodes.rbegin(); It != Nodes.rend(); ++It) {
    Instruction *I = (*It)->Orig;
    if (I->use_empty())
      I->eraseFromParent();
  }
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
        Candidates = (BC->getSrcTy()->isPointerTy() &&
                      isa<StructType>(BC->getSrcTy()->getPointerElementType())) ||
                     (BC->getDestTy()->isPointerTy() &&   // container_of
                      isa<StructType>(BC->getDestTy()->getPointerElementType()) &&
                      isa<GetElementPtrInst>(BC->getOperand(0)));
      if (Candidates)
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

// Run the BPF target's early CO-RE passes (abstract member access, preserve
// DI type, IR peephole) over the module, on a private TargetMachine.
bool runBPFCorePasses(Module &M) {
  std::string Err;
  Triple T(M.getTargetTriple());
  const Target *Tgt = TargetRegistry::lookupTarget("", T, Err);
  if (!Tgt) {
    LLVMInitializeBPFTargetInfo();
    LLVMInitializeBPFTarget();
    LLVMInitializeBPFTargetMC();
    Tgt = TargetRegistry::lookupTarget("", T, Err);
  }
  if (!Tgt) {
    diagnose(M, "relocore: no BPF target: " + Err, true);
    return false;
  }
  std::unique_ptr<TargetMachine> TM(Tgt->createTargetMachine(
      T.str(), "generic", "", TargetOptions(), None));
  PassManagerBuilder PMB;
  PMB.OptLevel = 0; // only the target's EP_EarlyAsPossible extensions
  TM->adjustPassManager(PMB);
  legacy::FunctionPassManager FPM(&M);
  PMB.populateFunctionPassManager(FPM);
  FPM.doInitialization();
  for (Function &F : M)
    if (!F.isDeclaration())
      FPM.run(F);
  FPM.doFinalization();
  return true;
}

struct RelocorePass : PassInfoMixin<RelocorePass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (!Enable || (Triple(M.getTargetTriple()).getArch() != Triple::bpfel && Triple(M.getTargetTriple()).getArch() != Triple::bpfeb))
      return PreservedAnalyses::all();
    bool Changed = false;
    if (Kconfig)
      Changed |= rewriteKconfigGlobals(M);
    KernelTypes KT;
    std::string Err;
    if (!KT.init(Err)) {
      diagnose(M, "relocore: " + Err, true);
      return PreservedAnalyses::all();
    }
    Rewriter R(M, KT);
    bool Rewritten = R.run();
    Changed |= Rewritten;
    if (Rewritten && RunBPFPasses)
      runBPFCorePasses(M);
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

} // namespace
} // namespace relocore

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "relocore", "0.1", [](PassBuilder &PB) {
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(relocore::RelocorePass());
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "relocore")
                    return false;
                  MPM.addPass(relocore::RelocorePass());
                  return true;
                });
          }};
}
