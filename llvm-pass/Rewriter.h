// Shared declarations of the relocore plugin's rewriter: the access chains
// (Step, Node) and the Rewriter that finds kernel-type accesses in a module
// and rewrites them.  One seam per file:
//   Analysis.cpp     debug-info index, kernel-type roots, access chains
//   Lowering.cpp     chains -> llvm.preserve.* intrinsics, bitfield reads,
//                    the per-function driver
//   ProbeRead.cpp    loads/copies through kernel pointers -> probe reads
//   ContainerOf.cpp  container_of offsets
//   RelocorePass.cpp options, pass-manager glue
//   Compat.h/.cpp    everything that differs between LLVM 14, 16 and 19
#ifndef RELOCORE_REWRITER_H
#define RELOCORE_REWRITER_H

#include "Compat.h"
#include "Relocore.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Support/CommandLine.h"

#include <memory>
#include <string>
#include <vector>

namespace relocore {
using namespace llvm;

// Options (RelocorePass.cpp)
extern cl::opt<bool> NaturalDeref;
extern cl::list<std::string> DirectTypes;
extern const char *PassName;

enum FieldInfo {
  BYTE_OFFSET = 0, BYTE_SIZE = 1, SIGNED = 3, LSHIFT_U64 = 4, RSHIFT_U64 = 5
};

DIType *stripDI(DIType *T);
bool isRecord(const DIType *T);
// "struct.task_struct" -> "task_struct"; "struct.anon.3" -> "" (anonymous)
StringRef irRecordName(Type *T, bool &IsUnion);
bool isZero(Value *V);
bool isProbeSection(StringRef S);
bool rootWithoutGEP(DIType *T);
bool bitfieldFirst(DICompositeType *C);

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
  // The debug info is indexed as a walk reaches it, breadth first from the
  // compile units and each function's subprogram, variables and inlined
  // scopes (what llvm::DebugInfoFinder starts from): a lookup advances the
  // walk only until its name is indexed, so a program that includes all of
  // vmlinux.h does not pay for every type clang described (the types a
  // program touches are few pointer steps from its variables).
  std::vector<MDNode *> Walk;	// nodes to visit, from WalkNext on
  size_t WalkNext = 0;
  DenseSet<const MDNode *> Seen;
  void walkStart();
  void walkEnter(MDNode *N);
  bool walkStep();
  void indexUntil(StringRef Name);
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
  Node *castNode(Instruction *BC, Type *FromEl, Type *ToEl);
  Node *analyzeOpaqueAccess(Instruction *User, unsigned OpIdx, Type *AccessTy,
                            bool LoadStore);
  void dropPlaceholders();
  DICompositeType *pointeeRecord(Value *V, Type *&IRTy);
  std::vector<WeakTrackingVH> Placeholders;
  bool Opaque = false;
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
  void rewriteUses(Node *N, Value *V, Function &F, bool P,
                   SmallVectorImpl<Instruction *> &Dead);
  int memberPathAt(DICompositeType *C, StructType *ST, uint64_t Bits,
                   SmallVectorImpl<Step> &Path);
  bool memberPathOf(DICompositeType *C, StructType *ST, GEPOperator *GO,
                    SmallVectorImpl<Step> &Path);
  bool rewriteContainerOf(Function &F);
  Value *probeRead(IRBuilder<> &B, Function &F, Type *Ty, Value *Src,
                   Value *Size = nullptr, Value *Dst = nullptr);
  bool runOnFunction(Function &F);
};

// "task_struct.sched.stats[2]": steps appended to S, as remarks show them
// (anonymous members leave no name).
void appendSteps(std::string &S, ArrayRef<Step> Steps);

} // namespace relocore

#endif
