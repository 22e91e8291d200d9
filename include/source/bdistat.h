/*
 * bdistat.h - the kernel's per-device and per-cgroup writeback state as it prints it
 * (a source): debugfs bdi/MAJ:MIN/stats and wb_stats, and memory.stat.
 *
 * The parsers are pure (text in, numbers out) and fuzzed; the readers open the files.
 * Not a view.  Units as the kernel prints them: _kb (KiB), _kbps (KiB/s), _bytes.
 */
#ifndef WBTOP_BDISTAT_H
#define WBTOP_BDISTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Which fields a parse found, one bit each (older kernels lack some). */
enum bdistat_field {
	BDS_WRITEBACK, BDS_RECLAIMABLE, BDS_BDI_THRESH, BDS_DIRTY_THRESH, BDS_BG_THRESH,
	BDS_DIRTIED, BDS_WRITTEN, BDS_WRITE_BW, BDS_NFIELDS
};

/* One device's bdi/MAJ:MIN/stats. */
struct bdistat_dev {
	uint32_t major, minor;
	uint32_t have;			/* 1 << enum bdistat_field */
	uint64_t kb[BDS_NFIELDS];	/* BdiWriteback, BdiReclaimable, BdiDirtyThresh,
					 * DirtyThresh, BackgroundThresh, BdiDirtied,
					 * BdiWritten (KiB), BdiWriteBandwidth (KiB/s) */
	bool per_domain;		/* kb[] summed from its wb_stats domains (6.10+);
					 * false: stats alone, on kernels before wb_stats
					 * the root cgroup's domain only */
};

/* The kernel's estimate of the device's write bandwidth, KiB/s (see
 * bdistat_dev_from_domains). */
uint64_t bdistat_write_bw_kbps(const struct bdistat_dev *d);

/* One cgroup writeback domain of a device (a block of wb_stats). */
struct bdistat_wb {
	uint32_t major, minor;
	uint64_t cg_ino;		/* WbCgIno: the cgroup's inode number */
	uint32_t have;			/* the bits of enum bdistat_field it gave */
	uint64_t kb[BDS_NFIELDS];	/* WbWriteback, WbReclaimable, WbDirtyThresh,
					 * -, -, WbDirtied, WbWritten, WbWriteBandwidth */
};

/* Whether a domain is active: it has dirty or writeback pages, or its
 * WbWritten moved since prev_written_kb (UINT64_MAX: not known).  An idle
 * domain's threshold share and bandwidth estimate say nothing of the
 * device (the root domain keeps the initial 100 MB/s for ever). */
bool bdistat_wb_active(const struct bdistat_wb *w, uint64_t prev_written_kb);

/* A device's figures from its n domains: dirty, writeback, dirtied and
 * written summed over every domain; the threshold and the bandwidth over
 * the active ones only, and not had (their bits clear) when none is.
 * prev_written_kb[i] is domain i's WbWritten at the last reading
 * (UINT64_MAX unknown), or NULL.  Sets d->per_domain.  Pure. */
void bdistat_dev_from_domains(struct bdistat_dev *d, const struct bdistat_wb *wb, size_t n,
			      const uint64_t *prev_written_kb);

/* One memory cgroup's memory.stat. */
struct bdistat_cg {
	uint64_t ino;			/* the cgroup directory's inode number */
	char path[96];			/* below the cgroup mount, "/" for the root */
	uint64_t dirty_bytes;		/* v2 file_dirty, v1 dirty */
	uint64_t writeback_bytes;	/* v2 file_writeback, v1 writeback */
	uint64_t tree_bytes;		/* dirty + writeback of it and every cgroup below:
					 * v2's own (hierarchical), v1 total_dirty + total_writeback */
	bool has_tree;			/* tree_bytes was there (v1 without total_*: not) */
};

/* Parse the text of a stats file into out (major/minor untouched).  0, or
 * -EINVAL when none of its fields is there. */
int bdistat_parse_stats(const char *text, size_t len, struct bdistat_dev *out);

/* Parse the text of a wb_stats file: each block starts at WbCgIno.  Blocks
 * are appended to *arr (grown; *n and *cap kept).  The number of blocks, or
 * -ENOMEM. */
int bdistat_parse_wb(const char *text, size_t len, uint32_t major, uint32_t minor,
		     struct bdistat_wb **arr, size_t *n, size_t *cap);

/* Parse memory.stat (cgroup v2 or v1) into out's byte counts.  0, or
 * -EINVAL (and both counts 0) when it has neither dirty field. */
int bdistat_parse_memstat(const char *text, size_t len, struct bdistat_cg *out);

/* One sample of all of it. */
struct bdistat_sample {
	size_t ndev, cap_dev;
	struct bdistat_dev *dev;	/* sorted by (major, minor) */
	size_t nwb, cap_wb;
	struct bdistat_wb *wb;
	size_t ncg, cap_cg;
	struct bdistat_cg *cg;		/* in directory-walk order */
};

void bdistat_sample_init(struct bdistat_sample *s);
void bdistat_sample_free(struct bdistat_sample *s);

/* The readers, rooted at debugfs_dir (normally /sys/kernel/debug) and
 * cgroup_dir (normally /sys/fs/cgroup; a v1 hierarchy's memory directory
 * works too).  0 or a negative errno with one line in why: -ENOENT when
 * debugfs is not mounted (we do not mount it), -EACCES when not root. */
struct bdistat_reader;
int bdistat_open(struct bdistat_reader **out, const char *debugfs_dir, const char *cgroup_dir,
		 char *why, size_t whylen);
/* Read every device and, when cgroups is true, every memory cgroup, into s
 * (emptied first).  0 or a negative errno; a device or cgroup that vanishes
 * during the read is left out. */
int bdistat_read(struct bdistat_reader *r, struct bdistat_sample *s, bool cgroups);
/* The same for the devices want(ctx, major, minor) says yes to. */
int bdistat_read_some(struct bdistat_reader *r, struct bdistat_sample *s, bool cgroups,
		      bool (*want)(void *ctx, uint32_t major, uint32_t minor), void *ctx);
void bdistat_close(struct bdistat_reader *r);	/* NULL is a no-op */
/* Whether the kernel has per-domain files (bdi/MAJ:MIN/wb_stats), found by
 * the file at open.  Without them a device's stats file is its root
 * cgroup's domain alone: the device's figures when no cgroup writeback is
 * possible (bdistat_root_only_is_device), not otherwise. */
bool bdistat_has_domains(const struct bdistat_reader *r);
/* Whether the root domain is all of a device: no cgroup v2 memory
 * controller (cgroup writeback needs it), checked at open. */
bool bdistat_root_only_is_device(const struct bdistat_reader *r);

/* The device major:minor in s, or NULL. */
const struct bdistat_dev *bdistat_find(const struct bdistat_sample *s, uint32_t major,
				       uint32_t minor);

#endif
