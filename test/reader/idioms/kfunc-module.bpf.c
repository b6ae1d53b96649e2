/* kfuncs that live in a module (nf_conntrack's, when it is built as one):
 * at open an extern FUNC like any kfunc; libbpf looks for it in the
 * modules' BTF when it loads. */
#include "idiom.h"

struct nf_conn;
struct bpf_ct_opts { __s32 netns_id; __s32 error; __u8 l4proto; __u8 dir; __u8 reserved[2]; };
struct bpf_sock_tuple;
extern struct nf_conn *bpf_xdp_ct_lookup(struct xdp_md *ctx, struct bpf_sock_tuple *t, __u32 len,
					  struct bpf_ct_opts *opts, __u32 opts_len) __ksym;
extern void bpf_ct_release(struct nf_conn *ct) __ksym;

SEC("xdp")
int kfunc_module(struct xdp_md *ctx)
{
	struct bpf_ct_opts opts = { .netns_id = -1, .l4proto = 6 };
	char tuple[12] = {};
	struct nf_conn *ct = bpf_xdp_ct_lookup(ctx, (void *)tuple, sizeof(tuple), &opts, sizeof(opts));

	if (ct)
		bpf_ct_release(ct);
	return XDP_PASS;
}
