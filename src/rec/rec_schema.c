/*
 * rec_schema.c - the columns of a recording's tables: which field of a
 * snapshot or a device identity each column holds, in the order the writer
 * binds and the reader selects them.  Not the SQL that creates the tables
 * (rec_writer.c) nor the packed per-device counters (rec_codec.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/knob.h"
#include "rec/rec_schema.h"

#define SYS(n, f) { .name = n, .offset = offsetof(struct snapshot, sys.f) }
const struct rec_sys_col rec_schema_sys_cols[] = {
	SYS("procs_running", procs_running),
	SYS("procs_blocked", procs_blocked),
	SYS("mem_total_kb", mem_total_kb),
	SYS("mem_avail_kb", mem_avail_kb),
	SYS("swpd_kb", swpd_kb),
	SYS("free_kb", free_kb),
	SYS("buff_kb", buff_kb),
	SYS("cache_kb", cache_kb),
	SYS("dirty_kb", dirty_kb),
	SYS("writeback_kb", writeback_kb),
	SYS("nr_dirty_pages", nr_dirty_pages),
	SYS("nr_writeback_pages", nr_writeback_pages),
	SYS("dirty_thresh_pages", dirty_thresh_pages),
	SYS("bg_thresh_pages", bg_thresh_pages),
	SYS("pgpgin_kb", pgpgin_kb),
	SYS("pgpgout_kb", pgpgout_kb),
	SYS("pswpin_pages", pswpin_pages),
	SYS("pswpout_pages", pswpout_pages),
	SYS("nr_dirtied_pages", nr_dirtied_pages),
	SYS("nr_written_pages", nr_written_pages),
	SYS("intr", intr),
	SYS("ctxt", ctxt),
	SYS("cpu_user_jif", cpu_jif[CPU_USER]),
	SYS("cpu_nice_jif", cpu_jif[CPU_NICE]),
	SYS("cpu_system_jif", cpu_jif[CPU_SYSTEM]),
	SYS("cpu_idle_jif", cpu_jif[CPU_IDLE]),
	SYS("cpu_iowait_jif", cpu_jif[CPU_IOWAIT]),
	SYS("cpu_irq_jif", cpu_jif[CPU_IRQ]),
	SYS("cpu_softirq_jif", cpu_jif[CPU_SOFTIRQ]),
	SYS("cpu_steal_jif", cpu_jif[CPU_STEAL]),
	SYS("cpu_guest_jif", cpu_jif[CPU_GUEST]),
	SYS("cpu_guest_nice_jif", cpu_jif[CPU_GUEST_NICE]),
};
#undef SYS
const size_t rec_schema_nsys_cols = sizeof rec_schema_sys_cols / sizeof rec_schema_sys_cols[0];

#define IDS(f) { .name = #f, .offset = offsetof(struct dev_ident, f) }
const struct rec_ident_col rec_schema_ident_cols[] = {
	IDS(key), IDS(kname), IDS(label_short), IDS(dm_name), IDS(dm_uuid), IDS(md_name),
	IDS(mounts), IDS(fstype), IDS(fs_label), IDS(fs_uuid), IDS(wwid), IDS(serial),
	IDS(write_cache),
};
#undef IDS
const size_t rec_schema_nident_cols = sizeof rec_schema_ident_cols / sizeof rec_schema_ident_cols[0];

/* A new BDI knob needs a new column and so a new schema version. */
_Static_assert(KNOB_BDI_COUNT == 8, "BDI knobs changed: bump REC_SCHEMA_VERSION");
_Static_assert(DS_NFIELDS == 17, "diskstats fields changed: bump REC_SCHEMA_VERSION");
_Static_assert(SNAP_NKNOBS == KNOB_VM_COUNT, "snapshot knobs are the vm knob table");
const char *const rec_schema_bdi_cols[KNOB_BDI_COUNT] = {
	"bdi_min_ratio", "bdi_max_ratio", "bdi_min_bytes", "bdi_max_bytes",
	"bdi_strict_limit", "bdi_min_ratio_fine", "bdi_max_ratio_fine", "bdi_read_ahead_kb",
};

uint64_t rec_schema_sys_get(const struct snapshot *s, size_t col)
{
	uint64_t v;
	memcpy(&v, (const char *)s + rec_schema_sys_cols[col].offset, sizeof v);
	return v;
}

void rec_schema_sys_set(struct snapshot *s, size_t col, uint64_t v)
{
	memcpy((char *)s + rec_schema_sys_cols[col].offset, &v, sizeof v);
}

const char *rec_schema_ident_str(const struct dev_ident *id, size_t col)
{
	const char *v;
	memcpy(&v, (const char *)id + rec_schema_ident_cols[col].offset, sizeof v);
	return v;
}

static void rec_schema_ident_set_str(struct dev_ident *id, size_t col, char *v)
{
	memcpy((char *)id + rec_schema_ident_cols[col].offset, &v, sizeof v);
}

static bool rec_schema_str_equal(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

bool rec_schema_ident_equal(const struct dev_ident *a, const struct dev_ident *b)
{
	if (!a || !b)
		return a == b;
	if (a->major != b->major || a->minor != b->minor || a->rotational != b->rotational ||
	    a->partition != b->partition || a->has_bdi != b->has_bdi ||
	    memcmp(a->bdi, b->bdi, sizeof a->bdi) != 0)
		return false;
	for (size_t c = 0; c < rec_schema_nident_cols; c++)
		if (!rec_schema_str_equal(rec_schema_ident_str(a, c), rec_schema_ident_str(b, c)))
			return false;
	return true;
}

void rec_schema_ident_clear(struct dev_ident *id)
{
	for (size_t c = 0; c < rec_schema_nident_cols; c++)
		free((char *)rec_schema_ident_str(id, c));
	memset(id, 0, sizeof *id);
}

int rec_schema_ident_copy(struct dev_ident *dst, const struct dev_ident *src)
{
	*dst = *src;
	for (size_t c = 0; c < rec_schema_nident_cols; c++) {
		const char *s = rec_schema_ident_str(src, c);
		char *d = s ? strdup(s) : NULL;
		rec_schema_ident_set_str(dst, c, d);
		if (s && !d) {
			for (size_t k = c + 1; k < rec_schema_nident_cols; k++)
				rec_schema_ident_set_str(dst, k, NULL);
			rec_schema_ident_clear(dst);
			return -ENOMEM;
		}
	}
	return 0;
}

size_t rec_schema_sample_cols(const char **cols)
{
	size_t n = 0;
	cols[n++] = "wall_ns";
	cols[n++] = "mono_ns";
	cols[n++] = "page_size";
	for (size_t c = 0; c < rec_schema_nsys_cols; c++)
		cols[n++] = rec_schema_sys_cols[c].name;
	cols[n++] = "keyframe";
	cols[n++] = "ndev";
	cols[n++] = "frame_offset";
	cols[n++] = "nbytes";
	cols[n++] = "crc";
	return n;
}

size_t rec_schema_device_cols(const char **cols)
{
	size_t n = 0;
	cols[n++] = "name";
	cols[n++] = "major";
	cols[n++] = "minor";
	cols[n++] = "nfields";
	cols[n++] = "has_ident";
	for (size_t c = 0; c < rec_schema_nident_cols; c++)
		cols[n++] = rec_schema_ident_cols[c].name;
	cols[n++] = "rotational";
	cols[n++] = "partition";
	cols[n++] = "has_bdi";
	for (size_t k = 0; k < KNOB_BDI_COUNT; k++)
		cols[n++] = rec_schema_bdi_cols[k];
	return n;
}
