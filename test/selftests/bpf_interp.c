/* SPDX-License-Identifier: MIT */
/*
 * bpf_interp - a small eBPF interpreter (see bpf_interp.h).
 *
 * Covers the instruction set clang emits for -mcpu=v1..v3: ALU/ALU64,
 * JMP/JMP32, LDX/STX/ST, BPF_ATOMIC, LD_IMM64 (already resolved to plain
 * addresses by the loader), helper calls and static subprogram calls.
 */
#include "bpf_interp.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define STACK_SIZE 512
#define MAX_FRAMES 8
#define STACK_BASE 0x7ff000000000ULL	/* frame i at STACK_BASE + i * 0x10000 */

/* helper ids (enum bpf_func_id) */
enum {
	H_probe_read = 4,
	H_get_current_pid_tgid = 14,
	H_get_current_comm = 16,
	H_get_current_task = 35,
	H_probe_read_str = 45,
	H_probe_read_user = 112,
	H_probe_read_kernel = 113,
	H_probe_read_user_str = 114,
	H_probe_read_kernel_str = 115,
};

const char *bi_status_str(enum bi_status st)
{
	switch (st) {
	case BI_OK: return "ok";
	case BI_POISON: return "poisoned instruction";
	case BI_FAULT: return "memory fault";
	case BI_BADINSN: return "bad instruction";
	case BI_HELPER: return "unknown helper";
	case BI_LIMIT: return "limit exceeded";
	}
	return "?";
}

void bi_init(struct bi_vm *vm)
{
	memset(vm, 0, sizeof(*vm));
}

int bi_add_region(struct bi_vm *vm, const char *name, uint64_t base,
		  void *mem, uint64_t size, bool writable)
{
	struct bi_region *r;

	if (vm->nregions >= BI_MAX_REGIONS)
		return -1;
	r = &vm->regions[vm->nregions];
	r->base = base;
	r->size = size;
	r->mem = mem;
	r->writable = writable;
	snprintf(r->name, sizeof(r->name), "%s", name);
	return vm->nregions++;
}

void *bi_translate(struct bi_vm *vm, uint64_t addr, uint64_t size, bool write)
{
	for (int i = 0; i < vm->nregions; i++) {
		struct bi_region *r = &vm->regions[i];

		if (addr < r->base || addr - r->base > r->size ||
		    size > r->size - (addr - r->base))
			continue;
		if (write && !r->writable)
			return NULL;
		return r->mem + (addr - r->base);
	}
	return NULL;
}

static enum bi_status stop(struct bi_vm *vm, enum bi_status st, long pc,
			   const char *fmt, ...)
{
	va_list ap;

	vm->fault_pc = pc;
	va_start(ap, fmt);
	vsnprintf(vm->msg, sizeof(vm->msg), fmt, ap);
	va_end(ap);
	return st;
}

static uint64_t load_n(const void *p, int sz)
{
	switch (sz) {
	case 1: return *(const uint8_t *)p;
	case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
	default: { uint64_t v; memcpy(&v, p, 8); return v; }
	}
}

static void store_n(void *p, int sz, uint64_t v)
{
	switch (sz) {
	case 1: *(uint8_t *)p = (uint8_t)v; break;
	case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
}

static int size_bytes(uint8_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	default: return 8;
	}
}

/* bpf_probe_read*(): a fault reads as -EFAULT with dst zeroed. */
static enum bi_status helper_probe_read(struct bi_vm *vm, long pc, uint64_t *r,
					bool str)
{
	uint64_t dst = r[1], size = r[2] & 0xffffffffULL, src = r[3];
	uint8_t *d, *s;

	if (size == 0) {
		r[0] = 0;
		return BI_OK;
	}
	d = bi_translate(vm, dst, size, true);
	if (!d)
		return stop(vm, BI_FAULT, pc,
			    "probe_read dst 0x%llx+%llu is not writable memory",
			    (unsigned long long)dst, (unsigned long long)size);
	if (!str) {
		s = bi_translate(vm, src, size, false);
		if (!s) {
			memset(d, 0, size);
			r[0] = (uint64_t)-EFAULT;
		} else {
			memmove(d, s, size);
			r[0] = 0;
		}
		return BI_OK;
	}
	/* string: copy up to size-1 bytes and a NUL; return count incl. NUL */
	for (uint64_t i = 0; i < size; i++) {
		uint8_t *c = bi_translate(vm, src + i, 1, false);

		if (!c) {
			memset(d, 0, size);
			r[0] = (uint64_t)-EFAULT;
			return BI_OK;
		}
		if (i == size - 1 || *c == 0) {
			d[i] = 0;
			r[0] = i + 1;
			return BI_OK;
		}
		d[i] = *c;
	}
	return BI_OK;
}

static enum bi_status call_helper(struct bi_vm *vm, long pc, int32_t id,
				  uint64_t *r)
{
	switch (id) {
	case H_probe_read:
	case H_probe_read_user:
	case H_probe_read_kernel:
		return helper_probe_read(vm, pc, r, false);
	case H_probe_read_str:
	case H_probe_read_user_str:
	case H_probe_read_kernel_str:
		return helper_probe_read(vm, pc, r, true);
	case H_get_current_pid_tgid:
		r[0] = vm->pid_tgid;
		return BI_OK;
	case H_get_current_task:
		r[0] = vm->current_task;
		return BI_OK;
	case H_get_current_comm: {
		uint64_t size = r[2] & 0xffffffffULL;
		uint8_t *d = bi_translate(vm, r[1], size, true);

		if (!d)
			return stop(vm, BI_FAULT, pc, "get_current_comm: bad buffer");
		if (size) {
			size_t n = strnlen(vm->comm, sizeof(vm->comm));

			if (n > size - 1)
				n = size - 1;
			memset(d, 0, size);
			memcpy(d, vm->comm, n);
		}
		r[0] = 0;
		return BI_OK;
	}
	default:
		return stop(vm, BI_HELPER, pc, "call to unsupported helper %d", id);
	}
}

struct frame {
	long ret_pc;
	uint64_t saved[4];	/* r6..r9 of the caller */
};

enum bi_status bi_run(struct bi_vm *vm, const struct bpf_insn *insns,
		      size_t insn_cnt, size_t start, uint64_t ctx)
{
	static uint8_t stacks[MAX_FRAMES][STACK_SIZE];
	struct frame frames[MAX_FRAMES];
	int depth = 0;
	int saved_nregions = vm->nregions;
	uint64_t r[11] = {0};
	uint64_t budget = vm->insn_budget ? vm->insn_budget : 1000000;
	long pc = (long)start;
	enum bi_status st = BI_OK;

	memset(stacks, 0, sizeof(stacks));
	for (int i = 0; i < MAX_FRAMES; i++) {
		char name[16];

		snprintf(name, sizeof(name), "stack%d", i);
		if (bi_add_region(vm, name, STACK_BASE + (uint64_t)i * 0x10000,
				  stacks[i], STACK_SIZE, true) < 0) {
			st = stop(vm, BI_LIMIT, pc, "too many regions");
			goto out;
		}
	}
	r[1] = ctx;
	r[10] = STACK_BASE + STACK_SIZE;
	vm->executed = 0;

	for (;;) {
		const struct bpf_insn *in;
		uint8_t code, cls;
		uint64_t src, *dst;
		int64_t off;

		if (pc < 0 || (size_t)pc >= insn_cnt) {
			st = stop(vm, BI_BADINSN, pc, "pc %ld out of program", pc);
			goto out;
		}
		if (vm->executed++ >= budget) {
			st = stop(vm, BI_LIMIT, pc, "instruction budget exhausted");
			goto out;
		}
		in = &insns[pc];
		code = in->code;
		cls = BPF_CLASS(code);
		if (in->dst_reg > 10 || in->src_reg > 10) {
			st = stop(vm, BI_BADINSN, pc, "bad register in insn 0x%02x", code);
			goto out;
		}
		dst = &r[in->dst_reg];
		off = in->off;

		switch (cls) {
		case BPF_ALU:
		case BPF_ALU64: {
			bool is64 = cls == BPF_ALU64;
			uint8_t op = BPF_OP(code);

			if (in->dst_reg == 10) {
				st = stop(vm, BI_BADINSN, pc, "write to r10");
				goto out;
			}
			src = BPF_SRC(code) == BPF_X ? r[in->src_reg]
						     : (uint64_t)(int64_t)in->imm;
			if (op == BPF_END) {
				uint64_t v = *dst;
				int bits = in->imm;

				if (BPF_SRC(code) == BPF_TO_BE) {
					if (bits == 16) v = __builtin_bswap16((uint16_t)v);
					else if (bits == 32) v = __builtin_bswap32((uint32_t)v);
					else if (bits == 64) v = __builtin_bswap64(v);
					else goto bad;
				} else {
					if (bits == 16) v = (uint16_t)v;
					else if (bits == 32) v = (uint32_t)v;
					else if (bits != 64) goto bad;
				}
				*dst = v;
				break;
			}
			if (is64) {
				uint64_t a = *dst;

				switch (op) {
				case BPF_ADD: a += src; break;
				case BPF_SUB: a -= src; break;
				case BPF_MUL: a *= src; break;
				case BPF_DIV: a = src ? a / src : 0; break;
				case BPF_MOD: a = src ? a % src : a; break;
				case BPF_OR: a |= src; break;
				case BPF_AND: a &= src; break;
				case BPF_XOR: a ^= src; break;
				case BPF_LSH: a <<= (src & 63); break;
				case BPF_RSH: a >>= (src & 63); break;
				case BPF_ARSH: a = (uint64_t)((int64_t)a >> (src & 63)); break;
				case BPF_NEG: a = -a; break;
				case BPF_MOV: a = src; break;
				default: goto bad;
				}
				*dst = a;
			} else {
				uint32_t a = (uint32_t)*dst, s = (uint32_t)src;

				switch (op) {
				case BPF_ADD: a += s; break;
				case BPF_SUB: a -= s; break;
				case BPF_MUL: a *= s; break;
				case BPF_DIV: a = s ? a / s : 0; break;
				case BPF_MOD: a = s ? a % s : a; break;
				case BPF_OR: a |= s; break;
				case BPF_AND: a &= s; break;
				case BPF_XOR: a ^= s; break;
				case BPF_LSH: a <<= (s & 31); break;
				case BPF_RSH: a >>= (s & 31); break;
				case BPF_ARSH: a = (uint32_t)((int32_t)a >> (s & 31)); break;
				case BPF_NEG: a = -a; break;
				case BPF_MOV: a = s; break;
				default: goto bad;
				}
				*dst = a;
			}
			break;
		}
		case BPF_JMP:
		case BPF_JMP32: {
			uint8_t op = BPF_OP(code);
			bool is32 = cls == BPF_JMP32, take;
			uint64_t a, b;

			if (op == BPF_CALL && cls == BPF_JMP) {
				if (in->src_reg == BPF_PSEUDO_CALL) {
					if (depth + 1 >= MAX_FRAMES) {
						st = stop(vm, BI_LIMIT, pc, "call depth");
						goto out;
					}
					frames[depth].ret_pc = pc + 1;
					memcpy(frames[depth].saved, &r[6], sizeof(frames[depth].saved));
					depth++;
					r[10] = STACK_BASE + (uint64_t)depth * 0x10000 + STACK_SIZE;
					pc = pc + in->imm + 1;
					continue;
				}
				if (in->src_reg != 0) {
					st = stop(vm, BI_BADINSN, pc, "call with src_reg %d", in->src_reg);
					goto out;
				}
				if ((uint32_t)in->imm == BI_POISON_IMM) {
					st = stop(vm, BI_POISON, pc,
						  "poisoned instruction (call 0x%x) at insn %ld",
						  BI_POISON_IMM, pc);
					goto out;
				}
				st = call_helper(vm, pc, in->imm, r);
				if (st != BI_OK)
					goto out;
				/* caller-saved registers are clobbered */
				for (int i = 1; i <= 5; i++)
					r[i] = 0xdeadbeefdead0000ULL | i;
				break;
			}
			if (op == BPF_EXIT && cls == BPF_JMP) {
				if (depth == 0) {
					vm->r0 = r[0];
					st = BI_OK;
					goto out;
				}
				depth--;
				memcpy(&r[6], frames[depth].saved, sizeof(frames[depth].saved));
				r[10] = STACK_BASE + (uint64_t)depth * 0x10000 + STACK_SIZE;
				pc = frames[depth].ret_pc;
				continue;
			}
			if (op == BPF_JA) {
				if (cls != BPF_JMP)
					goto bad;
				pc += off + 1;
				continue;
			}
			a = *dst;
			b = BPF_SRC(code) == BPF_X ? r[in->src_reg]
						   : (uint64_t)(int64_t)in->imm;
			if (is32) {
				a = (uint32_t)a;
				b = (uint32_t)b;
			}
#define SGN(x) (is32 ? (int64_t)(int32_t)(x) : (int64_t)(x))
			switch (op) {
			case BPF_JEQ: take = a == b; break;
			case BPF_JNE: take = a != b; break;
			case BPF_JGT: take = a > b; break;
			case BPF_JGE: take = a >= b; break;
			case BPF_JLT: take = a < b; break;
			case BPF_JLE: take = a <= b; break;
			case BPF_JSET: take = (a & b) != 0; break;
			case BPF_JSGT: take = SGN(a) > SGN(b); break;
			case BPF_JSGE: take = SGN(a) >= SGN(b); break;
			case BPF_JSLT: take = SGN(a) < SGN(b); break;
			case BPF_JSLE: take = SGN(a) <= SGN(b); break;
			default: goto bad;
			}
#undef SGN
			pc += take ? off + 1 : 1;
			continue;
		}
		case BPF_LD: {
			uint64_t v;

			if (code != (BPF_LD | BPF_IMM | BPF_DW) || (size_t)pc + 1 >= insn_cnt)
				goto bad;
			if (in->src_reg != 0) {
				st = stop(vm, BI_BADINSN, pc,
					  "unresolved ld_imm64 (src_reg %d)", in->src_reg);
				goto out;
			}
			v = (uint64_t)(uint32_t)in->imm |
			    ((uint64_t)(uint32_t)insns[pc + 1].imm << 32);
			*dst = v;
			pc += 2;
			continue;
		}
		case BPF_LDX: {
			int sz = size_bytes(code);
			uint64_t addr = r[in->src_reg] + off;
			void *p;

			if (BPF_MODE(code) != BPF_MEM)
				goto bad;
			p = bi_translate(vm, addr, sz, false);
			if (!p) {
				st = stop(vm, BI_FAULT, pc, "load of %d bytes at 0x%llx (r%d%+lld) outside memory",
					  sz, (unsigned long long)addr, in->src_reg, (long long)off);
				goto out;
			}
			*dst = load_n(p, sz);
			break;
		}
		case BPF_ST:
		case BPF_STX: {
			int sz = size_bytes(code);
			uint64_t addr = *dst + off;
			void *p = bi_translate(vm, addr, sz, true);

			if (!p) {
				st = stop(vm, BI_FAULT, pc, "store of %d bytes at 0x%llx (r%d%+lld) outside writable memory",
					  sz, (unsigned long long)addr, in->dst_reg, (long long)off);
				goto out;
			}
			if (BPF_MODE(code) == BPF_MEM) {
				src = cls == BPF_STX ? r[in->src_reg] : (uint64_t)(int64_t)in->imm;
				store_n(p, sz, src);
			} else if (BPF_MODE(code) == BPF_ATOMIC && cls == BPF_STX &&
				   (sz == 4 || sz == 8)) {
				uint64_t old = load_n(p, sz), v = r[in->src_reg], nv;
				int op = in->imm;

				switch (op & ~BPF_FETCH) {
				case BPF_ADD: nv = old + v; break;
				case BPF_AND: nv = old & v; break;
				case BPF_OR: nv = old | v; break;
				case BPF_XOR: nv = old ^ v; break;
				default:
					if (op == BPF_XCHG) {
						nv = v;
					} else if (op == BPF_CMPXCHG) {
						uint64_t cmp = sz == 4 ? (uint32_t)r[0] : r[0];

						nv = old == cmp ? v : old;
						r[0] = old;
						store_n(p, sz, nv);
						goto next;
					} else {
						goto bad;
					}
				}
				store_n(p, sz, nv);
				if (op & BPF_FETCH)
					r[in->src_reg] = old;
			} else {
				goto bad;
			}
			break;
		}
		default:
			goto bad;
		}
next:
		pc++;
		continue;
bad:
		st = stop(vm, BI_BADINSN, pc, "unsupported instruction code 0x%02x", code);
		goto out;
	}
out:
	vm->nregions = saved_nregions;
	return st;
}
