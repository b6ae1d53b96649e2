# lit configuration for relocore: each test is a C file (or shell-ish
# test) with RUN: lines and FileCheck patterns beside the code they check,
# in one folder per component (reloc/, check/, kconfig/, pass/, btfgen/,
# embed/, cli/); Inputs/ (%inputs, on the include path) and tools/ are not
# tests.
import os
import lit.formats

# --param llvm=N: clang, opt and FileCheck of LLVM N, and the plugin built
# against it (build/lib/llvm-N/relocore-pass.so); default 14, the default
# plugin build/lib/relocore-pass.so.  test/lit/run.sh runs the plugin tests
# (pass/) once per installed version and names them lit/llvm-N/pass/...
llvm_version = lit_config.params.get("llvm", "14")
config.name = "relocore" if llvm_version == "14" else "relocore-llvm" + llvm_version
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".c", ".test"]
config.excludes = ["Inputs", "tools"]
config.test_source_root = os.path.dirname(__file__)
root = os.path.abspath(os.path.join(config.test_source_root, "..", ".."))
config.test_exec_root = os.path.join(root, "build", "lit",
    "" if llvm_version == "14" else "llvm-" + llvm_version)
llvm_bin = "/usr/lib/llvm-" + llvm_version + "/bin"
if not os.path.exists(os.path.join(llvm_bin, "clang")):
    lit_config.fatal("no " + llvm_bin + "/clang (clang-" + llvm_version + ")")
config.available_features.add("llvm-" + llvm_version)
if llvm_version == "14":
    config.available_features.add("typed-pointers")
# %pointers: typed (14) or opaque (16, 19: clang's default); %if_opaque_not:
# "not" where a RUN line must fail with opaque pointers only
pointers = "typed" if llvm_version == "14" else "opaque"
config.substitutions.append(("%pointers", pointers))
# %typed16: LLVM 16's typed pointers (-Xclang -no-opaque-pointers); empty on
# 14 (typed anyway) and 19 (opaque only)
config.substitutions.append(("%typed16", "-Xclang -no-opaque-pointers" if llvm_version == "16" else ""))
config.substitutions.append(("%if_opaque_not", "not" if pointers == "opaque" else ""))
config.environment["PATH"] = llvm_bin + os.pathsep + config.environment.get("PATH", os.environ["PATH"])
inputs = os.path.join(config.test_source_root, "Inputs")
config.substitutions.append(("%relocore", os.path.join(root, "build", "bin", "relocore")))
config.substitutions.append(("%clang_bpf",
    "clang -target bpf -O2 -g -I/usr/include/x86_64-linux-gnu -I" + inputs))
config.substitutions.append(("%inputs", inputs))
# %tools: the small scripts RUN lines call (test/lit/tools/)
config.substitutions.append(("%tools", os.path.join(config.test_source_root, "tools")))
# --- llvm-pass (relocore-pass.so): %plugin, %opt, %clang_plugin ---
config.suffixes.append(".ll")
plugin = os.path.join(root, "build", "lib", "relocore-pass.so") if llvm_version == "14" \
    else os.path.join(root, "build", "lib", "llvm-" + llvm_version, "relocore-pass.so")
if not os.path.exists(plugin):
    lit_config.fatal("no " + plugin + " (build it: make; llvm-" + llvm_version + "-dev)")
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%opt", "opt -load " + plugin + " -load-pass-plugin " + plugin))
config.substitutions.append(("%clang_plugin",
    "clang -target bpf -g -I/usr/include/x86_64-linux-gnu -I" + inputs +
    " -fplugin=" + plugin + " -fpass-plugin=" + plugin))
