/*
 * cgsample.c - memory cgroups' dirty pages, writeback domains and task pauses as
 * snapshot values.
 *
 * Three sources meet by inode: memory.stat down cgpath's tree, each device's last
 * wb_stats blocks, and the trace's paused tasks; a row per cgroup busy lately.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/cgpath.h"
#include "source/cgsample.h"
#include "util/grow.h"
#include "util/sysfs.h"

struct cgsample_row {
	uint64_t ino;
	uint64_t task_ms, task_pauses;	/* since its first paused task */
	bool has_task;
	uint64_t busy_ms;		/* when it last had something */
	uint64_t dirtied_kb, written_kb;	/* its domains' counters then */
};

/* One device's writeback domain of one cgroup, as last read. */
struct cgsample_wb {
	uint64_t ino, dev;		/* dev: major << 32 | minor */
	uint32_t have;
	uint64_t kb[BDS_NFIELDS];
};

/* A cgroup's domains summed over the devices. */
struct cgsample_sum {
	uint64_t ino;
	uint32_t have;
	uint64_t kb[BDS_NFIELDS];	/* thresh and bandwidth: of the domains with pages */
	bool paged;			/* some domain has dirty or writeback pages */
};

/* A cgroup's domains' dirtied and written KiB since wbtop first saw them:
 * the sum of each domain's increases, so that a device going away (or a
 * domain's counters starting over) does not take the total backwards. */
struct cgsample_acc {
	uint64_t ino;
	uint64_t dirtied_kb, written_kb;
};

/* The cgroup a paused task was last found in: a task that exits between
 * its last pause and the sample is still placed. */
struct cgsample_task {
	int32_t pid;
	uint64_t ino;
	uint64_t seen_ms;
};

/* memory.stat of a walk's entry in this sample. */
struct cgsample_ms {
	bool known;			/* read, or below a clean subtree (then 0) */
	uint64_t dirty_bytes, writeback_bytes;
};

struct cgsample {
	struct cgpath *paths;
	bool rewalk;			/* a cgroup went: walk at the next sample */
	struct cgsample_row *row;	/* sorted by ino */
	size_t nrow, cap_row;
	struct cgsample_wb *wb, *spare;	/* sorted by (ino, dev); spare: the next one */
	size_t nwb, cap_wb, cap_spare;
	struct cgsample_sum *sum;	/* sorted by ino */
	size_t nsum, cap_sum;
	struct cgsample_acc *acc;	/* sorted by ino; those with domains */
	size_t nacc, cap_acc;
	struct cgsample_task *task;	/* sorted by pid */
	size_t ntask, cap_task;
	struct cgsample_ms *ms;
	size_t cap_ms;
	char *buf;
	size_t cap_buf;
};

int cgsample_open(struct cgsample **out, const char *cgroup_dir, const char *proc_dir, char *why,
		  size_t whylen)
{
	*out = NULL;
	struct cgsample *cs = calloc(1, sizeof *cs);
	if (!cs)
		return -ENOMEM;
	int rc = cgpath_open(&cs->paths, cgroup_dir, proc_dir, why, whylen);
	if (rc) {
		free(cs);
		return rc;
	}
	*out = cs;
	return 0;
}

bool cgsample_v2(const struct cgsample *cs)
{
	return cgpath_v2(cs->paths);
}

void cgsample_close(struct cgsample *cs)
{
	if (!cs)
		return;
	cgpath_close(cs->paths);
	free(cs->row);
	free(cs->wb);
	free(cs->spare);
	free(cs->sum);
	free(cs->acc);
	free(cs->task);
	free(cs->ms);
	free(cs->buf);
	free(cs);
}

/* The row of ino, made when new (when make); NULL if none or no memory. */
static struct cgsample_row *cgsample_row(struct cgsample *cs, uint64_t ino, bool make)
{
	size_t lo = 0, hi = cs->nrow;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cs->row[mid].ino == ino)
			return &cs->row[mid];
		if (cs->row[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!make || grow_array((void **)&cs->row, &cs->cap_row, cs->nrow + 1, sizeof *cs->row, 16))
		return NULL;
	memmove(&cs->row[lo + 1], &cs->row[lo], (cs->nrow - lo) * sizeof *cs->row);
	cs->nrow++;
	cs->row[lo] = (struct cgsample_row){ .ino = ino };
	return &cs->row[lo];
}

static const struct cgsample_sum *cgsample_sum(const struct cgsample *cs, uint64_t ino)
{
	size_t lo = 0, hi = cs->nsum;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cs->sum[mid].ino == ino)
			return &cs->sum[mid];
		if (cs->sum[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int cgsample_cmp_wb(const void *a, const void *b)
{
	const struct cgsample_wb *x = a, *y = b;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return (x->dev > y->dev) - (x->dev < y->dev);
}

static int cgsample_cmp_acc(const void *a, const void *b)
{
	const struct cgsample_acc *x = a, *y = b;
	return (x->ino > y->ino) - (x->ino < y->ino);
}

/* The accumulator of ino, made when new; NULL: no memory. */
static struct cgsample_acc *cgsample_acc(struct cgsample *cs, uint64_t ino)
{
	size_t lo = 0, hi = cs->nacc;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cs->acc[mid].ino == ino)
			return &cs->acc[mid];
		if (cs->acc[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (grow_array((void **)&cs->acc, &cs->cap_acc, cs->nacc + 1, sizeof *cs->acc, 16))
		return NULL;
	memmove(&cs->acc[lo + 1], &cs->acc[lo], (cs->nacc - lo) * sizeof *cs->acc);
	cs->nacc++;
	cs->acc[lo] = (struct cgsample_acc){ .ino = ino };
	return &cs->acc[lo];
}

/* Whether the kept blocks hold a domain of device dev: it was read before. */
static bool cgsample_dev_known(const struct cgsample *cs, uint64_t dev)
{
	for (size_t i = 0; i < cs->nwb; i++)
		if (cs->wb[i].dev == dev)
			return true;
	return false;
}

/* A domain read: what its counters grew by since the last read.  A domain
 * new on a device read before was made since (the kernel makes a cgroup's
 * domain on a device when it first dirties a page there, its counters at
 * 0): all it counts grew in the interval (seen in the lab on 6.12: a
 * writer's first 52 MB on md1 were missing from its cgroup's written/s).
 * The first read of a device is the baseline. */
static int cgsample_grew(struct cgsample *cs, const struct cgsample_wb *w)
{
	const struct cgsample_wb *old =
		cs->nwb ? bsearch(w, cs->wb, cs->nwb, sizeof *cs->wb, cgsample_cmp_wb) : NULL;
	const struct cgsample_wb zero = { .ino = w->ino, .dev = w->dev, .have = w->have };
	if (!old && !cgsample_dev_known(cs, w->dev))
		return 0;	/* the device's first read: its counters are the baseline */
	if (!old)
		old = &zero;
	struct cgsample_acc *a = cgsample_acc(cs, w->ino);
	if (!a)
		return -ENOMEM;
	uint32_t both = w->have & old->have;
	if ((both & 1u << BDS_DIRTIED) && w->kb[BDS_DIRTIED] >= old->kb[BDS_DIRTIED])
		a->dirtied_kb += w->kb[BDS_DIRTIED] - old->kb[BDS_DIRTIED];
	if ((both & 1u << BDS_WRITTEN) && w->kb[BDS_WRITTEN] >= old->kb[BDS_WRITTEN])
		a->written_kb += w->kb[BDS_WRITTEN] - old->kb[BDS_WRITTEN];
	return 0;
}

/* The kept blocks with this sample's read devices' replaced, and the ones
 * of devices no longer in the sample dropped; then summed per cgroup. */
static int cgsample_domains(struct cgsample *cs, const struct snapshot *out,
			    const struct bdistat_sample *stats)
{
	if (stats) {
		size_t need = cs->nwb + stats->nwb;
		if (grow_array((void **)&cs->spare, &cs->cap_spare, need, sizeof *cs->spare, 16))
			return -ENOMEM;
		size_t n = 0;
		for (size_t i = 0; i < cs->nwb; i++) {
			uint32_t ma = (uint32_t)(cs->wb[i].dev >> 32), mi = (uint32_t)cs->wb[i].dev;
			if (!bdistat_find(stats, ma, mi) && snapshot_find_dev(out, ma, mi))
				cs->spare[n++] = cs->wb[i];
		}
		bool sorted = true;
		for (size_t i = 0; i < stats->nwb; i++) {
			const struct bdistat_wb *b = &stats->wb[i];
			if (!snapshot_find_dev(out, b->major, b->minor))
				continue;
			struct cgsample_wb *w = &cs->spare[n++];
			w->ino = b->cg_ino;
			w->dev = snapshot_xobj_dev(b->major, b->minor);
			w->have = b->have;
			memcpy(w->kb, b->kb, sizeof w->kb);
			if (cgsample_grew(cs, w))
				return -ENOMEM;
			sorted = sorted && (n < 2 || cgsample_cmp_wb(&cs->spare[n - 2], w) < 0);
		}
		if (!sorted)
			qsort(cs->spare, n, sizeof *cs->spare, cgsample_cmp_wb);
		struct cgsample_wb *t = cs->wb;
		size_t cap = cs->cap_wb;
		cs->wb = cs->spare;
		cs->cap_wb = cs->cap_spare;
		cs->spare = t;
		cs->cap_spare = cap;
		cs->nwb = n;
	}
	cs->nsum = 0;
	for (size_t i = 0; i < cs->nwb; i++) {
		const struct cgsample_wb *w = &cs->wb[i];
		if (!cs->nsum || cs->sum[cs->nsum - 1].ino != w->ino) {
			if (grow_array((void **)&cs->sum, &cs->cap_sum, cs->nsum + 1, sizeof *cs->sum, 16))
				return -ENOMEM;
			cs->sum[cs->nsum++] = (struct cgsample_sum){ .ino = w->ino };
		}
		struct cgsample_sum *s = &cs->sum[cs->nsum - 1];
		bool paged = w->kb[BDS_RECLAIMABLE] || w->kb[BDS_WRITEBACK];
		s->paged = s->paged || paged;
		for (int f = 0; f < BDS_NFIELDS; f++) {
			if (!(w->have & 1u << f))
				continue;
			/* a limit and a bandwidth count where the cgroup has pages: an idle
			 * device's share of the threshold says nothing of this cgroup */
			if ((f == BDS_BDI_THRESH || f == BDS_WRITE_BW) && !paged)
				continue;
			s->have |= 1u << f;
			s->kb[f] += w->kb[f];
		}
	}
	/* the counters: the accumulated growth (accumulators without domains go) */
	size_t kept = 0, j = 0;
	for (size_t i = 0; i < cs->nacc; i++) {
		while (j < cs->nsum && cs->sum[j].ino < cs->acc[i].ino)
			j++;
		if (j < cs->nsum && cs->sum[j].ino == cs->acc[i].ino)
			cs->acc[kept++] = cs->acc[i];
	}
	cs->nacc = kept;
	for (size_t i = 0; i < cs->nsum; i++) {
		struct cgsample_sum *s = &cs->sum[i];
		const struct cgsample_acc key = { .ino = s->ino };
		const struct cgsample_acc *a = cs->nacc ? bsearch(&key, cs->acc, cs->nacc, sizeof *cs->acc,
								  cgsample_cmp_acc) : NULL;
		s->kb[BDS_DIRTIED] = a ? a->dirtied_kb : 0;
		s->kb[BDS_WRITTEN] = a ? a->written_kb : 0;
	}
	return 0;
}

/* memory.stat of rel under the hierarchy's root into *m.  0; 1 when the
 * subtree below it has no dirty or writeback page; -ENOENT when the cgroup
 * went, -ENODATA when it has no memory.stat, or another negative errno. */
static int cgsample_memstat(struct cgsample *cs, const char *rel, struct cgsample_ms *m)
{
	int dfd = openat(cgpath_root_fd(cs->paths), rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	int fd = openat(dfd, "memory.stat", O_RDONLY | O_CLOEXEC);
	int err = fd < 0 ? errno : 0;
	close(dfd);
	if (fd < 0)	/* the cgroup is there without the memory controller (v2): not gone */
		return err == ENOENT ? -ENODATA : -err;
	long len = sysfs_read_fd(fd, &cs->buf, &cs->cap_buf);
	if (len < 0)
		return (int)len;
	struct bdistat_cg c;
	int rc = bdistat_parse_memstat(cs->buf, (size_t)len, &c);
	if (rc)
		return rc;
	m->known = true;
	m->dirty_bytes = c.dirty_bytes;
	m->writeback_bytes = c.writeback_bytes;
	/* a clean subtree: its cgroups' counts are 0 without reading them */
	return c.has_tree && c.tree_bytes == 0 ? 1 : 0;
}

/* memory.stat down the walked tree, skipping below clean subtrees. */
static int cgsample_memstats(struct cgsample *cs)
{
	size_t n;
	const struct cgpath_entry *e = cgpath_entries(cs->paths, &n);
	if (grow_array((void **)&cs->ms, &cs->cap_ms, n, sizeof *cs->ms, 16))
		return -ENOMEM;
	if (n)
		memset(cs->ms, 0, n * sizeof *cs->ms);
	for (size_t i = 0; i < n;) {
		int rc = cgsample_memstat(cs, e[i].path[1] ? e[i].path + 1 : ".", &cs->ms[i]);
		if (rc == -ENOMEM)
			return rc;
		if (rc == -ENOENT)
			cs->rewalk = true;	/* removed: the next walk marks it gone */
		if (rc != 1) {
			i++;
			continue;
		}
		for (size_t j = i + 1; j < e[i].end; j++)
			cs->ms[j] = (struct cgsample_ms){ true, 0, 0 };
		i = e[i].end;
	}
	return 0;
}

/* The cgroup of task pid: read now, else where it was last found (it
 * exited since its pause).  0, or -ENOENT (never found), -ENOMEM. */
static int cgsample_task_cg(struct cgsample *cs, int32_t pid, uint64_t now_ms, uint64_t *ino)
{
	size_t lo = 0, hi = cs->ntask;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cs->task[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	bool known = lo < cs->ntask && cs->task[lo].pid == pid;
	if (cgpath_of_task(cs->paths, pid, ino) != 0) {
		if (!known)
			return -ENOENT;
		*ino = cs->task[lo].ino;
		return 0;
	}
	if (!known) {
		if (grow_array((void **)&cs->task, &cs->cap_task, cs->ntask + 1, sizeof *cs->task, 16))
			return -ENOMEM;
		memmove(&cs->task[lo + 1], &cs->task[lo], (cs->ntask - lo) * sizeof *cs->task);
		cs->ntask++;
	}
	cs->task[lo] = (struct cgsample_task){ pid, *ino, now_ms };
	return 0;
}

/* The interval's paused tasks into their cgroups' rows. */
static int cgsample_tasks(struct cgsample *cs, const struct wbloop *w, uint64_t now_ms)
{
	/* tasks not paused for a while are forgotten: bounded by the recent writers */
	size_t kept = 0;
	for (size_t i = 0; i < cs->ntask; i++)
		if (now_ms - cs->task[i].seen_ms <= CGSAMPLE_KEEP_MS)
			cs->task[kept++] = cs->task[i];
	cs->ntask = kept;
	for (size_t i = 0; w && i < w->ntask; i++) {
		const struct wbloop_task *t = &w->task[i];
		if (!t->pauses && !t->paused_ms)
			continue;
		uint64_t ino;
		int rc = cgsample_task_cg(cs, t->pid, now_ms, &ino);
		if (rc == -ENOMEM)
			return rc;
		if (rc)
			continue;	/* exited before its first sample: its pauses are not placed */
		struct cgsample_row *r = cgsample_row(cs, ino, true);
		if (!r)
			return -ENOMEM;
		r->task_ms += t->paused_ms;
		r->task_pauses += t->pauses;
		r->has_task = true;
		r->busy_ms = now_ms;
	}
	return 0;
}

/* Rows for the cgroups with pages or moving domains now; idle ones drop. */
static int cgsample_busy(struct cgsample *cs, uint64_t now_ms)
{
	size_t n;
	const struct cgpath_entry *e = cgpath_entries(cs->paths, &n);
	for (size_t i = 0; i < n; i++)
		if (cs->ms[i].dirty_bytes || cs->ms[i].writeback_bytes) {
			struct cgsample_row *r = cgsample_row(cs, e[i].ino, true);
			if (!r)
				return -ENOMEM;
			r->busy_ms = now_ms;
		}
	for (size_t i = 0; i < cs->nsum; i++) {
		const struct cgsample_sum *s = &cs->sum[i];
		struct cgsample_row *r = cgsample_row(cs, s->ino, s->paged);
		if (s->paged && !r)
			return -ENOMEM;
		if (r && (s->paged || r->dirtied_kb != s->kb[BDS_DIRTIED] ||
			  r->written_kb != s->kb[BDS_WRITTEN]))
			r->busy_ms = now_ms;
		if (r) {
			r->dirtied_kb = s->kb[BDS_DIRTIED];
			r->written_kb = s->kb[BDS_WRITTEN];
		}
	}
	size_t kept = 0;
	for (size_t i = 0; i < cs->nrow; i++)
		if (now_ms - cs->row[i].busy_ms <= CGSAMPLE_KEEP_MS)
			cs->row[kept++] = cs->row[i];
	cs->nrow = kept;
	return 0;
}

static int cgsample_add(struct snapshot *s, unsigned kind, uint64_t ino, uint64_t value, int rc)
{
	return rc ? rc : snapshot_add_x(s, SNAP_XCG, kind, ino, value);
}

static int cgsample_name(struct cgsample *cs, struct snapshot *out, uint64_t ino, uint64_t now_ms)
{
	bool gone = false;
	const char *path = cgpath_lookup(cs->paths, ino, now_ms, &gone);
	return snapshot_add_cg(out, ino, path ? path : "", gone);
}

static int cgsample_values(struct cgsample *cs, struct snapshot *out, uint64_t now_ms, bool traced)
{
	static const struct { enum bdistat_field f; enum snap_xcg kind; } map[] = {
		{ BDS_RECLAIMABLE, SNAP_XCG_WB_DIRTY_KB }, { BDS_WRITEBACK, SNAP_XCG_WB_WRITEBACK_KB },
		{ BDS_BDI_THRESH, SNAP_XCG_WB_THRESH_KB }, { BDS_WRITE_BW, SNAP_XCG_WB_BW_KBPS },
		{ BDS_DIRTIED, SNAP_XCG_WB_DIRTIED_KB }, { BDS_WRITTEN, SNAP_XCG_WB_WRITTEN_KB },
	};
	int rc = 0;
	for (size_t i = 0; !rc && i < cs->nrow; i++) {
		const struct cgsample_row *r = &cs->row[i];
		long k = cgpath_index(cs->paths, r->ino);
		if (k >= 0 && cs->ms[k].known) {
			rc = cgsample_add(out, SNAP_XCG_FILE_DIRTY_KB, r->ino, cs->ms[k].dirty_bytes / 1024, rc);
			rc = cgsample_add(out, SNAP_XCG_FILE_WRITEBACK_KB, r->ino,
					  cs->ms[k].writeback_bytes / 1024, rc);
		}
		const struct cgsample_sum *s = cgsample_sum(cs, r->ino);
		for (size_t m = 0; s && m < sizeof map / sizeof *map; m++)
			if (s->have & 1u << map[m].f)
				rc = cgsample_add(out, map[m].kind, r->ino, s->kb[map[m].f], rc);
		/* traced: a cgroup none of whose tasks paused has paused 0 ms, not an unknown */
		if (r->has_task || traced) {
			rc = cgsample_add(out, SNAP_XCG_TASK_THROTTLED_MS, r->ino, r->task_ms, rc);
			rc = cgsample_add(out, SNAP_XCG_TASK_PAUSES, r->ino, r->task_pauses, rc);
		}
	}
	/* names last: a walk renumbers the entries ms follows; one that went is
	 * marked gone in this sample's names already */
	if (cs->rewalk && cgpath_update(cs->paths, now_ms, CGPATH_WALK_MS) == 0)
		cs->rewalk = false;
	for (size_t i = 0; !rc && i < cs->nrow; i++)
		rc = cgsample_name(cs, out, cs->row[i].ino, now_ms);
	return rc;
}

int cgsample_read(struct cgsample *cs, struct snapshot *out, const struct wbloop *interval,
		  const struct wbcum *total, const struct bdistat_sample *stats)
{
	uint64_t now_ms = out->mono_ns / 1000000;
	/* a walk that fails keeps the last table: the sample goes on with it */
	(void)cgpath_update(cs->paths, now_ms, cs->rewalk ? CGPATH_WALK_MS : CGSAMPLE_WALK_MS);
	cs->rewalk = false;
	int rc = cgsample_domains(cs, out, stats);
	if (!rc)
		rc = cgsample_memstats(cs);
	if (!rc)
		rc = cgsample_tasks(cs, interval, now_ms);
	if (!rc)
		rc = cgsample_busy(cs, now_ms);
	if (!rc)
		rc = cgsample_values(cs, out, now_ms, interval != NULL);
	/* the trace's writeback domains are named too (their values are wbsample's) */
	for (size_t i = 0; !rc && total && i < total->ncg; i++)
		rc = cgsample_name(cs, out, total->cg[i].ino, now_ms);
	return rc;
}
