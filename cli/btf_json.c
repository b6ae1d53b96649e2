// SPDX-License-Identifier: MIT
/*
 * btf_json.c - print a value as JSON, the way its BTF type describes it:
 * structs become objects (bitfields included), char arrays strings, other
 * arrays lists, enums their enumerator's name, integers numbers.
 */
#include <bpf/btf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void json_chars(FILE *f, const unsigned char *p, size_t n)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < n && p[i]; i++) {
		if (p[i] == '"' || p[i] == '\\')
			fprintf(f, "\\%c", p[i]);
		else if (p[i] < 0x20 || p[i] >= 0x7f)
			fprintf(f, "\\u%04x", p[i]);
		else
			fputc(p[i], f);
	}
	fputc('"', f);
}

void cli_json_str(FILE *f, const char *s)
{
	json_chars(f, (const unsigned char *)(s ? s : ""), s ? strlen(s) : 0);
}

void cli_json_strn(FILE *f, const char *s, size_t n)
{
	json_chars(f, (const unsigned char *)s, n);
}

/* Read @bits bits at bit offset @bit_off of @data (little-endian). */
static uint64_t read_bits(const unsigned char *data, size_t size, uint32_t bit_off,
			  uint32_t bits, bool sign)
{
	uint64_t v = 0;
	uint32_t i;

	for (i = 0; i < bits && i < 64; i++) {
		uint32_t b = bit_off + i;

		if (b / 8 >= size)
			break;
		if (data[b / 8] >> (b % 8) & 1)
			v |= 1ull << i;
	}
	if (sign && bits && bits < 64 && (v >> (bits - 1) & 1))
		v |= ~0ull << bits;
	return v;
}

static void print_int(FILE *f, const struct btf_type *t, const unsigned char *data,
		      size_t size, uint32_t bit_off, uint32_t bits)
{
	uint8_t enc = btf_int_encoding(t);
	bool sign = enc & BTF_INT_SIGNED;
	uint64_t v;

	if (!bits)
		bits = btf_int_bits(t);
	v = read_bits(data, size, bit_off + btf_int_offset(t), bits, sign);
	if (enc & BTF_INT_BOOL)
		fputs(v ? "true" : "false", f);
	else if (sign)
		fprintf(f, "%lld", (long long)v);
	else
		fprintf(f, "%llu", (unsigned long long)v);
}

static void print_enum(FILE *f, const struct btf *btf, const struct btf_type *t,
		       const unsigned char *data, size_t size, uint32_t bit_off,
		       uint32_t bits)
{
	int i, n = btf_vlen(t);
	uint32_t w = bits ? bits : t->size * 8;
	uint64_t mask = w >= 64 ? ~0ull : (1ull << w) - 1;
	uint64_t v = read_bits(data, size, bit_off, w, false) & mask;

	for (i = 0; i < n; i++) {
		uint64_t ev = btf_is_enum(t) ? (uint64_t)(int64_t)btf_enum(t)[i].val :
			      btf_enum64_value(btf_enum64(t) + i);
		uint32_t name = btf_is_enum(t) ? btf_enum(t)[i].name_off :
				btf_enum64(t)[i].name_off;

		if ((ev & mask) == v) {	/* compare in the field's width */
			cli_json_str(f, btf__name_by_offset(btf, name));
			return;
		}
	}
	v = read_bits(data, size, bit_off, w, btf_kflag(t));
	fprintf(f, "%lld", (long long)v);
}

static void print_value(FILE *f, const struct btf *btf, uint32_t id,
			const unsigned char *data, size_t size, uint32_t bit_off,
			uint32_t bits, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int i, n;

	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || depth > 16) {
		fputs("null", f);
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		print_int(f, t, data, size, bit_off, bits);
		return;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		print_enum(f, btf, t, data, size, bit_off, bits);
		return;
	case BTF_KIND_PTR:
		fprintf(f, "%llu", (unsigned long long)read_bits(data, size, bit_off, 64, false));
		return;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);
		const struct btf_type *et = btf__type_by_id(btf, a->type);
		int64_t esz = btf__resolve_size(btf, a->type);

		while (et && (btf_is_mod(et) || btf_is_typedef(et)))
			et = btf__type_by_id(btf, et->type);
		if (esz <= 0) {
			fputs("null", f);
			return;
		}
		if (et && btf_is_int(et) && et->size == 1 && bit_off % 8 == 0 &&
		    bit_off / 8 <= size) {
			size_t avail = size - bit_off / 8;

			json_chars(f, data + bit_off / 8, a->nelems < avail ? a->nelems : avail);
			return;
		}
		fputc('[', f);
		for (i = 0; i < (int)a->nelems && (size_t)(bit_off / 8 + (i + 1) * esz) <= size; i++) {
			if (i)
				fputc(',', f);
			print_value(f, btf, a->type, data, size, bit_off + i * esz * 8, 0,
				    depth + 1);
		}
		fputc(']', f);
		return;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		const struct btf_member *m = btf_members(t);
		bool first = true;

		n = btf_vlen(t);
		fputc('{', f);
		for (i = 0; i < n; i++, m++) {
			const char *name = btf__name_by_offset(btf, m->name_off);

			if (!name || !name[0])
				name = "__anon";
			fprintf(f, "%s", first ? "" : ",");
			first = false;
			cli_json_str(f, name);
			fputc(':', f);
			print_value(f, btf, m->type, data, size,
				    bit_off + btf_member_bit_offset(t, i),
				    btf_member_bitfield_size(t, i), depth + 1);
		}
		fputc('}', f);
		return;
	}
	case BTF_KIND_FLOAT:
		if (t->size == 8 && bit_off % 8 == 0 && bit_off / 8 + 8 <= size) {
			double d;

			memcpy(&d, data + bit_off / 8, 8);
			fprintf(f, "%.17g", d);
			return;
		}
		/* fallthrough */
	default:
		fputs("null", f);
	}
}

void cli_json_value(FILE *f, const struct btf *btf, uint32_t id,
		    const void *data, size_t size)
{
	print_value(f, btf, id, data, size, 0, 0, 0);
}
