/*
 * knob.h - the writeback knobs wbtop shows and edits, as one table: one row per knob
 * (file, kind, range, unit, partner, help) that every reader, validator, printer and
 * writer goes through.  Pure: parsing and formatting values, which member of a pair
 * is in force.  Reading the files is the source's job, writing them control's.
 */
#ifndef WBTOP_KNOB_H
#define WBTOP_KNOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum knob_vm {
	KNOB_DIRTY_RATIO,
	KNOB_DIRTY_BG_RATIO,
	KNOB_DIRTY_BYTES,
	KNOB_DIRTY_BG_BYTES,
	KNOB_DIRTY_EXPIRE_CS,
	KNOB_DIRTY_WRITEBACK_CS,
	KNOB_DIRTYTIME_EXPIRE_S,
	KNOB_VM_COUNT
};

enum knob_bdi {
	BDI_MIN_RATIO,
	BDI_MAX_RATIO,
	BDI_MIN_BYTES,
	BDI_MAX_BYTES,
	BDI_STRICT_LIMIT,
	BDI_MIN_RATIO_FINE,
	BDI_MAX_RATIO_FINE,
	BDI_READ_AHEAD_KB,
	KNOB_BDI_COUNT
};

enum knob_kind {
	KNOB_KIND_RATIO,	/* percent, 0..100 */
	KNOB_KIND_RATIO_FINE,	/* millionths, 0..1000000 */
	KNOB_KIND_BYTES,	/* bytes, K/M/G suffixes accepted */
	KNOB_KIND_KB,		/* KiB */
	KNOB_KIND_CENTISECS,
	KNOB_KIND_SECONDS,
	KNOB_KIND_BOOL
};

struct knob_def {
	const char *name;	/* "vm.dirty_ratio", or "max_ratio" for BDI knobs */
	const char *file;	/* file name under /proc/sys/vm or /sys/class/bdi/MAJ:MIN */
	enum knob_kind kind;
	int64_t min, max;
	int partner;		/* index of the ratio/bytes partner in the same table, or -1 */
	const char *unit;
	const char *help;
	const char *since;	/* the kernel that added its file ("6.2"), NULL: always there */
};

extern const struct knob_def knob_vm_table[KNOB_VM_COUNT];
extern const struct knob_def knob_bdi_table[KNOB_BDI_COUNT];

/* "absent on this kernel (6.2+)": what to say of a knob whose file the
 * kernel lacks; returns buf. */
const char *knob_absent_text(const struct knob_def *def, char *buf, size_t len);

/* Index of a vm knob by "vm.dirty_ratio" or "dirty_ratio"; -1 if unknown. */
int knob_vm_find(const char *name);
/* Index of a BDI knob by file name ("max_ratio"); -1 if unknown. */
int knob_bdi_find(const char *name);

/* Parse text as a value of kind: whole numbers; K/M/G/T (powers of 1024)
 * for byte and KiB kinds.  0 or -EINVAL (garbage), -ERANGE (overflow). */
int knob_parse_value(enum knob_kind kind, const char *text, int64_t *out);
/* Format a value for people ("10%", "256.0M", "30.00s"); returns buf. */
const char *knob_format_value(enum knob_kind kind, int64_t v, char *buf, size_t len);

/* Whether the bytes member of a ratio/bytes pair is in force: the kernel uses
 * dirty_bytes when it is non-zero, else dirty_ratio (likewise background). */
bool knob_bytes_in_force(const int64_t vm[KNOB_VM_COUNT], bool background);

#endif
