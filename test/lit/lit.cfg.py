# lit configuration for relocore: each test is a C file (or shell-ish
# test) with RUN: lines and FileCheck patterns beside the code they check.
import os
import lit.formats

config.name = "relocore"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".c", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
root = os.path.abspath(os.path.join(config.test_source_root, "..", ".."))
config.test_exec_root = os.path.join(root, "build", "lit")
llvm_bin = "/usr/lib/llvm-14/bin"
config.environment["PATH"] = llvm_bin + os.pathsep + config.environment.get("PATH", os.environ["PATH"])
inputs = os.path.join(config.test_source_root, "Inputs")
config.substitutions.append(("%relocore", os.path.join(root, "build", "bin", "relocore")))
config.substitutions.append(("%clang_bpf",
    "clang -target bpf -O2 -g -I/usr/include/x86_64-linux-gnu -I" + inputs))
config.substitutions.append(("%inputs", inputs))
# --- llvm-pass (relocore-pass.so): %plugin, %opt, %clang_plugin ---
config.suffixes.append(".ll")
plugin = os.path.join(root, "build", "lib", "relocore-pass.so")
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%opt", "opt -load " + plugin + " -load-pass-plugin " + plugin))
config.substitutions.append(("%clang_plugin",
    "clang -target bpf -g -I/usr/include/x86_64-linux-gnu -I" + inputs +
    " -fplugin=" + plugin + " -fpass-plugin=" + plugin))
