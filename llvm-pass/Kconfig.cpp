// __bpf_* globals -> libbpf .kconfig externs (see README "Kernel version
// and configuration globals").
//
//   __bpf_kernel_version          -> LINUX_KERNEL_VERSION        (extern)
//   __bpf_has_syscall_wrapper     -> LINUX_HAS_SYSCALL_WRAPPER   (extern weak)
//   __bpf_has_bpf_cookie          -> LINUX_HAS_BPF_COOKIE        (extern weak)
//   __bpf_config_foo / __bpf_CONFIG_FOO -> CONFIG_FOO            (extern weak)
//
// Each becomes a read-only external declaration in section ".kconfig", so
// clang's BTF has a VAR (linkage extern) in DATASEC ".kconfig" and the ELF an
// undefined symbol: exactly what libbpf emits for `extern T NAME __kconfig`.
// The loader fills the values for the TARGET kernel into a frozen read-only
// map, so the verifier sees constants and prunes the dead branches.
#include "Compat.h"
#include "Relocore.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace relocore {

static std::string kconfigName(StringRef N, bool &Weak) {
  Weak = true;
  if (N == "__bpf_kernel_version") {
    Weak = false;
    return "LINUX_KERNEL_VERSION";
  }
  if (N == "__bpf_has_syscall_wrapper")
    return "LINUX_HAS_SYSCALL_WRAPPER";
  if (N == "__bpf_has_bpf_cookie")
    return "LINUX_HAS_BPF_COOKIE";
  StringRef Rest;
  if (compat::startsWith(N, "__bpf_config_"))
    Rest = N.drop_front(strlen("__bpf_config_"));
  else if (compat::startsWith(N, "__bpf_CONFIG_"))
    Rest = N.drop_front(strlen("__bpf_CONFIG_"));
  if (!Rest.empty())
    return "CONFIG_" + Rest.upper();
  return "";
}

namespace {
struct RelocoreDiag : DiagnosticInfo {
  std::string Msg;
  RelocoreDiag(const Twine &M, DiagnosticSeverity S)
      : DiagnosticInfo(kind(), S), Msg(M.str()) {}
  static int kind() {
    static int K = getNextAvailablePluginDiagnosticKind();
    return K;
  }
  void print(DiagnosticPrinter &DP) const override { DP << Msg; }
};
} // namespace

void diagnose(Module &M, const Twine &Msg, bool Error) {
  M.getContext().diagnose(RelocoreDiag(Msg, Error ? DS_Error : DS_Warning));
}

bool rewriteKconfigGlobals(Module &M) {
  bool Changed = false;
  SmallVector<GlobalVariable *, 4> Work;
  for (GlobalVariable &G : M.globals())
    if (compat::startsWith(G.getName(), "__bpf_") && !compat::startsWith(G.getName(), "___"))
      Work.push_back(&G);
  for (GlobalVariable *G : Work) {
    bool Weak;
    std::string To = kconfigName(G->getName(), Weak);
    if (To.empty()) {
      diagnose(M,
          "relocore: unknown __bpf_ global '" + G->getName() +
              "' left as is (known: __bpf_kernel_version, "
              "__bpf_has_syscall_wrapper, __bpf_has_bpf_cookie, "
              "__bpf_config_<NAME>)", false);
      continue;
    }
    if (!G->getValueType()->isIntegerTy() && !G->getValueType()->isArrayTy()) {
      diagnose(M,
          "relocore: '" + G->getName() +
              "' must be an integer, bool, char or char array", true);
      continue;
    }
    if (GlobalVariable *Existing = M.getNamedGlobal(To)) {
      if (Existing->getValueType() != G->getValueType()) {
        diagnose(M,
            "relocore: '" + G->getName() + "' and '" + To +
                "' have different types", true);
        continue;
      }
      G->replaceAllUsesWith(Existing);
      G->eraseFromParent();
      Changed = true;
      continue;
    }
    G->setInitializer(nullptr);
    G->setName(To);
    G->setLinkage(Weak ? GlobalValue::ExternalWeakLinkage
                       : GlobalValue::ExternalLinkage);
    G->setSection(".kconfig");
    G->setConstant(true);
    G->setDSOLocal(false);
    G->setAlignment(MaybeAlign());
    Changed = true;
  }
  return Changed;
}

} // namespace relocore
