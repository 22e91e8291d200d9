/*
 * procs_reader.c - sampling every process's write counters, state, CPU time
 * and, for tasks in D state, where they sleep (part of the live source).
 *
 * libproc2's pids interface reads /proc/PID/stat and io of every task; wchan
 * is read here, only for tasks in D state.  The figures are raw counters:
 * procs_rank (core/procs.h) turns two samples into rates.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libproc2/pids.h>

#include "util/grow.h"
#include "core/procs.h"
#include "source/procs_acct.h"
#include "source/procs_reader.h"
#include "source/procs_wdev.h"

/* A writer's open files are looked at again after this long at the least. */
#define PROCS_WDEV_EVERY_NS 1000000000ull

#define PROCS_PF_KTHREAD 0x00200000ul	/* task flag of kernel threads (include/linux/sched.h) */
/* /proc/PID/io is mode 0400, its owner's, behind a ptrace check: another user's takes both
 * the ptrace capability and one that passes the file's mode (seen: either alone, EACCES) */
#define PROCS_CAP_DAC_OVERRIDE 1
#define PROCS_CAP_DAC_READ_SEARCH 2
#define PROCS_CAP_SYS_PTRACE 19

static enum pids_item procs_reader_items[] = {
	PIDS_ID_PID, PIDS_CMD, PIDS_STATE, PIDS_FLAGS, PIDS_ID_EUID,
	PIDS_TICS_USER, PIDS_TICS_SYSTEM,
	PIDS_IO_READ_BYTES, PIDS_IO_WRITE_BYTES, PIDS_IO_WRITE_CBYTES,
	PIDS_IO_READ_CHARS, PIDS_IO_WRITE_CHARS, PIDS_CMDLINE, PIDS_TICS_BEGAN,
};
enum { PI_PID, PI_CMD, PI_STATE, PI_FLAGS, PI_EUID, PI_UTIME, PI_STIME,
       PI_RBYTES, PI_WBYTES, PI_CBYTES, PI_RCHAR, PI_WCHAR, PI_CMDLINE, PI_BEGAN, PI_COUNT };

struct procs_reader {
	struct pids_info *info;
	bool privileged;	/* every task's /proc/PID/io is readable */
	uid_t euid;
	pid_t self;		/* this process: marked in the sample as wbtop's own */
	struct procs_acct *acct;	/* each process's own counters (procs_acct.h) */
	struct procs_wdev *wdev;	/* the devices written to (procs_wdev.h) */
	uint64_t now_ns;	/* CLOCK_MONOTONIC of this sample */
	uint64_t nsamples;	/* taken before this one */
	char buf[8192];		/* /proc/PID/wchan or stack; a deep stack is cut, which is fine */
};

/* ---- sampling ---- */

/* What reading every task's /proc/PID/io takes, in our effective set (from /proc/self/status):
 * CAP_SYS_PTRACE, and CAP_DAC_READ_SEARCH or CAP_DAC_OVERRIDE. */
static bool procs_reader_have_ptrace_cap(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	if (!f)
		return false;
	char line[256];
	unsigned long long eff = 0;
	bool found = false;
	while (!found && fgets(line, sizeof line, f))
		found = sscanf(line, "CapEff: %llx", &eff) == 1;
	fclose(f);
	bool dac = (eff >> PROCS_CAP_DAC_READ_SEARCH) & 1 || (eff >> PROCS_CAP_DAC_OVERRIDE) & 1;
	return found && (eff >> PROCS_CAP_SYS_PTRACE) & 1 && dac;
}

struct procs_reader *procs_reader_new(void)
{
	_Static_assert(sizeof procs_reader_items / sizeof procs_reader_items[0] == PI_COUNT, "procs_reader_items");
	struct procs_reader *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	if (procps_pids_new(&r->info, procs_reader_items, PI_COUNT) < 0) {
		free(r);
		return NULL;
	}
	r->privileged = procs_reader_have_ptrace_cap();
	r->euid = geteuid();
	r->self = getpid();
	r->acct = procs_acct_new();
	r->wdev = procs_wdev_new();
	if (!r->acct || !r->wdev) {
		procs_reader_free(r);
		return NULL;
	}
	/* exited threads' final counters; without them (not root) the last read */
	(void)procs_acct_listen(r->acct);
	return r;
}

void procs_reader_free(struct procs_reader *r)
{
	if (!r)
		return;
	if (r->info)
		procps_pids_unref(&r->info);
	procs_acct_free(r->acct);
	procs_wdev_free(r->wdev);
	free(r);
}

/* Read /proc/PID/NAME into r->buf; its length, or -1. */
static ssize_t procs_reader_read_file(struct procs_reader *r, int32_t pid, const char *name)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t n = 0;
	ssize_t got;
	while (n < sizeof r->buf - 1 && (got = read(fd, r->buf + n, sizeof r->buf - 1 - n)) > 0)
		n += (size_t)got;
	close(fd);
	r->buf[n] = '\0';
	return (ssize_t)n;
}

/* Where a D-state task sleeps: wchan, or when the kernel will not say
 * ("0": some kernels, or a race with the task waking) the stack, which
 * needs root.  "" when neither tells: the view labels that "unknown". */
static void procs_reader_read_wchan(struct procs_reader *r, struct proc_counters *c)
{
	c->wchan[0] = '\0';
	ssize_t n = procs_reader_read_file(r, c->pid, "wchan");
	if (n > 0 && strcmp(r->buf, "0") != 0) {
		r->buf[strcspn(r->buf, "\n")] = '\0';
		snprintf(c->wchan, sizeof c->wchan, "%.*s", (int)sizeof c->wchan - 1, r->buf);
		return;
	}
	if (procs_reader_read_file(r, c->pid, "stack") > 0)
		procs_stack_wchan(r->buf, c->wchan, sizeof c->wchan);
}

/* /proc/PID/io reads as empty without permission, and libproc2 then gives
 * zeros.  With CAP_SYS_PTRACE everything is readable; otherwise another
 * user's task, or one whose counters are all zero (a live process has at
 * least read its own binary's libraries), is taken as unreadable. */
static bool procs_reader_io_hidden(const struct procs_reader *r, const struct proc_counters *c,
			    uid_t euid, unsigned long rchar, unsigned long wchar)
{
	if (r->privileged)
		return false;
	return euid != r->euid || (rchar == 0 && wchar == 0 && c->read_bytes == 0 &&
				   c->write_bytes == 0 && c->cancelled_write_bytes == 0);
}

static void procs_reader_fill(struct procs_reader *r, struct pids_stack *st, struct proc_counters *c)
{
	struct pids_info *info = r->info;	/* PIDS_VAL names it; this libproc2 ignores it */
	(void)info;
	const char *cmd = PIDS_VAL(PI_CMD, str, st, info);
	memset(c, 0, sizeof *c);
	c->pid = PIDS_VAL(PI_PID, s_int, st, info);
	c->self = c->pid == r->self;
	snprintf(c->comm, sizeof c->comm, "%s", cmd ? cmd : "");
	c->state = (char)PIDS_VAL(PI_STATE, s_ch, st, info);
	c->kthread = (PIDS_VAL(PI_FLAGS, ul_int, st, info) & PROCS_PF_KTHREAD) != 0;
	c->utime_jif = PIDS_VAL(PI_UTIME, ull_int, st, info);
	c->stime_jif = PIDS_VAL(PI_STIME, ull_int, st, info);
	c->start_tics = PIDS_VAL(PI_BEGAN, ull_int, st, info);
	c->read_bytes = PIDS_VAL(PI_RBYTES, ul_int, st, info);
	c->write_bytes = PIDS_VAL(PI_WBYTES, ul_int, st, info);
	c->cancelled_write_bytes = PIDS_VAL(PI_CBYTES, ul_int, st, info);
	c->io_hidden = procs_reader_io_hidden(r, c, PIDS_VAL(PI_EUID, u_int, st, info),
				       PIDS_VAL(PI_RCHAR, ul_int, st, info), PIDS_VAL(PI_WCHAR, ul_int, st, info));
	/* Parse the flush device from the full name: comm may be cut. */
	if (procs_kind_of(cmd ? cmd : "", c->kthread, &c->flush_major, &c->flush_minor,
			  NULL, 0, NULL) != PROCS_KIND_FLUSHER)
		c->flush_major = c->flush_minor = 0;
	/* the full command line tells apart tasks of one name (four dd); a
	 * kernel thread has none, and libproc2 then gives its [comm] */
	const char *argv = c->kthread ? NULL : PIDS_VAL(PI_CMDLINE, str, st, info);
	if (argv && strcmp(argv, "-") != 0)
		snprintf(c->cmdline, sizeof c->cmdline, "%s", argv);
	if (c->state == 'D')
		procs_reader_read_wchan(r, c);
}

static int procs_reader_pid_cmp(const void *a, const void *b)
{
	const struct proc_counters *x = a, *y = b;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int procs_reader_tid_cmp(const void *a, const void *b)
{
	const struct procs_thread *x = a, *y = b;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* procs_threads_fn: every thread's own counters, /proc/PID/task/TID/io. */
static int procs_reader_read_threads(void *ctx, int32_t pid, struct procs_thread **thr, size_t *n, size_t *cap)
{
	struct procs_reader *r = ctx;
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	int taskd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (taskd < 0)
		return -errno;
	int dupd = dup(taskd);
	DIR *dir = dupd >= 0 ? fdopendir(dupd) : NULL;
	if (!dir) {
		int e = errno;
		if (dupd >= 0)
			close(dupd);
		close(taskd);
		return -e;
	}
	int rc = 0;
	struct dirent *de;
	*n = 0;
	while ((de = readdir(dir))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		char name[300];
		snprintf(name, sizeof name, "%s/io", de->d_name);
		int fd = openat(taskd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;	/* the thread exited since the listing */
		ssize_t got = read(fd, r->buf, sizeof r->buf - 1);
		close(fd);
		if (got <= 0)
			continue;
		r->buf[got] = '\0';
		struct procs_thread t = { .tid = (int32_t)strtol(de->d_name, NULL, 10) };
		if (!procs_acct_parse_io(r->buf, &t.write_bytes, &t.cancelled_bytes))
			continue;
		if (grow_array((void **)thr, cap, *n + 1, sizeof **thr, 8) < 0) {
			rc = -ENOMEM;
			break;
		}
		(*thr)[(*n)++] = t;
	}
	closedir(dir);
	close(taskd);
	if (rc == 0 && *n > 1)
		qsort(*thr, *n, sizeof **thr, procs_reader_tid_cmp);
	/* a process whose threads all went: gone, nothing read */
	return rc < 0 ? rc : *n ? 0 : -ESRCH;
}

/* The process's own counters in place of /proc/PID/io's (procs_acct.h), and
 * for one that wrote, the devices of its files open for writing, looked at
 * once a second at most. */
static void procs_reader_own(struct procs_reader *r, struct proc_counters *c)
{
	struct procs_acct_task *e = procs_acct_update(r->acct, c, procs_reader_read_threads, r);
	if (!e || e->skip)
		return;
	/* (not in the first sample: it has no rates to show a device with) */
	bool wrote = e->own_write > e->rep_write && r->nsamples > 0;
	if (wrote && (!e->wdev_ns || r->now_ns - e->wdev_ns >= PROCS_WDEV_EVERY_NS)) {
		bool more = false;
		uint8_t n = 0;
		if (procs_wdev_scan(r->wdev, c->pid, r->now_ns, e->wdev, SNAP_WDEV_MAX, &n, &more) == 0) {
			e->nwdev = n;
			e->wdev_more = more;
		}
		e->wdev_ns = r->now_ns ? r->now_ns : 1;
	}
	c->nwdev = e->nwdev;
	c->wdev_more = e->wdev_more;
	memcpy(c->wdev, e->wdev, sizeof c->wdev);
}

int procs_reader_sample(struct procs_reader *r, struct snapshot *out)
{
	errno = 0;
	struct pids_fetch *f = procps_pids_reap(r->info, PIDS_FETCH_TASKS_ONLY);
	if (!f)
		return errno ? -errno : -EIO;
	size_t n = f->counts->total > 0 ? (size_t)f->counts->total : 0;
	if (snapshot_reserve_procs(out, n) < 0)
		return -ENOMEM;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	r->now_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	bool sorted = true;
	for (size_t i = 0; i < n; i++) {
		procs_reader_fill(r, f->stacks[i], &out->proc[i]);
		sorted = sorted && (i == 0 || out->proc[i - 1].pid < out->proc[i].pid);
	}
	/* /proc lists pids in order, so this is a check, not a sort. */
	if (!sorted)
		qsort(out->proc, n, sizeof *out->proc, procs_reader_pid_cmp);
	out->nproc = n;
	/* exit records now: a process gone from the listing has sent all its own */
	procs_acct_drain(r->acct);
	procs_acct_begin(r->acct);
	for (size_t i = 0; i < n; i++)
		procs_reader_own(r, &out->proc[i]);
	r->nsamples++;
	return procs_acct_end(r->acct, out);
}
