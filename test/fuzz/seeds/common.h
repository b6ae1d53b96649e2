/* Seed programs of the relocore fuzzer: headers for clang -target bpf. */
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#define PAI __attribute__((preserve_access_index))
