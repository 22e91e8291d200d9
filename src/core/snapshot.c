/*
 * snapshot.c - storage for one sample: allocation, copy, device order, and
 * the values beside the fixed blocks with the table of their kinds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "core/snapshot.h"

void snapshot_init(struct snapshot *s)
{
	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < SNAP_NKNOBS; i++)
		s->knob[i] = -1;
}

void snapshot_free(struct snapshot *s)
{
	free(s->dev);
	free(s->proc);
	free(s->x);
	free(s->cg);
	free(s->comm);
	s->comm = NULL;
	s->ncomm = s->cap_comm = 0;
	s->dev = NULL;
	s->proc = NULL;
	s->x = NULL;
	s->cg = NULL;
	s->ncg = s->cap_cg = 0;
	s->ndev = s->cap_dev = 0;
	s->nproc = s->cap_proc = 0;
	s->nx = s->cap_x = 0;
}

int snapshot_reserve_procs(struct snapshot *s, size_t n)
{
	return grow_array((void **)&s->proc, &s->cap_proc, n, sizeof *s->proc, 64);
}

int snapshot_reserve(struct snapshot *s, size_t n)
{
	return grow_array((void **)&s->dev, &s->cap_dev, n, sizeof *s->dev, 16);
}

static int snapshot_reserve_x(struct snapshot *s, size_t n)
{
	return grow_array((void **)&s->x, &s->cap_x, n, sizeof *s->x, 16);
}

int snapshot_copy(struct snapshot *dst, const struct snapshot *src)
{
	if (snapshot_reserve(dst, src->ndev) < 0 || snapshot_reserve_procs(dst, src->nproc) < 0 ||
	    snapshot_reserve_x(dst, src->nx) < 0 ||
	    grow_array((void **)&dst->cg, &dst->cap_cg, src->ncg, sizeof *dst->cg, 8) < 0 ||
	    grow_array((void **)&dst->comm, &dst->cap_comm, src->ncomm, sizeof *dst->comm, 8) < 0)
		return -ENOMEM;
	struct snap_comm *keep_comm = dst->comm;
	size_t keep_cap_comm = dst->cap_comm;
	struct snap_cgroup *keep_cg = dst->cg;
	size_t keep_cap_cg = dst->cap_cg;
	struct dev_counters *keep = dst->dev;
	struct proc_counters *keep_proc = dst->proc;
	struct snap_xval *keep_x = dst->x;
	size_t keep_cap = dst->cap_dev, keep_cap_proc = dst->cap_proc, keep_cap_x = dst->cap_x;
	*dst = *src;
	dst->dev = keep;
	dst->cap_dev = keep_cap;
	dst->proc = keep_proc;
	dst->cap_proc = keep_cap_proc;
	dst->x = keep_x;
	dst->cap_x = keep_cap_x;
	dst->cg = keep_cg;
	dst->cap_cg = keep_cap_cg;
	dst->comm = keep_comm;
	dst->cap_comm = keep_cap_comm;
	if (src->ncomm)
		memcpy(dst->comm, src->comm, src->ncomm * sizeof *src->comm);
	if (src->ncg)
		memcpy(dst->cg, src->cg, src->ncg * sizeof *src->cg);
	if (src->ndev)
		memcpy(dst->dev, src->dev, src->ndev * sizeof *src->dev);
	if (src->nproc)
		memcpy(dst->proc, src->proc, src->nproc * sizeof *src->proc);
	if (src->nx)
		memcpy(dst->x, src->x, src->nx * sizeof *src->x);
	return 0;
}

const struct snap_xkind snap_xkind_table[SNAP_XSLOTS(SNAP_NXKINDS)] = {
	{ SNAP_XDEV, SNAP_XDEV_WB_DIRTY_KB, "wb_dirty_kb", false, "KiB", 0 },
	{ SNAP_XDEV, SNAP_XDEV_WB_THRESH_KB, "wb_thresh_kb", false, "KiB", 0 },
	{ SNAP_XDEV, SNAP_XDEV_WB_BW_KBPS, "wb_bw_kbps", false, "KiB/s", 0 },
	{ SNAP_XDEV, SNAP_XDEV_WB_WRITEBACK_KB, "wb_writeback_kb", false, "KiB", 0 },
	{ SNAP_XDEV, SNAP_XDEV_WB_DIRTIED_KB, "wb_dirtied_kb", true, "KiB", 0 },
	{ SNAP_XDEV, SNAP_XDEV_WB_WRITTEN_KB, "wb_written_kb", true, "KiB", 0 },
	{ SNAP_XDEV, SNAP_XDEV_THROTTLED_MS, "wb_throttled_ms", true, "ms", 1 + SNAP_XSYS_TRACE_LOST },
	{ SNAP_XDEV, SNAP_XDEV_PAUSES, "wb_pauses", true, "", 1 + SNAP_XSYS_TRACE_LOST },
	{ SNAP_XTASK, SNAP_XTASK_THROTTLED_MS, "throttled_ms", true, "ms", 1 + SNAP_XSYS_TRACE_LOST },
	{ SNAP_XTASK, SNAP_XTASK_PAUSES, "pauses", true, "", 1 + SNAP_XSYS_TRACE_LOST },
	{ SNAP_XTASK, SNAP_XTASK_RATELIMIT_KBPS, "task_ratelimit_kbps", false, "KiB/s", 0 },
	{ SNAP_XTASK, SNAP_XTASK_BDI, "throttle_bdi", false, "devt", 0 },
	{ SNAP_XSYS, SNAP_XSYS_DIRTY_LIMIT_KB, "dirty_limit_kb", false, "KiB", 0 },
	{ SNAP_XSYS, SNAP_XSYS_TRACE_LOST, "trace_lost_events", true, "", 0 },
	{ SNAP_XSYS, SNAP_XSYS_WB_BACKGROUND_KB, "flush_background_kb", true, "KiB", 0 },
	{ SNAP_XSYS, SNAP_XSYS_WB_VMSCAN_KB, "flush_vmscan_kb", true, "KiB", 0 },
	{ SNAP_XSYS, SNAP_XSYS_WB_SYNC_KB, "flush_sync_kb", true, "KiB", 0 },
	{ SNAP_XSYS, SNAP_XSYS_WB_PERIODIC_KB, "flush_periodic_kb", true, "KiB", 0 },
	{ SNAP_XSYS, SNAP_XSYS_WB_LAPTOP_TIMER_KB, "flush_laptop_timer_kb", true, "KiB", 0 },
	{ SNAP_XSYS, SNAP_XSYS_WB_FS_FREE_SPACE_KB, "flush_fs_free_space_kb", true, "KiB", 0 },
	{ SNAP_XSYS, SNAP_XSYS_WB_FORKER_THREAD_KB, "flush_forker_thread_kb", true, "KiB", 0 },
	{ SNAP_XSYS, SNAP_XSYS_WB_FOREIGN_FLUSH_KB, "flush_foreign_flush_kb", true, "KiB", 0 },
	{ SNAP_XCG, SNAP_XCG_THROTTLED_MS, "cg_throttled_ms", true, "ms", 1 + SNAP_XSYS_TRACE_LOST },
	{ SNAP_XCG, SNAP_XCG_PAUSES, "cg_pauses", true, "", 1 + SNAP_XSYS_TRACE_LOST },
	{ SNAP_XCG, SNAP_XCG_WRITTEN_KB, "cg_written_kb", true, "KiB", 1 + SNAP_XSYS_TRACE_LOST },
	{ SNAP_XCG, SNAP_XCG_FILE_DIRTY_KB, "cg_file_dirty_kb", false, "KiB", 0 },
	{ SNAP_XCG, SNAP_XCG_FILE_WRITEBACK_KB, "cg_file_writeback_kb", false, "KiB", 0 },
	{ SNAP_XCG, SNAP_XCG_WB_DIRTY_KB, "cg_wb_dirty_kb", false, "KiB", 0 },
	{ SNAP_XCG, SNAP_XCG_WB_WRITEBACK_KB, "cg_wb_writeback_kb", false, "KiB", 0 },
	{ SNAP_XCG, SNAP_XCG_WB_THRESH_KB, "cg_wb_thresh_kb", false, "KiB", 0 },
	{ SNAP_XCG, SNAP_XCG_WB_BW_KBPS, "cg_wb_bw_kbps", false, "KiB/s", 0 },
	{ SNAP_XCG, SNAP_XCG_WB_DIRTIED_KB, "cg_wb_dirtied_kb", true, "KiB", 0 },
	{ SNAP_XCG, SNAP_XCG_WB_WRITTEN_KB, "cg_wb_written_kb", true, "KiB", 0 },
	/* the sampler starts a cgroup's task sums at 0 when it first sees one of its tasks paused */
	{ SNAP_XCG, SNAP_XCG_TASK_THROTTLED_MS, "cg_task_throttled_ms", true, "ms",
	  1 + SNAP_XSYS_TRACE_LOST },
	{ SNAP_XCG, SNAP_XCG_TASK_PAUSES, "cg_task_pauses", true, "", 1 + SNAP_XSYS_TRACE_LOST },
};
_Static_assert(SNAP_NXKINDS == 35, "one snap_xkind_table row per kind");

const struct snap_xkind *snapshot_xkind_find(enum snap_xscope scope, unsigned kind)
{
	for (size_t i = 0; i < SNAP_NXKINDS; i++)
		if (snap_xkind_table[i].scope == scope && snap_xkind_table[i].kind == kind)
			return &snap_xkind_table[i];
	return NULL;
}

const struct snap_xkind *snapshot_xkind_by_name(const char *name)
{
	for (size_t i = 0; i < SNAP_NXKINDS; i++)
		if (strcmp(snap_xkind_table[i].name, name) == 0)
			return &snap_xkind_table[i];
	return NULL;
}

static const unsigned snapshot_nkinds[SNAP_NXSCOPE] = {
	[SNAP_XDEV] = SNAP_NXDEV, [SNAP_XTASK] = SNAP_NXTASK, [SNAP_XSYS] = SNAP_NXSYS,
	[SNAP_XCG] = SNAP_NXCG,
};

int snapshot_add_x(struct snapshot *s, enum snap_xscope scope, unsigned kind, uint64_t obj,
		   uint64_t value)
{
	if ((unsigned)scope >= SNAP_NXSCOPE || kind >= snapshot_nkinds[scope])
		return -EINVAL;
	if (snapshot_reserve_x(s, s->nx + 1) < 0)
		return -ENOMEM;
	s->x[s->nx++] = (struct snap_xval){ obj, value, (uint16_t)kind, (uint8_t)scope };
	return 0;
}

static int snapshot_x_cmp(const struct snap_xval *x, const struct snap_xval *y)
{
	if (x->scope != y->scope)
		return x->scope < y->scope ? -1 : 1;
	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	return x->kind < y->kind ? -1 : x->kind > y->kind;
}

static int snapshot_x_qcmp(const void *a, const void *b)
{
	return snapshot_x_cmp(a, b);
}

int snapshot_add_cg(struct snapshot *s, uint64_t ino, const char *path, bool gone)
{
	if (grow_array((void **)&s->cg, &s->cap_cg, s->ncg + 1, sizeof *s->cg, 8) < 0)
		return -ENOMEM;
	struct snap_cgroup *c = &s->cg[s->ncg++];
	c->ino = ino;
	c->gone = gone;
	snprintf(c->path, sizeof c->path, "%s", path ? path : "");
	return 0;
}

int snapshot_add_comm(struct snapshot *s, uint64_t pid, const char *comm)
{
	if (grow_array((void **)&s->comm, &s->cap_comm, s->ncomm + 1, sizeof *s->comm, 16) < 0)
		return -ENOMEM;
	struct snap_comm *c = &s->comm[s->ncomm++];
	c->pid = pid;
	snprintf(c->comm, sizeof c->comm, "%s", comm ? comm : "");
	return 0;
}

const char *snapshot_find_comm(const struct snapshot *s, uint64_t pid)
{
	size_t lo = 0, hi = s->ncomm;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->comm[mid].pid == pid)
			return s->comm[mid].comm;
		if (s->comm[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int snapshot_cg_cmp(const void *a, const void *b)
{
	const struct snap_cgroup *x = a, *y = b;
	return (x->ino > y->ino) - (x->ino < y->ino);
}

const struct snap_cgroup *snapshot_find_cg(const struct snapshot *s, uint64_t ino)
{
	struct snap_cgroup key = { .ino = ino };
	return s->ncg ? bsearch(&key, s->cg, s->ncg, sizeof *s->cg, snapshot_cg_cmp) : NULL;
}

/* The cgroups' names sorted by ino, one each. */
static void snapshot_sort_cg(struct snapshot *s)
{
	for (size_t i = 1; i < s->ncg; i++)
		if (s->cg[i - 1].ino >= s->cg[i].ino) {
			qsort(s->cg, s->ncg, sizeof *s->cg, snapshot_cg_cmp);
			break;
		}
	size_t kept = 0;
	for (size_t i = 0; i < s->ncg; i++)
		if (!kept || s->cg[kept - 1].ino != s->cg[i].ino)
			s->cg[kept++] = s->cg[i];
	s->ncg = kept;
}

void snapshot_sort_x(struct snapshot *s)
{
	snapshot_sort_cg(s);
	for (size_t i = 1; i < s->nx; i++)
		if (snapshot_x_cmp(&s->x[i - 1], &s->x[i]) >= 0) {
			qsort(s->x, s->nx, sizeof *s->x, snapshot_x_qcmp);
			break;
		}
	size_t kept = 0;
	for (size_t i = 0; i < s->nx; i++) {
		if (kept && snapshot_x_cmp(&s->x[kept - 1], &s->x[i]) == 0)
			continue;	/* the same value twice: a source's slip, kept once */
		s->x[kept++] = s->x[i];
	}
	s->nx = kept;
}

const struct snap_xval *snapshot_find_x(const struct snapshot *s, enum snap_xscope scope, uint64_t obj)
{
	size_t lo = 0, hi = s->nx;
	struct snap_xval key = { obj, 0, 0, (uint8_t)scope };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (snapshot_x_cmp(&s->x[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nx && s->x[lo].scope == scope && s->x[lo].obj == obj ? &s->x[lo] : NULL;
}

const struct snap_xval *snapshot_find_xkind(const struct snapshot *s, enum snap_xscope scope, uint64_t obj,
					    unsigned kind)
{
	for (const struct snap_xval *v = snapshot_find_x(s, scope, obj);
	     v && v < s->x + s->nx && v->scope == scope && v->obj == obj; v++)
		if (v->kind == kind)
			return v;
	return NULL;
}

static int snapshot_dev_cmp(const void *a, const void *b)
{
	const struct dev_counters *x = a, *y = b;
	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	if (x->minor != y->minor)
		return x->minor < y->minor ? -1 : 1;
	return 0;
}

void snapshot_sort_devs(struct snapshot *s)
{
	for (size_t i = 1; i < s->ndev; i++) {
		if (snapshot_dev_cmp(&s->dev[i - 1], &s->dev[i]) > 0) {
			qsort(s->dev, s->ndev, sizeof *s->dev, snapshot_dev_cmp);
			return;
		}
	}
}

const struct dev_counters *snapshot_find_dev(const struct snapshot *s, uint32_t major, uint32_t minor)
{
	struct dev_counters key = { .major = major, .minor = minor };
	return bsearch(&key, s->dev, s->ndev, sizeof *s->dev, snapshot_dev_cmp);
}
