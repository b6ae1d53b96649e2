/* SPDX-License-Identifier: MIT */
/*
 * btfgen.h - minimized BTF for kernels built without BTF, and archives of
 * many kernels' BTF with shared types stored once.
 */
#ifndef RELOCORE_BTFGEN_H
#define RELOCORE_BTFGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "relocore.h"

struct btf;

/*
 * A subset of a BTF: which types to keep and, for structs and unions,
 * which members.  Types keep their sizes and members their offsets.
 */
struct bg_subset {
	const struct rc_btf *src;
	uint32_t n;		/* type count of src */
	uint8_t *keep;		/* per type id: 0, BG_SHELL or BG_WHOLE */
	uint8_t **members;	/* per composite type id: member mask, or NULL */
	uint8_t *weak_ptr;	/* per pointer type id: only the pointer matters */
	uint32_t *mask_ids;	/* the ids that have a member mask */
	uint32_t nr_masks, cap_masks;
};

#define BG_SHELL 1	/* the type, but no members unless marked */
#define BG_WHOLE 2	/* the type and all its members */

/* Suffix an archive gives forward declarations, removed when emitting. */
#define BG_FWD_TAG "___relocore_fwd_"

int bg_subset_init(struct bg_subset *s, const struct rc_btf *src);
void bg_subset_free(struct bg_subset *s);

/* Keep what relocation @relo (of local BTF @local) needs of every target
 * candidate it matches in @target: the path of each matched field, the
 * root type of type relocations (all of it for TYPE_MATCHES), the enum of
 * enum value relocations. */
int bg_subset_add_relo(struct bg_subset *s, const struct rc_btf *local,
		       const struct rc_relo *relo, const struct rc_target *target);

/*
 * Emit the kept types as a new BTF, renumbered in @order (type ids of src,
 * @nr of them; NULL: ascending ids).  Every type a kept type refers to must
 * be kept too.  Returns NULL with errno set.
 */
struct btf *bg_subset_emit(const struct bg_subset *s, const uint32_t *order,
			   uint32_t nr);

/* Minimize the target's vmlinux BTF for @objs: what their relocations
 * need, nothing else. */
struct btf *bg_minimize(const struct rc_target *full, const char *const *objs,
			int nr_objs, struct rc_error *err);

/* Archives: "RCBTFAR1", u32 version (1), u32 flags (0), u64 raw size,
 * then an xz stream of one deduplicated raw BTF (archive.c). */
struct bg_archive;

struct bg_archive *bg_archive_open(const char *path, struct rc_error *err);
void bg_archive_free(struct bg_archive *a);
/* Releases the archive holds, as "r1 r2 ..." (owned by the archive). */
const char *bg_archive_releases(const struct bg_archive *a);
/* The BTF of @release (NULL with a message naming what the archive holds). */
struct btf *bg_archive_get(struct bg_archive *a, const char *release,
			   struct rc_error *err);
/* Write an archive of @nr kernels (@releases[i] -> @btfs[i]). */
int bg_archive_write(const char *path, const char *const *releases,
		     struct btf *const *btfs, int nr, struct rc_error *err);
/* The same a kernel at a time: each BTF copied in when added (the caller
 * may free it then), the whole deduplicated as it grows and written by
 * finish (to a temporary file renamed to @path: never half-written). */
struct bg_archive_writer;
struct bg_archive_writer *bg_archive_writer_new(void);
int bg_archive_writer_add(struct bg_archive_writer *w, const char *release,
			  const struct btf *btf, struct rc_error *err);
int bg_archive_writer_finish(struct bg_archive_writer *w, const char *path,
			     struct rc_error *err);
void bg_archive_writer_free(struct bg_archive_writer *w);

/* BTFHub's per-kernel files (FILE.btf.tar.xz: a tar holding one raw BTF
 * file, xz-compressed; a plain tar too).  bg_btfhub_is: 1 when @path
 * starts like one (xz or ustar magic), by content, not by name.
 * bg_btfhub_read: its BTF, validated; NULL with a message naming the file
 * and the offset that is wrong. */
int bg_btfhub_is(const char *path);
struct btf *bg_btfhub_read(const char *path, struct rc_error *err);

/* Write @btf as raw BTF to @path (atomically). */
int bg_write_btf(const struct btf *btf, const char *path, struct rc_error *err);

#endif
