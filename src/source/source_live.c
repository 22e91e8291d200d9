/*
 * source_live.c - the live source: one snapshot of this machine per call.
 *
 * System figures from libproc2's select interface, device counters from our own parse
 * of /proc/diskstats, knobs from /proc/sys/vm (doc/design.md, "Live sampling").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libproc2/meminfo.h>
#include <libproc2/stat.h>
#include <libproc2/vmstat.h>

#include "source/diskstats.h"
#include "util/grow.h"
#include "core/ident.h"
#include "source/ident_probe.h"
#include "core/knob.h"
#include "core/procs.h"
#include "source/procs_reader.h"
#include "core/source.h"
#include "util/sysfs.h"
#include "source/wbsample.h"

#define PROC_DISKSTATS "/proc/diskstats"
#define PROC_SYS_VM "/proc/sys/vm"

/* What the previous sample held, to hand identities on without lookups. */
struct live_known {
	uint32_t major, minor;
	char name[32];
	const struct dev_ident *ident;
};

struct live {
	struct vmstat_info *vm;
	struct meminfo_info *mem;
	struct stat_info *stat;
	struct ident_table *idents;
	struct ident_probe *probe;	/* fills idents */
	char *text;		/* diskstats text, grown to fit */
	size_t text_cap;
	struct live_known *known;
	size_t nknown, known_cap;
	uint64_t devs_serial;	/* of the list in known[] (snapshot.h) */
	bool known_stale;	/* known[] could not be rewritten: the next list is another */
	uint64_t page_size;
	struct procs_reader *procs;	/* non-NULL while processes are sampled */
	struct wbsample *wb;		/* non-NULL while the kernel's writeback loop is read */
};

static enum vmstat_item live_vm_items[] = {
	VMSTAT_PGPGIN, VMSTAT_PGPGOUT, VMSTAT_PSWPIN, VMSTAT_PSWPOUT,
	VMSTAT_NR_DIRTY, VMSTAT_NR_WRITEBACK, VMSTAT_NR_DIRTIED, VMSTAT_NR_WRITTEN,
	VMSTAT_NR_DIRTY_THRESHOLD, VMSTAT_NR_DIRTY_BACKGROUND_THRESHOLD,
};
enum { LV_PGPGIN, LV_PGPGOUT, LV_PSWPIN, LV_PSWPOUT, LV_NR_DIRTY, LV_NR_WRITEBACK,
       LV_NR_DIRTIED, LV_NR_WRITTEN, LV_DIRTY_THRESH, LV_BG_THRESH, LV_COUNT };

static enum meminfo_item live_mem_items[] = {
	MEMINFO_MEM_TOTAL, MEMINFO_MEM_AVAILABLE, MEMINFO_SWAP_USED, MEMINFO_MEM_FREE,
	MEMINFO_MEM_BUFFERS, MEMINFO_MEM_CACHED_ALL, MEMINFO_MEM_DIRTY, MEMINFO_MEM_WRITEBACK,
};
enum { LM_TOTAL, LM_AVAIL, LM_SWPD, LM_FREE, LM_BUFF, LM_CACHE, LM_DIRTY, LM_WRITEBACK, LM_COUNT };

static enum stat_item live_stat_items[] = {
	STAT_TIC_USER, STAT_TIC_NICE, STAT_TIC_SYSTEM, STAT_TIC_IDLE, STAT_TIC_IOWAIT,
	STAT_TIC_IRQ, STAT_TIC_SOFTIRQ, STAT_TIC_STOLEN, STAT_TIC_GUEST, STAT_TIC_GUEST_NICE,
	STAT_SYS_INTERRUPTS, STAT_SYS_CTX_SWITCHES, STAT_SYS_PROC_RUNNING, STAT_SYS_PROC_BLOCKED,
};
enum { LS_INTR = CPU_NFIELDS, LS_CTXT, LS_RUNNING, LS_BLOCKED, LS_COUNT };

#define NITEMS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int source_live_read_sys(struct live *l, struct sys_counters *c, char *err, size_t errlen)
{
	struct vmstat_stack *v = procps_vmstat_select(l->vm, live_vm_items, NITEMS(live_vm_items));
	if (!v) {
		snprintf(err, errlen, "/proc/vmstat: cannot be read or parsed (%s)", strerror(errno ? errno : EIO));
		return -EIO;
	}
	c->pgpgin_kb = VMSTAT_VAL(LV_PGPGIN, ul_int, v, l->vm);
	c->pgpgout_kb = VMSTAT_VAL(LV_PGPGOUT, ul_int, v, l->vm);
	c->pswpin_pages = VMSTAT_VAL(LV_PSWPIN, ul_int, v, l->vm);
	c->pswpout_pages = VMSTAT_VAL(LV_PSWPOUT, ul_int, v, l->vm);
	c->nr_dirty_pages = VMSTAT_VAL(LV_NR_DIRTY, ul_int, v, l->vm);
	c->nr_writeback_pages = VMSTAT_VAL(LV_NR_WRITEBACK, ul_int, v, l->vm);
	c->nr_dirtied_pages = VMSTAT_VAL(LV_NR_DIRTIED, ul_int, v, l->vm);
	c->nr_written_pages = VMSTAT_VAL(LV_NR_WRITTEN, ul_int, v, l->vm);
	c->dirty_thresh_pages = VMSTAT_VAL(LV_DIRTY_THRESH, ul_int, v, l->vm);
	c->bg_thresh_pages = VMSTAT_VAL(LV_BG_THRESH, ul_int, v, l->vm);

	struct meminfo_stack *m = procps_meminfo_select(l->mem, live_mem_items, NITEMS(live_mem_items));
	if (!m) {
		snprintf(err, errlen, "/proc/meminfo: cannot be read or parsed (%s)", strerror(errno ? errno : EIO));
		return -EIO;
	}
	c->mem_total_kb = MEMINFO_VAL(LM_TOTAL, ul_int, m, l->mem);
	c->mem_avail_kb = MEMINFO_VAL(LM_AVAIL, ul_int, m, l->mem);
	c->swpd_kb = MEMINFO_VAL(LM_SWPD, ul_int, m, l->mem);
	c->free_kb = MEMINFO_VAL(LM_FREE, ul_int, m, l->mem);
	c->buff_kb = MEMINFO_VAL(LM_BUFF, ul_int, m, l->mem);
	c->cache_kb = MEMINFO_VAL(LM_CACHE, ul_int, m, l->mem);
	c->dirty_kb = MEMINFO_VAL(LM_DIRTY, ul_int, m, l->mem);
	c->writeback_kb = MEMINFO_VAL(LM_WRITEBACK, ul_int, m, l->mem);

	struct stat_stack *s = procps_stat_select(l->stat, live_stat_items, NITEMS(live_stat_items));
	if (!s) {
		snprintf(err, errlen, "/proc/stat: cannot be read or parsed (%s)", strerror(errno ? errno : EIO));
		return -EIO;
	}
	for (int i = 0; i < CPU_NFIELDS; i++)
		c->cpu_jif[i] = STAT_VAL(i, ull_int, s, l->stat);
	c->intr = STAT_VAL(LS_INTR, ul_int, s, l->stat);
	c->ctxt = STAT_VAL(LS_CTXT, ul_int, s, l->stat);
	c->procs_running = STAT_VAL(LS_RUNNING, ul_int, s, l->stat);
	c->procs_blocked = STAT_VAL(LS_BLOCKED, ul_int, s, l->stat);
	return 0;
}

/* Read a whole (small, non-seekable-size) proc file into l->text. */
static int source_live_slurp(struct live *l, const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t n = 0;
	for (;;) {
		if (l->text_cap - n < 4096 + 1) {	/* + 1: the parser's NUL */
			size_t cap = l->text_cap ? l->text_cap * 2 : 65536;
			char *t = realloc(l->text, cap);
			if (!t) {
				close(fd);
				return -ENOMEM;
			}
			l->text = t;
			l->text_cap = cap;
		}
		ssize_t r = read(fd, l->text + n, l->text_cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = -errno;
			close(fd);
			return e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	l->text[n] = '\0';
	*len = n;
	return 0;
}

static int64_t source_live_read_knob(const char *file)
{
	char path[128];
	snprintf(path, sizeof path, PROC_SYS_VM "/%s", file);
	int64_t v;
	return sysfs_read_int(path, &v) == 0 && v >= 0 ? v : -1;	/* -1: unreadable */
}

/* libproc2 reports a counter missing from /proc/vmstat as 0, which would
 * pass for "no dirty data, no limit".  So check once, at open, that the
 * writeback counters are there at all (they are on every kernel since
 * 2.6.29); a file without them is refused with its name. */
static int source_live_check_vmstat(struct live *l, char *errbuf, size_t errlen)
{
	static const char *const need[] = {
		"pgpgout ", "nr_dirty ", "nr_writeback ", "nr_dirty_threshold ",
		"nr_dirty_background_threshold ", "nr_dirtied ", "nr_written ",
	};
	size_t len;
	int rc = source_live_slurp(l, "/proc/vmstat", &len);
	if (rc < 0) {
		snprintf(errbuf, errlen, "/proc/vmstat: %s", strerror(-rc));
		return rc;
	}
	for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
		const char *hit = strstr(l->text, need[i]);
		if (!hit || (hit != l->text && hit[-1] != '\n')) {
			snprintf(errbuf, errlen, "/proc/vmstat: no %.*s counter: not a Linux vmstat file?",
				 (int)strlen(need[i]) - 1, need[i]);
			return -EINVAL;
		}
	}
	return 0;
}

static int source_live_known_reserve(struct live *l, size_t n)
{
	return grow_array((void **)&l->known, &l->known_cap, n, sizeof *l->known, 64);
}

/* Is d the device known[j] names (same numbers, same name)? */
static bool source_live_same_dev(const struct live_known *k, const struct dev_counters *d)
{
	return k->major == d->major && k->minor == d->minor && snapshot_dev_name_eq(k->name, d->name);
}

/* Give every device its identity: carried over from the last sample when
 * the device is the same (one merge pass over two sorted lists), looked up
 * when it is new; devices that vanished are released.  The list of known
 * devices is rewritten only when the set changed: in steady state a device
 * costs one comparison. */
static int source_live_attach_idents(struct live *l, struct snapshot *s)
{
	size_t j = 0;
	bool changed = s->ndev != l->nknown || l->known_stale;
	ident_table_sweep(l->idents);
	ident_probe_refresh_mounts(l->probe, l->idents);
	for (size_t i = 0; i < s->ndev; i++) {
		struct dev_counters *d = &s->dev[i];
		if (j < l->nknown && source_live_same_dev(&l->known[j], d)) {	/* the common case */
			d->ident = l->known[j++].ident;
			continue;
		}
		changed = true;
		while (j < l->nknown && (l->known[j].major < d->major ||
		       (l->known[j].major == d->major && l->known[j].minor < d->minor))) {
			ident_table_release(l->idents, l->known[j].major, l->known[j].minor);
			j++;
		}
		/* Same numbers, another name: ident_probe_get() replaces the old
		 * identity in place, so it is not released (that would free the
		 * new one later). */
		if (j < l->nknown && l->known[j].major == d->major && l->known[j].minor == d->minor)
			j++;
		d->ident = ident_probe_get(l->probe, l->idents, d->major, d->minor, d->name);
	}
	for (; j < l->nknown; j++)
		ident_table_release(l->idents, l->known[j].major, l->known[j].minor);
	if (!changed) {
		s->devs_serial = l->devs_serial;
		return 0;
	}
	/* a new list, a new number, whatever comes of known[] */
	s->devs_serial = ++l->devs_serial;
	l->known_stale = true;
	if (source_live_known_reserve(l, s->ndev) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < s->ndev; i++) {
		struct live_known *k = &l->known[i];
		k->major = s->dev[i].major;
		k->minor = s->dev[i].minor;
		memcpy(k->name, s->dev[i].name, sizeof k->name);
		k->ident = s->dev[i].ident;
	}
	l->nknown = s->ndev;
	l->known_stale = false;
	return 0;
}

static uint64_t source_live_clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int source_live_next(struct source *src, struct snapshot *out)
{
	struct live *l = src->impl;
	size_t len = 0;
	int rc = source_live_slurp(l, PROC_DISKSTATS, &len);
	if (rc < 0) {
		snprintf(src->errmsg, sizeof src->errmsg, PROC_DISKSTATS ": %s", strerror(-rc));
		return rc;
	}
	/* The timestamp goes with the device counters, the figures whose
	 * rates are most sensitive to it. */
	out->mono_ns = source_live_clock_ns(CLOCK_MONOTONIC);
	out->wall_ns = (int64_t)source_live_clock_ns(CLOCK_REALTIME);
	out->page_size = l->page_size;
	rc = diskstats_parse(l->text, len, out, NULL);
	if (rc < 0) {
		snprintf(src->errmsg, sizeof src->errmsg, PROC_DISKSTATS ": %s", strerror(-rc));
		return rc;
	}
	rc = source_live_read_sys(l, &out->sys, src->errmsg, sizeof src->errmsg);
	if (rc < 0)
		return rc;
	for (int k = 0; k < KNOB_VM_COUNT; k++)
		out->knob[k] = source_live_read_knob(knob_vm_table[k].file);
	rc = source_live_attach_idents(l, out);
	if (rc < 0) {
		snprintf(src->errmsg, sizeof src->errmsg, "device identities: %s", strerror(-rc));
		return rc;
	}
	/* Processes are extra: a sample whose process scan failed (out of
	 * memory, /proc unreadable mid-way) still has every other figure, so
	 * it goes on without processes rather than failing whole. */
	out->nproc = 0;
	if (l->procs && procs_reader_sample(l->procs, out) < 0)
		out->nproc = 0;
	/* The same for the writeback loop: a failed read leaves its values
	 * out (none rather than stale ones) and the sample goes on. */
	size_t nx = out->nx;
	if (l->wb && wbsample_read(l->wb, out) < 0)
		out->nx = nx;
	return 0;
}

static void source_live_close(struct source *src)
{
	struct live *l = src->impl;
	if (l) {
		if (l->vm)
			procps_vmstat_unref(&l->vm);
		if (l->mem)
			procps_meminfo_unref(&l->mem);
		if (l->stat)
			procps_stat_unref(&l->stat);
		ident_table_free(l->idents);
		ident_probe_free(l->probe);
		procs_reader_free(l->procs);
		wbsample_close(l->wb);
		free(l->text);
		free(l->known);
		free(l);
	}
	free(src);
}

static struct ident_table *source_live_idents(struct source *src)
{
	return ((struct live *)src->impl)->idents;
}

static int source_live_kernel_loop(struct source *src, bool on, char *why, size_t whylen)
{
	struct live *l = src->impl;
	if (!on) {
		wbsample_close(l->wb);
		l->wb = NULL;
		return 0;
	}
	if (l->wb)
		return 0;
	int rc = wbsample_open(&l->wb, why, whylen);
	if (!rc && why && whylen)
		snprintf(why, whylen, "%s", wbsample_note(l->wb));
	return rc;
}

static int source_live_sample_procs(struct source *src, bool on)
{
	struct live *l = src->impl;
	if (!on) {
		procs_reader_free(l->procs);
		l->procs = NULL;
		return 0;
	}
	if (!l->procs && !(l->procs = procs_reader_new()))
		return -ENOMEM;
	return 0;
}

static const struct source_ops live_ops = {
	.kind = "live",
	.next = source_live_next,
	.close = source_live_close,
	.idents = source_live_idents,
	.sample_procs = source_live_sample_procs,
	.kernel_loop = source_live_kernel_loop,
};

struct source *source_live_open(char *errbuf, size_t errlen)
{
	struct source *src = calloc(1, sizeof *src);
	struct live *l = calloc(1, sizeof *l);
	if (!src || !l) {
		free(src);
		free(l);
		snprintf(errbuf, errlen, "out of memory");
		return NULL;
	}
	src->ops = &live_ops;
	src->impl = l;
	long ps = sysconf(_SC_PAGESIZE);
	l->page_size = ps > 0 ? (uint64_t)ps : 4096;
	int rc;
	if ((rc = procps_vmstat_new(&l->vm)) < 0)
		snprintf(errbuf, errlen, "/proc/vmstat: %s", strerror(-rc));
	else if ((rc = procps_meminfo_new(&l->mem)) < 0)
		snprintf(errbuf, errlen, "/proc/meminfo: %s", strerror(-rc));
	else if ((rc = procps_stat_new(&l->stat)) < 0)
		snprintf(errbuf, errlen, "/proc/stat: %s", strerror(-rc));
	else if (!(l->idents = ident_table_new()) || !(l->probe = ident_probe_new())) {
		snprintf(errbuf, errlen, "out of memory");
		rc = -ENOMEM;
	} else if (access(PROC_DISKSTATS, R_OK) < 0) {
		rc = -errno;
		snprintf(errbuf, errlen, PROC_DISKSTATS ": %s", strerror(errno));
	} else {
		rc = source_live_check_vmstat(l, errbuf, errlen);
	}
	if (rc < 0) {
		source_live_close(src);
		return NULL;
	}
	return src;
}

