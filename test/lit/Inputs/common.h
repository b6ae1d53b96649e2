/* Shared by the lit tests: BPF program headers. */
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#define PAI __attribute__((preserve_access_index))
