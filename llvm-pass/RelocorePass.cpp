// relocore-pass: CO-RE relocations for kernel types accessed in plain C.
//
// Runs at PipelineStartEP, where clang's IR still has struct-typed GEPs.  It
// rewrites every member access of a kernel record (see KernelTypes.cpp) into
// the llvm.preserve.{struct,union,array}.access.index intrinsics clang emits
// for preserve_access_index types, bitfield reads into the
// BPF_CORE_READ_BITFIELD sequence (llvm.bpf.preserve.field.info), and, in
// kprobe/tracepoint programs, loads through kernel pointers into
// bpf_probe_read_kernel calls.  The BPF target's own CO-RE passes have
// already run at this point, so they are run again (on a private BPF
// TargetMachine; how differs per LLVM version: Compat.cpp) to turn the
// intrinsics into the relocations the BTF emitter writes to .BTF.ext.
// See README for the options.
#include "Rewriter.h"


#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsBPF.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/IR/PassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
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

cl::opt<bool> Enable("relocore", cl::init(true),
                            cl::desc("relocore: enable the plugin"));
cl::opt<bool> NaturalDeref(
    "relocore-natural-deref", cl::init(true),
    cl::desc("relocore: in kprobe/tracepoint/uprobe/perf_event programs, turn "
             "loads through kernel pointers into bpf_probe_read_kernel"));
cl::opt<bool> RunBPFPasses(
    "relocore-run-bpf-passes", cl::init(true),
    cl::desc("relocore: lower the inserted intrinsics with the BPF target's "
             "CO-RE passes (off: leave llvm.preserve.* in the IR, for tests)"));
cl::opt<bool> Kconfig(
    "relocore-kconfig", cl::init(true),
    cl::desc("relocore: map __bpf_* globals to libbpf .kconfig externs"));
cl::list<std::string> DirectTypes(
    "relocore-direct-types", cl::CommaSeparated,
    cl::desc("relocore: records read directly even in probe programs (context "
             "types; default pt_regs, user_pt_regs, bpf_raw_tracepoint_args, "
             "bpf_perf_event_data, trace_event_raw_*)"));


const char *PassName = "relocore";

namespace {

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
  std::unique_ptr<TargetMachine> TM(
      Tgt->createTargetMachine(T.str(), "generic", "", TargetOptions(), {}));
  compat::runTargetCorePasses(M, *TM);
  return true;
}

} // namespace

namespace {

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
