/*
 * snapshot.h - one sample of everything wbtop watches, as raw counters.
 *
 * What every source (live, replay, import) hands on: cumulative counters and gauges as
 * read, and when.  Never rates: they come from two snapshots (derive.h).  Units are in
 * the names: _kb, _pages, _sect (512 B), _ms, _cs, _ns, _jif (USER_HZ ticks).
 */
#ifndef WBTOP_SNAPSHOT_H
#define WBTOP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Columns of the "cpu" line of /proc/stat, in kernel order. */
enum cpu_field {
	CPU_USER, CPU_NICE, CPU_SYSTEM, CPU_IDLE, CPU_IOWAIT,
	CPU_IRQ, CPU_SOFTIRQ, CPU_STEAL, CPU_GUEST, CPU_GUEST_NICE,
	CPU_NFIELDS
};

/* System-wide figures from /proc/vmstat, /proc/meminfo and /proc/stat. */
struct sys_counters {
	/* gauges (instantaneous) */
	uint64_t procs_running, procs_blocked;
	uint64_t mem_total_kb, mem_avail_kb;
	uint64_t swpd_kb, free_kb, buff_kb, cache_kb;	/* as vmstat: cache = Cached + SReclaimable */
	uint64_t dirty_kb, writeback_kb;		/* meminfo Dirty, Writeback */
	uint64_t nr_dirty_pages, nr_writeback_pages;	/* /proc/vmstat */
	uint64_t dirty_thresh_pages, bg_thresh_pages;	/* nr_dirty_threshold, nr_dirty_background_threshold */
	/* cumulative counters */
	uint64_t pgpgin_kb, pgpgout_kb;			/* vmstat's bi/bo source, KiB despite the name */
	uint64_t pswpin_pages, pswpout_pages;
	uint64_t nr_dirtied_pages, nr_written_pages;
	uint64_t intr, ctxt;
	uint64_t cpu_jif[CPU_NFIELDS];
};

/* The stat fields of one /proc/diskstats line, in kernel order. */
enum disk_field {
	DS_RD_IOS, DS_RD_MERGES, DS_RD_SECT, DS_RD_MS,
	DS_WR_IOS, DS_WR_MERGES, DS_WR_SECT, DS_WR_MS,
	DS_IN_FLIGHT, DS_IO_MS, DS_QUEUE_MS,
	DS_DC_IOS, DS_DC_MERGES, DS_DC_SECT, DS_DC_MS,	/* kernel 4.18+ */
	DS_FL_IOS, DS_FL_MS,				/* kernel 5.5+ */
	DS_NFIELDS
};

struct dev_ident;	/* ident.h: names a device; owned by the source */

/* One block device in one sample. */
struct dev_counters {
	uint32_t major, minor;
	char name[32];			/* kernel name (DISK_NAME_LEN is 32) */
	uint8_t nfields;		/* stat fields the kernel gave: 4, 11, 15 or 17 */
	uint64_t f[DS_NFIELDS];		/* fields the kernel did not give are 0 */
	const struct dev_ident *ident;	/* may be NULL; valid while its source lives */
};

/* One process, when process sampling is on (the process pane, -P).
 * Counters from /proc/PID/io and /proc/PID/stat; see procs.h. */
#define SNAP_WDEV_MAX 4

struct proc_counters {
	int32_t pid;
	char comm[32];			/* kernel threads: "kworker/u8:2+flush-7:0" */
	char state;			/* R, S, D, ...; X: exited in the interval (core/procs.h) */
	bool kthread;
	bool io_hidden;			/* /proc/PID/io unreadable (not root): write figures unknown */
	bool self;			/* the wbtop that sampled: its writes are its recording's */
	/* /proc/PID/io; write_bytes and cancelled_write_bytes are the process's
	 * own (its threads', live and exited; not the children it reaped:
	 * procs_acct.h), read_bytes includes them */
	uint64_t read_bytes, write_bytes, cancelled_write_bytes;
	uint64_t utime_jif, stime_jif;
	uint64_t start_tics;		/* stat's start time, telling a reused pid; live only */
	char wchan[40];			/* where a D-state task sleeps; "" if unknown */
	uint32_t flush_major, flush_minor;	/* device a flush worker serves; 0:0 if none */
	char cmdline[128];		/* argv joined by spaces, cut; "" for a kernel thread or
					 * unknown (live only: recordings keep comm) */
	/* The block devices it has files open for writing on (procs_wdev.h),
	 * MAJ << 32 | MIN, at most SNAP_WDEV_MAX (wdev_more: there are more);
	 * live only. */
	uint8_t nwdev;
	bool wdev_more;
	uint64_t wdev[SNAP_WDEV_MAX];
};

/* ---- Values beside the fixed blocks ----------------------------------------
 * Gauges and counters a source reads outside /proc/diskstats, /proc/PID/io and
 * the vm files (debugfs, tracefs, cgroup files): per device, per task or for
 * the whole system.  A kind of value is an entry of one of the enums below and
 * a row of snap_xkind_table (snapshot.c: its name in recordings, unit, gauge
 * or counter); nothing else needs to know it.  A snapshot holds only the values a
 * source actually read, as a list sorted by (scope, object, kind): a device or
 * task without a value has none, rather than a zero.  The recorder stores
 * them in their own table by kind name (doc/recording.md), so the diskstats
 * codec is untouched and a recording replays in a build that lacks a kind.
 */
enum snap_xscope { SNAP_XDEV, SNAP_XTASK, SNAP_XSYS, SNAP_XCG, SNAP_NXSCOPE };

/* Per device: the kernel's writeback state of its BDI (debugfs bdi/stats and
 * wb_stats; doc/kernel-loop.md), and the throttling of the tasks held to its
 * limit (tracefs balance_dirty_pages). */
enum snap_xdev {
	SNAP_XDEV_WB_DIRTY_KB,		/* gauge: BdiReclaimable (dirty pages), KiB */
	SNAP_XDEV_WB_THRESH_KB,		/* gauge: BdiDirtyThresh, KiB */
	SNAP_XDEV_WB_BW_KBPS,		/* gauge: the kernel's write bandwidth estimate, KiB/s */
	SNAP_XDEV_WB_WRITEBACK_KB,	/* gauge: BdiWriteback, KiB */
	SNAP_XDEV_WB_DIRTIED_KB,	/* counter: BdiDirtied, KiB */
	SNAP_XDEV_WB_WRITTEN_KB,	/* counter: BdiWritten, KiB */
	SNAP_XDEV_THROTTLED_MS,		/* counter: pauses of its tasks, ms */
	SNAP_XDEV_PAUSES,		/* counter: pauses of its tasks */
	SNAP_NXDEV
};
/* Per task: its pauses in balance_dirty_pages (tracefs). */
enum snap_xtask {
	SNAP_XTASK_THROTTLED_MS,	/* counter, ms */
	SNAP_XTASK_PAUSES,		/* counter */
	SNAP_XTASK_RATELIMIT_KBPS,	/* gauge: task_ratelimit of its last decision, KiB/s */
	SNAP_XTASK_BDI,			/* gauge: the device it was held on, major << 32 | minor */
	SNAP_NXTASK
};
/* System-wide: the limit writers are held to, and the flusher's pages by
 * the reason it ran (tracefs global_dirty_state, writeback_start/_written). */
enum snap_xsys {
	SNAP_XSYS_DIRTY_LIMIT_KB,	/* gauge: global_dirty_state dirty_limit, KiB */
	SNAP_XSYS_TRACE_LOST,		/* counter: events the ring buffers lost */
	SNAP_XSYS_WB_BACKGROUND_KB,	/* counters: KiB written back, by reason */
	SNAP_XSYS_WB_VMSCAN_KB,
	SNAP_XSYS_WB_SYNC_KB,
	SNAP_XSYS_WB_PERIODIC_KB,
	SNAP_XSYS_WB_LAPTOP_TIMER_KB,
	SNAP_XSYS_WB_FS_FREE_SPACE_KB,
	SNAP_XSYS_WB_FORKER_THREAD_KB,
	SNAP_XSYS_WB_FOREIGN_FLUSH_KB,
	SNAP_NXSYS
};
/* Per memory cgroup (its inode number, the tracepoints' cgroup_ino): the
 * pauses in its writeback domain and what the flusher wrote for it
 * (tracefs); its page cache's dirty and writeback pages (memory.stat); its
 * writeback domains summed over the devices (debugfs wb_stats); the pauses
 * of the tasks in it (tracefs, each task's /proc/PID/cgroup). */
enum snap_xcg {
	SNAP_XCG_THROTTLED_MS,		/* counter, ms: of its writeback domain */
	SNAP_XCG_PAUSES,		/* counter */
	SNAP_XCG_WRITTEN_KB,		/* counter: written back by flusher passes, KiB */
	SNAP_XCG_FILE_DIRTY_KB,		/* gauge: memory.stat file_dirty (v1: dirty), KiB */
	SNAP_XCG_FILE_WRITEBACK_KB,	/* gauge: memory.stat file_writeback (v1: writeback), KiB */
	SNAP_XCG_WB_DIRTY_KB,		/* gauge: WbReclaimable over its domains, KiB */
	SNAP_XCG_WB_WRITEBACK_KB,	/* gauge: WbWriteback over its domains, KiB */
	SNAP_XCG_WB_THRESH_KB,		/* gauge: WbDirtyThresh over the domains with pages, KiB */
	SNAP_XCG_WB_BW_KBPS,		/* gauge: WbWriteBandwidth over the same, KiB/s */
	SNAP_XCG_WB_DIRTIED_KB,		/* counter: WbDirtied's growth over its domains, KiB */
	SNAP_XCG_WB_WRITTEN_KB,		/* counter: WbWritten's growth over its domains, KiB */
	SNAP_XCG_TASK_THROTTLED_MS,	/* counter: pauses of the tasks in it, ms */
	SNAP_XCG_TASK_PAUSES,		/* counter */
	SNAP_NXCG
};
/* C has no empty arrays: room for a scope's kinds, at least one slot. */
#define SNAP_XSLOTS(n) ((n) > 0 ? (n) : 1)

struct snap_xval {
	uint64_t obj;			/* device: major << 32 | minor; task: pid; system: 0;
					 * cgroup: its inode number */
	uint64_t value;
	uint16_t kind;			/* an entry of the scope's enum */
	uint8_t scope;			/* enum snap_xscope */
};

/* What a kind of value is: one row each, snap_xkind_table[SNAP_NXKINDS]. */
struct snap_xkind {
	enum snap_xscope scope;
	unsigned kind;			/* in the scope's enum */
	const char *name;		/* in recordings: unique over every scope */
	bool counter;			/* cumulative (derived as a rate per second), else a gauge */
	const char *unit;		/* of the value as read: "KiB", "KiB/s", "ms" */
	/* A counter its source starts at 0 for a new object (a task first
	 * throttled): 1 + the system kind its source adds to every sample it
	 * reads.  When the previous sample has that one but not this counter,
	 * the counter is new since and its rate counts from 0.  0: none (an
	 * object absent before has no rate yet). */
	unsigned from_zero;
};
#define SNAP_NXKINDS (SNAP_NXDEV + SNAP_NXTASK + SNAP_NXSYS + SNAP_NXCG)
extern const struct snap_xkind snap_xkind_table[SNAP_XSLOTS(SNAP_NXKINDS)];
/* The row of a kind, or NULL for one that does not exist. */
const struct snap_xkind *snapshot_xkind_find(enum snap_xscope scope, unsigned kind);
/* The row of a kind by its name in recordings, or NULL (a kind this build lacks). */
const struct snap_xkind *snapshot_xkind_by_name(const char *name);

/* The object number of a device in struct snap_xval. */
static inline uint64_t snapshot_xobj_dev(uint32_t major, uint32_t minor)
{
	return (uint64_t)major << 32 | minor;
}

/* A memory cgroup the sample has values of, by the inode number the
 * values use: its path below the hierarchy's root ("/" for the root; ""
 * when no walk found it), and whether it was removed since it was found
 * (cgpath.h).  Recordings keep the path, so a replay elsewhere names it. */
/* The command name of a task the trace saw pausing (the object of its SNAP_XTASK
 * values): the trace's own name for it, so that a task gone before the
 * sample is still named.  Live samples only; recordings keep processes. */
struct snap_comm {
	uint64_t pid;
	char comm[16];
};

struct snap_cgroup {
	uint64_t ino;
	bool gone;
	char path[256];
};

/* Writeback sysctls, indexed by enum knob_vm (knob.h); -1 = could not be read. */
#define SNAP_NKNOBS 7

struct snapshot {
	uint64_t mono_ns;		/* CLOCK_MONOTONIC at sampling: rates use this */
	int64_t wall_ns;		/* CLOCK_REALTIME at sampling: for display and recordings */
	uint64_t page_size;		/* bytes; the _pages fields are in these */
	struct sys_counters sys;
	int64_t knob[SNAP_NKNOBS];
	size_t ndev;			/* devices, sorted by (major, minor) */
	size_t cap_dev;
	struct dev_counters *dev;
	/* Which list of devices this is, as its source numbers them: two samples of one source
	 * with the same serial, not 0, list the same devices (numbers, names and identities) in
	 * the same order, so that whoever pairs a device with its last sample may take it at
	 * the same place. 0: not known (a replay, a test), pair them by their numbers. */
	uint64_t devs_serial;
	size_t nproc;			/* processes, sorted by pid; 0 unless sampled */
	size_t cap_proc;
	struct proc_counters *proc;
	size_t nx;			/* values beside the fixed blocks, sorted (see above) */
	size_t cap_x;
	struct snap_xval *x;
	size_t ncg;			/* memory cgroups' names, sorted by ino; 0 when none */
	size_t cap_cg;
	struct snap_cgroup *cg;
	/* A sample before the part of a replay that was asked for (--begin): the pipeline
	 * feeds its detectors with it, so that they know what they would know in the whole
	 * replay, and shows it to nobody. */
	bool lead;
	size_t ncomm;			/* names of the traced tasks, sorted by pid; 0 when none */
	size_t cap_comm;
	struct snap_comm *comm;
};

/* Whether cur lists the devices of prev (its sample before, of the same source), in the same
 * order: its source numbered the two lists the same (devs_serial). False when not known. */
static inline bool snapshot_same_devs(const struct snapshot *prev, const struct snapshot *cur)
{
	return prev && cur->devs_serial && cur->devs_serial == prev->devs_serial &&
	       cur->ndev == prev->ndev;
}

/* Whether two device names, each NUL-terminated within its 32 bytes, are
 * the same: compared a word at a time (a name's end is a zero byte inside
 * an equal word), which for a kernel name is one or two compares instead
 * of a call; bytes after the NUL may differ. */
static inline bool snapshot_dev_name_eq(const char *a, const char *b)
{
	for (size_t i = 0; i < 32; i += 8) {
		uint64_t x, y;
		memcpy(&x, a + i, sizeof x);
		memcpy(&y, b + i, sizeof y);
		if (x != y)
			return strcmp(a + i, b + i) == 0;
		if ((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull)
			return true;	/* a zero byte in both: the names ended equal */
	}
	return true;	/* 32 equal bytes without a NUL (not a valid name) */
}

/* Empty snapshot; no allocation until devices arrive. */
void snapshot_init(struct snapshot *s);
/* Release the device array; s can be reused after snapshot_init. */
void snapshot_free(struct snapshot *s);
/* Make room for n devices; 0 or -ENOMEM.  Existing devices are kept. */
int snapshot_reserve(struct snapshot *s, size_t n);
/* Make room for n processes; 0 or -ENOMEM. */
int snapshot_reserve_procs(struct snapshot *s, size_t n);
/* Deep copy src into dst (dst must be initialised); 0 or -ENOMEM. */
int snapshot_copy(struct snapshot *dst, const struct snapshot *src);
/* Sort devices by (major, minor) unless already sorted (the usual case: O(n)). */
void snapshot_sort_devs(struct snapshot *s);
/* Add a value beside the fixed blocks (any order: snapshot_sort_x sorts).
 * 0 or -ENOMEM; -EINVAL for a scope or kind that does not exist. */
int snapshot_add_x(struct snapshot *s, enum snap_xscope scope, unsigned kind, uint64_t obj,
		   uint64_t value);
/* Sort the values by (scope, object, kind) unless already sorted (O(n) then);
 * a value given twice is kept once.  source_next() does it for every source. */
void snapshot_sort_x(struct snapshot *s);
/* The first value of scope and object in a sorted snapshot (then the next
 * ones of the same object follow), or NULL. */
const struct snap_xval *snapshot_find_x(const struct snapshot *s, enum snap_xscope scope, uint64_t obj);
/* The value of kind of that object in a sorted snapshot, or NULL. */
const struct snap_xval *snapshot_find_xkind(const struct snapshot *s, enum snap_xscope scope, uint64_t obj,
					    unsigned kind);
/* Add a cgroup's name (any order: snapshot_sort_x sorts them too).  0 or -ENOMEM. */
int snapshot_add_cg(struct snapshot *s, uint64_t ino, const char *path, bool gone);
/* Add a traced task's name (in pid order).  0 or -ENOMEM. */
int snapshot_add_comm(struct snapshot *s, uint64_t pid, const char *comm);
/* The name of traced task pid, or NULL. */
const char *snapshot_find_comm(const struct snapshot *s, uint64_t pid);
/* The name of cgroup ino in a sorted snapshot, or NULL. */
const struct snap_cgroup *snapshot_find_cg(const struct snapshot *s, uint64_t ino);
/* Find a device by major:minor in a sorted snapshot; NULL if absent. */
const struct dev_counters *snapshot_find_dev(const struct snapshot *s, uint32_t major, uint32_t minor);

#endif
