/*
 * wbsample.c - the kernel's writeback loop as values of a live snapshot: the trace
 * (wbtrace.h) into interval sums (wbloop.h) and totals (wbcum.h), debugfs and the
 * memory cgroups (bdistat.h), into the snapshot beside the fixed blocks.  A part that
 * cannot work (not root, no debugfs) is left out with one line saying why.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/bdistat.h"
#include "source/cgsample.h"
#include "util/grow.h"
#include "core/ident.h"
#include "source/wbcum.h"
#include "source/wbsample.h"
#include "source/wbtrace.h"

/* A task's totals are kept this long after its last pause decision. */
#define WBSAMPLE_KEEP_MS 60000
/* An idle device's debugfs figures are read at least this often. */
#define WBSAMPLE_IDLE_MS 10000

/* What the last sample knew of a device, to read debugfs only where the
 * kernel's state can have moved: a device with I/O, with dirty or
 * writeback pages when last read, or not read for WBSAMPLE_IDLE_MS. */
struct wbsample_dev {
	uint32_t major, minor;
	uint64_t io;			/* write sectors + writes in flight, from diskstats */
	uint64_t read_ms;		/* when its debugfs figures were last read, 0 never */
	bool busy;			/* dirty or writeback pages then */
};

struct wbsample {
	struct wbtrace *trace;		/* NULL: no tracing (see note) */
	struct bdistat_reader *bdi;	/* NULL: no debugfs */
	struct cgsample *cg;		/* NULL: no memory cgroup hierarchy */
	struct wbloop interval;
	struct wbcum total;
	struct bdistat_sample stats;
	struct wbsample_dev *dev;	/* sorted by major:minor, as the last snapshot */
	size_t ndev, cap_dev;
	uint64_t devs_serial;		/* the last snapshot's (snapshot.h), 0 not known */
	uint64_t nr_dirtied;		/* the system's dirtied pages at the last sample */
	struct wbsample_dev *spare;	/* the next sample's table, swapped with dev */
	size_t cap_spare;
	uint64_t now_ms;
	char note[512];
};

/* The system-wide written-by-reason kinds, by the kernel's reason names. */
static const struct {
	const char *reason;
	enum snap_xsys kind;
} wbsample_reasons[] = {
	{ "background", SNAP_XSYS_WB_BACKGROUND_KB }, { "vmscan", SNAP_XSYS_WB_VMSCAN_KB },
	{ "sync", SNAP_XSYS_WB_SYNC_KB }, { "periodic", SNAP_XSYS_WB_PERIODIC_KB },
	{ "laptop_timer", SNAP_XSYS_WB_LAPTOP_TIMER_KB },
	{ "fs_free_space", SNAP_XSYS_WB_FS_FREE_SPACE_KB },
	{ "forker_thread", SNAP_XSYS_WB_FORKER_THREAD_KB },
	{ "foreign_flush", SNAP_XSYS_WB_FOREIGN_FLUSH_KB },
};

static void wbsample_note_add(struct wbsample *ws, const char *what, const char *why)
{
	size_t len = strlen(ws->note);
	snprintf(ws->note + len, sizeof ws->note - len, "%s%s: %s", len ? "; " : "", what, why);
}

int wbsample_open(struct wbsample **out, char *why, size_t whylen)
{
	*out = NULL;
	struct wbsample *ws = calloc(1, sizeof *ws);
	if (!ws)
		return -ENOMEM;
	wbloop_init(&ws->interval);
	wbcum_init(&ws->total);
	bdistat_sample_init(&ws->stats);
	char line[256];
	int rt = wbtrace_open(&ws->trace, line, sizeof line);
	if (rt)
		wbsample_note_add(ws, "throttling", line);
	else if (wbtrace_note(ws->trace)[0])
		wbsample_note_add(ws, "trace", wbtrace_note(ws->trace));
	int rb = bdistat_open(&ws->bdi, "/sys/kernel/debug", "/sys/fs/cgroup", line, sizeof line);
	if (rb)
		wbsample_note_add(ws, "per-device limits", line);
	else if (!bdistat_has_domains(ws->bdi) && !bdistat_root_only_is_device(ws->bdi))
		wbsample_note_add(ws, "per-device limits",
				  "no debugfs wb_stats in this kernel (before 6.10) and its stats "
				  "are the root cgroup's alone: dirty, writeback, threshold, "
				  "dirtied and written per device not shown; bandwidth from the "
				  "trace while throttled");
	if (cgsample_open(&ws->cg, "/sys/fs/cgroup", "/proc", line, sizeof line))
		wbsample_note_add(ws, "cgroups", line);
	if (rt && rb) {
		snprintf(why, whylen, "%s", ws->note);
		wbsample_close(ws);
		return rt;
	}
	*out = ws;
	return 0;
}

const char *wbsample_note(const struct wbsample *ws)
{
	return ws->note;
}

static int wbsample_add(struct snapshot *s, enum snap_xscope scope, unsigned kind, uint64_t obj,
			uint64_t value, int rc)
{
	return rc ? rc : snapshot_add_x(s, scope, kind, obj, value);
}

static int wbsample_trace_values(struct wbsample *ws, struct snapshot *out)
{
	const struct wbcum *c = &ws->total;
	uint64_t page_kb = out->page_size / 1024;
	int rc = 0;
	for (size_t i = 0; i < c->ntask; i++) {
		const struct wbcum_task *t = &c->task[i];
		uint64_t pid = (uint64_t)(uint32_t)t->pid;
		rc = wbsample_add(out, SNAP_XTASK, SNAP_XTASK_THROTTLED_MS, pid, t->paused_ms, rc);
		rc = wbsample_add(out, SNAP_XTASK, SNAP_XTASK_PAUSES, pid, t->pauses, rc);
		rc = wbsample_add(out, SNAP_XTASK, SNAP_XTASK_RATELIMIT_KBPS, pid,
				  t->task_ratelimit_kbps, rc);
		if (t->bdi_devt)
			rc = wbsample_add(out, SNAP_XTASK, SNAP_XTASK_BDI, pid,
					  snapshot_xobj_dev(t->bdi_major, t->bdi_minor), rc);
		if (!rc && t->comm[0])	/* wbcum keeps its tasks in pid order */
			rc = snapshot_add_comm(out, pid, t->comm);
	}
	for (size_t i = 0; i < c->nbdi; i++) {
		const struct wbcum_bdi *b = &c->bdi[i];
		if (!b->devt)
			continue;	/* not a block device: no row to put it on */
		uint64_t obj = snapshot_xobj_dev(b->major, b->minor);
		rc = wbsample_add(out, SNAP_XDEV, SNAP_XDEV_THROTTLED_MS, obj, b->throttled_ms, rc);
		rc = wbsample_add(out, SNAP_XDEV, SNAP_XDEV_PAUSES, obj, b->pauses, rc);
	}
	for (size_t r = 0; r < WBLOOP_NREASON; r++)
		for (size_t k = 0; k < sizeof wbsample_reasons / sizeof *wbsample_reasons; k++)
			if (strcmp(c->reason_name[r], wbsample_reasons[k].reason) == 0)
				rc = wbsample_add(out, SNAP_XSYS, wbsample_reasons[k].kind, 0,
						  c->written_pages[r] * page_kb, rc);
	for (size_t i = 0; i < c->ncg; i++) {
		const struct wbcum_cgroup *g = &c->cg[i];
		rc = wbsample_add(out, SNAP_XCG, SNAP_XCG_THROTTLED_MS, g->ino, g->throttled_ms, rc);
		rc = wbsample_add(out, SNAP_XCG, SNAP_XCG_PAUSES, g->ino, g->pauses, rc);
		rc = wbsample_add(out, SNAP_XCG, SNAP_XCG_WRITTEN_KB, g->ino, g->written_pages * page_kb,
				  rc);
	}
	rc = wbsample_add(out, SNAP_XSYS, SNAP_XSYS_TRACE_LOST, 0, c->lost_events, rc);
	if (c->has_global)
		rc = wbsample_add(out, SNAP_XSYS, SNAP_XSYS_DIRTY_LIMIT_KB, 0,
				  c->dirty_limit_pages * page_kb, rc);
	return rc;
}

static int wbsample_bdi_values(struct wbsample *ws, struct snapshot *out)
{
	int rc = 0;
	/* Before wb_stats (6.10) a device's stats file is its root cgroup's domain
	 * alone: its figures only where no cgroup can have a domain of its own. */
	bool root_only_ok = bdistat_has_domains(ws->bdi) || bdistat_root_only_is_device(ws->bdi);
	for (size_t i = 0; root_only_ok && i < ws->stats.ndev; i++) {
		const struct bdistat_dev *d = &ws->stats.dev[i];
		uint64_t obj = snapshot_xobj_dev(d->major, d->minor);
		static const struct { enum bdistat_field f; enum snap_xdev kind; } map[] = {
			{ BDS_RECLAIMABLE, SNAP_XDEV_WB_DIRTY_KB },
			{ BDS_WRITEBACK, SNAP_XDEV_WB_WRITEBACK_KB },
			{ BDS_BDI_THRESH, SNAP_XDEV_WB_THRESH_KB },
			{ BDS_DIRTIED, SNAP_XDEV_WB_DIRTIED_KB },
			{ BDS_WRITTEN, SNAP_XDEV_WB_WRITTEN_KB },
			{ BDS_WRITE_BW, SNAP_XDEV_WB_BW_KBPS },
		};
		for (size_t k = 0; k < sizeof map / sizeof *map; k++)
			if (d->have & 1u << map[k].f)
				rc = wbsample_add(out, SNAP_XDEV, map[k].kind, obj, d->kb[map[k].f],
						  rc);
	}
	if (root_only_ok || !ws->trace)
		return rc;
	/* the bandwidth the kernel estimated for the domains throttled in the
	 * interval, from bdi_dirty_ratelimit */
	for (size_t i = 0; i < ws->interval.nbdi; i++) {
		uint32_t ma, mi;
		uint64_t bw;
		if (wbloop_bdi_devt(ws->interval.bdi[i].bdi, &ma, &mi) &&
		    wbloop_bdi_bw_kbps(&ws->interval, i, &bw))
			rc = wbsample_add(out, SNAP_XDEV, SNAP_XDEV_WB_BW_KBPS, snapshot_xobj_dev(ma, mi),
					  bw, rc);
	}
	return rc;
}

static struct wbsample_dev *wbsample_dev_find(struct wbsample *ws, uint32_t major, uint32_t minor)
{
	size_t lo = 0, hi = ws->ndev;
	uint64_t key = snapshot_xobj_dev(major, minor);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k = snapshot_xobj_dev(ws->dev[mid].major, ws->dev[mid].minor);
		if (k == key)
			return &ws->dev[mid];
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Whether s lists the devices of the table, in its order: the usual sample. */
static bool wbsample_same_devs(const struct wbsample *ws, const struct snapshot *s)
{
	if (s->ndev != ws->ndev)
		return false;
	if (s->devs_serial && s->devs_serial == ws->devs_serial)
		return true;	/* its source says so */
	for (size_t i = 0; i < s->ndev; i++)
		if (s->dev[i].major != ws->dev[i].major || s->dev[i].minor != ws->dev[i].minor)
			return false;
	return true;
}

/* A device's write counters into its row: one that moved is to be read now. */
static void wbsample_dev_io(struct wbsample_dev *w, const struct dev_counters *d)
{
	uint64_t io = d->f[DS_WR_SECT] + d->f[DS_WR_IOS] + d->f[DS_IN_FLIGHT];
	if (io != w->io)
		w->read_ms = 0;	/* I/O since: read it now */
	w->io = io;
}

/* The device table of this sample, with what the last one knew carried
 * over: a device whose write counters moved is marked by io. */
static int wbsample_devs(struct wbsample *ws, const struct snapshot *s)
{
	/* the same devices as last time: each row where it is (a new table costs a copy of
	 * every row, thousands of them every sample) */
	if (wbsample_same_devs(ws, s)) {
		for (size_t i = 0; i < s->ndev; i++)
			wbsample_dev_io(&ws->dev[i], &s->dev[i]);
		return 0;
	}
	ws->devs_serial = 0;	/* until the new table is made */
	if (grow_array((void **)&ws->spare, &ws->cap_spare, s->ndev, sizeof *ws->spare, 32))
		return -ENOMEM;
	struct wbsample_dev *n = ws->spare;
	/* both tables are in (major, minor) order: one merge, the same device at the same
	 * place one comparison (not a search a device: thousands of them every sample) */
	size_t j = 0;
	for (size_t i = 0; i < s->ndev; i++) {
		const struct dev_counters *d = &s->dev[i];
		uint64_t key = snapshot_xobj_dev(d->major, d->minor);
		while (j < ws->ndev && snapshot_xobj_dev(ws->dev[j].major, ws->dev[j].minor) < key)
			j++;
		const struct wbsample_dev *old = j < ws->ndev &&
			snapshot_xobj_dev(ws->dev[j].major, ws->dev[j].minor) == key ? &ws->dev[j] : NULL;
		n[i] = old ? *old : (struct wbsample_dev){ d->major, d->minor, 0, 0, false };
		wbsample_dev_io(&n[i], d);
	}
	ws->spare = ws->dev;	/* two tables, swapped: no allocation in steady state */
	size_t cap = ws->cap_spare;
	ws->cap_spare = ws->cap_dev;
	ws->dev = n;
	ws->cap_dev = cap;
	ws->ndev = s->ndev;
	ws->devs_serial = s->devs_serial;
	return 0;
}

/* Pages dirtied anywhere since the last sample may sit on a device with no
 * write I/O yet and none when last read (a writer that just started): every
 * device that may hold a mounted filesystem's pages is read now, so its
 * dirty pages are never shown absent.  Those are the mounted devices and
 * the disks of mounted partitions (a partition has no BDI of its own; its
 * disk is the whole device before it whose name starts its name: sda for
 * sda1, nvme0n1 for nvme0n1p2, wherever the numbers put it).  Not every
 * device: on a machine of thousands (multipath paths) only the few mounted. */
static void wbsample_dirtied(struct wbsample *ws, const struct snapshot *s)
{
	uint64_t d = s->sys.nr_dirtied_pages;
	bool moved = d != ws->nr_dirtied;
	ws->nr_dirtied = d;
	for (size_t i = 0; moved && i < s->ndev && i < ws->ndev; i++) {
		const struct dev_ident *id = s->dev[i].ident;
		if (!id || !id->mounts)
			continue;
		ws->dev[i].read_ms = 0;
		for (size_t j = i; id->partition && j-- > 0;) {
			const struct dev_ident *dj = s->dev[j].ident;
			size_t n = strlen(s->dev[j].name);
			if ((!dj || !dj->partition) && n && strncmp(s->dev[i].name, s->dev[j].name, n) == 0) {
				ws->dev[j].read_ms = 0;
				break;
			}
		}
	}
}

static bool wbsample_want(void *ctx, uint32_t major, uint32_t minor)
{
	struct wbsample *ws = ctx;
	struct wbsample_dev *d = wbsample_dev_find(ws, major, minor);
	if (!d)
		return false;	/* not a device of the sample: no row to put it on */
	if (d->read_ms && !d->busy && ws->now_ms - d->read_ms < WBSAMPLE_IDLE_MS)
		return false;
	d->read_ms = ws->now_ms ? ws->now_ms : 1;
	return true;
}

/* Without wb_stats (before 6.10) a cgroup's bandwidth is what the trace
 * gives while it is throttled: the last write_bw of each of its domains in
 * bdi_dirty_ratelimit, summed over the devices (cgsample has no domains to
 * take it from there; with wb_stats this adds nothing). */
static int wbsample_cg_bw(struct wbsample *ws, struct snapshot *out)
{
	if (!ws->trace || (ws->bdi && bdistat_has_domains(ws->bdi)))
		return 0;
	int rc = 0;
	for (size_t i = 0; !rc && i < ws->interval.ndom; i++) {
		uint64_t ino = ws->interval.dom[i].cgroup_ino, bw;
		bool first = true;	/* once a cgroup: at its first domain */
		for (size_t j = 0; first && j < i; j++)
			first = ws->interval.dom[j].cgroup_ino != ino;
		if (first && wbloop_cg_bw_kbps(&ws->interval, ino, &bw))
			rc = wbsample_add(out, SNAP_XCG, SNAP_XCG_WB_BW_KBPS, ino, bw, rc);
	}
	return rc;
}

/* A memory cgroup (v2: one that can have writeback domains) the trace has
 * seen nothing of since it began: its domain's pauses, paused time and
 * flusher pages are 0, a count (the trace ran), not absent.  Without this
 * its first event's interval had no rate (the lab on 6.1: a cgroup's first
 * flusher interval was null). */
static int wbsample_cg_unseen(struct wbsample *ws, struct snapshot *out)
{
	const struct wbcum *c = &ws->total;
	int rc = 0;
	size_t j = 0;
	for (size_t i = 0; !rc && i < out->ncg; i++) {
		uint64_t ino = out->cg[i].ino;
		while (j < c->ncg && c->cg[j].ino < ino)
			j++;
		if (out->cg[i].gone || (j < c->ncg && c->cg[j].ino == ino))
			continue;
		rc = wbsample_add(out, SNAP_XCG, SNAP_XCG_THROTTLED_MS, ino, 0, rc);
		rc = wbsample_add(out, SNAP_XCG, SNAP_XCG_PAUSES, ino, 0, rc);
		rc = wbsample_add(out, SNAP_XCG, SNAP_XCG_WRITTEN_KB, ino, 0, rc);
	}
	return rc;
}

int wbsample_read(struct wbsample *ws, struct snapshot *out)
{
	int rc = 0;
	if (ws->trace) {
		rc = wbtrace_read(ws->trace, &ws->interval);
		if (!rc)
			rc = wbcum_add(&ws->total, &ws->interval, out->mono_ns / 1000000,
				       WBSAMPLE_KEEP_MS);
		if (!rc)
			rc = wbsample_trace_values(ws, out);
	}
	if (!rc && ws->bdi) {
		ws->now_ms = out->mono_ns / 1000000;
		rc = wbsample_devs(ws, out);
		if (!rc)
			wbsample_dirtied(ws, out);
		if (!rc)
			rc = bdistat_read_some(ws->bdi, &ws->stats, false, wbsample_want, ws);
		for (size_t i = 0; !rc && i < ws->stats.ndev; i++) {
			const struct bdistat_dev *d = &ws->stats.dev[i];
			struct wbsample_dev *k = wbsample_dev_find(ws, d->major, d->minor);
			if (k)
				k->busy = d->kb[BDS_RECLAIMABLE] || d->kb[BDS_WRITEBACK];
		}
		if (!rc)
			rc = wbsample_bdi_values(ws, out);
	}
	if (!rc && ws->cg)
		rc = cgsample_read(ws->cg, out, ws->trace ? &ws->interval : NULL, wbsample_totals(ws),
				   ws->bdi ? &ws->stats : NULL);
	if (!rc && ws->cg)
		rc = wbsample_cg_bw(ws, out);
	if (!rc && ws->cg && ws->trace && cgsample_v2(ws->cg))
		rc = wbsample_cg_unseen(ws, out);
	return rc;
}

const struct wbcum *wbsample_totals(const struct wbsample *ws)
{
	return ws->trace ? &ws->total : NULL;
}

void wbsample_close(struct wbsample *ws)
{
	if (!ws)
		return;
	wbtrace_close(ws->trace);
	bdistat_close(ws->bdi);
	cgsample_close(ws->cg);
	wbloop_free(&ws->interval);
	wbcum_free(&ws->total);
	bdistat_sample_free(&ws->stats);
	free(ws->dev);
	free(ws->spare);
	free(ws);
}
