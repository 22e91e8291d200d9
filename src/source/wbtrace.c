/*
 * wbtrace.c - the writeback tracepoints through a tracefs instance of our own.
 *
 * libtracefs reads each CPU's trace_pipe_raw; libtraceevent parses the formats; events
 * are decoded by field offsets looked up at open and summed by wbloop.c.  Bounded: the
 * ring is sized once and what the kernel overwrites is added to lost_events.
 * Not a view: problems come back as -errno and a line in the caller's buffer.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "util/grow.h"
#include "source/wbtrace.h"

#define WBTRACE_SYSTEM "writeback"
#define WBTRACE_PREFIX "wbtop-"
#define WBTRACE_BUF_KB 1024	/* per CPU: about 6000 decisions, seconds of a flood */

enum wbtrace_ev { EV_BDP, EV_GLOBAL, EV_START, EV_WRITTEN, EV_BW, EV_N };

/* Fields of each event, in the order wbtrace_decode reads them. */
enum { F_BDP_BDI, F_BDP_LIMIT, F_BDP_SETPOINT, F_BDP_DIRTY, F_BDP_WB_SETPOINT, F_BDP_WB_DIRTY,
       F_BDP_DRATE, F_BDP_TRATE, F_BDP_PAUSE, F_BDP_CGROUP, F_BDP_N };
enum { F_GL_LIMIT, F_GL_THRESH, F_GL_BG, F_GL_N };
enum { F_ST_PAGES, F_ST_N };
enum { F_WR_NAME, F_WR_PAGES, F_WR_REASON, F_WR_CGROUP, F_WR_N };
enum { F_BW_BDI, F_BW_WRITE, F_BW_AVG, F_BW_DRATE, F_BW_RATELIMIT, F_BW_BALANCED, F_BW_CGROUP,
       F_BW_N };
#define WBTRACE_MAXF F_BDP_N

struct wbtrace_fieldspec {
	const char *name;
	const char *old_name;	/* what kernels before 4.3 called it, or NULL */
	bool required;		/* the event is useless without it */
};

struct wbtrace_evspec {
	const char *name;
	bool required;		/* no tracing without this event */
	int nfields;
	struct wbtrace_fieldspec f[WBTRACE_MAXF];
};

static const struct wbtrace_evspec wbtrace_events[EV_N] = {
	[EV_BDP] = { "balance_dirty_pages", true, F_BDP_N, {
		[F_BDP_BDI] = { "bdi", NULL, true },
		[F_BDP_LIMIT] = { "limit", NULL, false },
		[F_BDP_SETPOINT] = { "setpoint", NULL, false },
		[F_BDP_DIRTY] = { "dirty", NULL, false },
		[F_BDP_WB_SETPOINT] = { "wb_setpoint", "bdi_setpoint", false },
		[F_BDP_WB_DIRTY] = { "wb_dirty", "bdi_dirty", false },
		[F_BDP_DRATE] = { "dirty_ratelimit", NULL, false },
		[F_BDP_TRATE] = { "task_ratelimit", NULL, true },
		[F_BDP_PAUSE] = { "pause", NULL, true },
		[F_BDP_CGROUP] = { "cgroup_ino", NULL, false } } },
	[EV_GLOBAL] = { "global_dirty_state", false, F_GL_N, {
		[F_GL_LIMIT] = { "dirty_limit", NULL, true },
		[F_GL_THRESH] = { "dirty_thresh", NULL, false },
		[F_GL_BG] = { "background_thresh", NULL, false } } },
	/* a flusher pass: nr_pages is what the work still has to write, so
	 * the pages written are its drop from writeback_start to _written */
	[EV_START] = { "writeback_start", false, F_ST_N, {
		[F_ST_PAGES] = { "nr_pages", NULL, true } } },
	[EV_WRITTEN] = { "writeback_written", false, F_WR_N, {
		[F_WR_NAME] = { "name", NULL, true },
		[F_WR_PAGES] = { "nr_pages", NULL, true },
		[F_WR_REASON] = { "reason", NULL, true },
		[F_WR_CGROUP] = { "cgroup_ino", NULL, false } } },
	[EV_BW] = { "bdi_dirty_ratelimit", false, F_BW_N, {
		[F_BW_BDI] = { "bdi", NULL, true },
		[F_BW_WRITE] = { "write_bw", NULL, true },
		[F_BW_AVG] = { "avg_write_bw", NULL, false },
		[F_BW_DRATE] = { "dirty_rate", NULL, false },
		[F_BW_RATELIMIT] = { "dirty_ratelimit", NULL, false },
		[F_BW_BALANCED] = { "balanced_dirty_ratelimit", NULL, false },
		[F_BW_CGROUP] = { "cgroup_ino", NULL, false } } },
};

struct wbtrace_evstate {
	bool on;			/* found and enabled */
	int id;				/* common_type of its records */
	int need;			/* bytes a record must have for its fields */
	struct tep_format_field *f[WBTRACE_MAXF];	/* NULL: the kernel lacks it */
};

struct wbtrace_cpu {
	struct tracefs_cpu *tcpu;
	int stats_fd;			/* per_cpu/cpuN/stats, -1 if it would not open */
	uint64_t lost_seen;		/* overrun + dropped at the last read */
	struct kbuffer *kbuf;		/* walks page */
	void *page;			/* one sub-buffer */
	void *data;			/* its current event, NULL when drained */
	unsigned long long ts;		/* the current event's time */
	int pages;			/* sub-buffers read this interval */
};

/* A flusher pass begun (writeback_start) and not yet ended. */
struct wbtrace_pass {
	int32_t pid;			/* 0: a free slot */
	int64_t nr_pages;		/* what the work had left at the start */
};

struct wbtrace {
	char name[32];
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct tep_format_field *type_field, *pid_field;	/* common_type, common_pid */
	struct wbtrace_evstate ev[EV_N];
	size_t ncpu;
	struct wbtrace_cpu *cpu;
	int page_size;
	int max_pages;			/* per CPU per read: what the ring holds */
	size_t npass, cap_pass;
	struct wbtrace_pass *pass;
	char reason_name[WBLOOP_NREASON][16];
	char note[256];
};

/* The instance an exit without wbtrace_close must still remove. */
static struct wbtrace *wbtrace_live;

static void wbtrace_atexit(void)
{
	wbtrace_close(wbtrace_live);
}

/* One line into why: the message, then strerror(err) when err is set. */
__attribute__((format(printf, 4, 5)))
static void wbtrace_why(char *why, size_t whylen, int err, const char *fmt, ...)
{
	if (!why || !whylen)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	if (err && n >= 0 && (size_t)n < whylen)
		snprintf(why + n, whylen - (size_t)n, ": %s", strerror(err));
}

static void wbtrace_note_add(struct wbtrace *wt, const char *what)
{
	size_t len = strlen(wt->note);
	snprintf(wt->note + len, sizeof wt->note - len, "%s%s", len ? "; " : "", what);
}

/* Whether the process of pid is a wbtop (or its test probe) still running. */
static bool wbtrace_owner_alive(long pid)
{
	char path[64], comm[32] = "";
	snprintf(path, sizeof path, "/proc/%ld/comm", pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return errno != ENOENT;	/* unreadable is not gone */
	bool ok = fgets(comm, sizeof comm, f) != NULL;
	fclose(f);
	if (!ok)
		return true;
	comm[strcspn(comm, "\n")] = '\0';
	/* a reused pid of another program does not keep the instance */
	return strcmp(comm, "wbtop") == 0 || strcmp(comm, "wbprobe") == 0;
}

static int wbtrace_destroy_named(const char *name)
{
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, name);
	if (!inst)
		return -errno ? -errno : -ENOMEM;
	int rc = tracefs_instance_destroy(inst) ? (errno ? -errno : -EIO) : 0;
	tracefs_instance_free(inst);
	return rc;
}

/* Collects the names of stale instances: removing one while the walk
 * reads the directory would upset the walk. */
struct wbtrace_stale {
	char (*name)[32];
	size_t n, cap;
	int rc;
};

static int wbtrace_stale_one(const char *name, void *ctx)
{
	struct wbtrace_stale *st = ctx;
	size_t plen = strlen(WBTRACE_PREFIX);
	if (strncmp(name, WBTRACE_PREFIX, plen) != 0 || !name[plen] ||
	    strspn(name + plen, "0123456789") != strlen(name + plen) || strlen(name) >= 32)
		return 0;
	long pid = strtol(name + plen, NULL, 10);
	if (pid == (long)getpid() || wbtrace_owner_alive(pid))
		return 0;
	if (grow_array((void **)&st->name, &st->cap, st->n + 1, sizeof *st->name, 8)) {
		st->rc = -ENOMEM;
		return 1;	/* stop the walk */
	}
	snprintf(st->name[st->n++], 32, "%s", name);
	return 0;
}

int wbtrace_remove_stale(void)
{
	struct wbtrace_stale st = { NULL, 0, 0, 0 };
	errno = 0;
	if (tracefs_instances_walk(wbtrace_stale_one, &st) < 0 && !st.rc)
		st.rc = errno ? -errno : -EIO;
	int removed = 0;
	for (size_t i = 0; i < st.n; i++) {
		int r = wbtrace_destroy_named(st.name[i]);
		if (r == 0)
			removed++;
		else if (!st.rc)
			st.rc = r;
	}
	free(st.name);
	return removed ? removed : st.rc;
}

/* Look up an event's fields; false and why when it cannot be used. */
static bool wbtrace_find_fields(struct wbtrace *wt, enum wbtrace_ev e, char *why, size_t whylen)
{
	const struct wbtrace_evspec *spec = &wbtrace_events[e];
	struct wbtrace_evstate *st = &wt->ev[e];
	struct tep_event *ev = tep_find_event_by_name(wt->tep, WBTRACE_SYSTEM, spec->name);
	char line[128];
	if (!ev) {
		snprintf(line, sizeof line, "no event writeback:%s in this kernel", spec->name);
		wbtrace_why(why, whylen, 0, "%s", line);
		return false;
	}
	st->id = ev->id;
	st->need = 0;
	for (int i = 0; i < spec->nfields; i++) {
		const struct wbtrace_fieldspec *fs = &spec->f[i];
		struct tep_format_field *f = tep_find_field(ev, fs->name);
		if (!f && fs->old_name)
			f = tep_find_field(ev, fs->old_name);
		if (!f && fs->required) {
			snprintf(line, sizeof line,
				 "writeback:%s has no field %s (renamed in this kernel?)",
				 spec->name, fs->name);
			wbtrace_why(why, whylen, 0, "%s", line);
			return false;
		}
		if (!f) {
			snprintf(line, sizeof line, "%s without %s", spec->name, fs->name);
			wbtrace_note_add(wt, line);
		} else if (f->offset + f->size > st->need) {
			st->need = f->offset + f->size;
		}
		st->f[i] = f;
	}
	return true;
}

/* The reason names of writeback_written, from its print format's
 * __print_symbolic(reason, ...): the enum has changed between kernels. */
static void wbtrace_reason_names(struct wbtrace *wt)
{
	static const char *const fallback[] = { "background", "vmscan", "sync", "periodic",
						"laptop_timer", "fs_free_space", "forker_thread",
						"foreign_flush" };
	for (size_t i = 0; i < WBLOOP_NREASON; i++)
		snprintf(wt->reason_name[i], sizeof wt->reason_name[i], "%s",
			 i < sizeof fallback / sizeof *fallback ? fallback[i] :
			 i == WBLOOP_NREASON - 1 ? "other" : "");
	struct tep_event *ev = tep_find_event_by_name(wt->tep, WBTRACE_SYSTEM, "writeback_written");
	for (struct tep_print_arg *a = ev ? ev->print_fmt.args : NULL; a; a = a->next) {
		if (a->type != TEP_PRINT_SYMBOL || !a->symbol.field ||
		    a->symbol.field->type != TEP_PRINT_FIELD ||
		    strcmp(a->symbol.field->field.name, "reason") != 0)
			continue;
		for (struct tep_print_flag_sym *s = a->symbol.symbols; s; s = s->next) {
			char *end;
			long v = strtol(s->value, &end, 0);
			if (*end || v < 0 || v >= WBLOOP_NREASON - 1)
				continue;
			snprintf(wt->reason_name[v], sizeof wt->reason_name[v], "%s", s->str);
		}
	}
}

static int wbtrace_stats_lost(int fd, uint64_t *lost)
{
	char buf[1024];
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	uint64_t sum = 0;
	for (char *line = buf; line && *line;) {
		/* "overrun: N" (overwritten) and "dropped events: N" (buffer full) */
		const char *keys[] = { "overrun: ", "dropped events: " };
		for (size_t k = 0; k < 2; k++)
			if (strncmp(line, keys[k], strlen(keys[k])) == 0)
				sum += strtoull(line + strlen(keys[k]), NULL, 10);
		char *nl = strchr(line, '\n');
		line = nl ? nl + 1 : NULL;
	}
	*lost = sum;
	return 0;
}

static int wbtrace_open_cpus(struct wbtrace *wt, char *why, size_t whylen)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	if (n < 1)
		n = 1;
	wt->cpu = calloc((size_t)n, sizeof *wt->cpu);
	if (!wt->cpu)
		return -ENOMEM;
	for (long c = 0; c < n; c++) {
		struct wbtrace_cpu *cpu = &wt->cpu[wt->ncpu];
		cpu->stats_fd = -1;
		cpu->tcpu = tracefs_cpu_open(wt->inst, (int)c, true);
		if (!cpu->tcpu)
			continue;	/* a CPU that is possible but not present */
		wt->ncpu++;
		int size = tracefs_cpu_read_size(cpu->tcpu);
		cpu->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
		cpu->page = size > 0 ? malloc((size_t)size) : NULL;
		if (!cpu->kbuf || !cpu->page)
			return -ENOMEM;
		if (size > wt->page_size)
			wt->page_size = size;
		char file[48];
		snprintf(file, sizeof file, "per_cpu/cpu%ld/stats", c);
		cpu->stats_fd = tracefs_instance_file_open(wt->inst, file, O_RDONLY);
		if (cpu->stats_fd >= 0 && wbtrace_stats_lost(cpu->stats_fd, &cpu->lost_seen) < 0) {
			close(cpu->stats_fd);
			cpu->stats_fd = -1;
		}
	}
	if (!wt->ncpu) {
		wbtrace_why(why, whylen, errno, "cannot open the per-CPU buffers of %s", wt->name);
		return -ENODEV;
	}
	wt->max_pages = (int)(WBTRACE_BUF_KB * 1024 / wt->page_size) + 2;
	return 0;
}

/* Which events can be used and where their fields are; fails with why when
 * a required event or field is missing.  Pure: works on wt->tep. */
static int wbtrace_check(struct wbtrace *wt, char *why, size_t whylen)
{
	for (int e = 0; e < EV_N; e++) {
		char line[256];
		wt->ev[e].on = wbtrace_find_fields(wt, e, line, sizeof line);
		if (wt->ev[e].on)
			continue;
		if (wbtrace_events[e].required) {
			wbtrace_why(why, whylen, 0, "%s", line);
			return -ENOENT;
		}
		wbtrace_note_add(wt, line);
	}
	return 0;
}

static int wbtrace_enable(struct wbtrace *wt, char *why, size_t whylen)
{
	for (int e = 0; e < EV_N; e++) {
		const struct wbtrace_evspec *spec = &wbtrace_events[e];
		if (!wt->ev[e].on)
			continue;
		if (tracefs_event_enable(wt->inst, WBTRACE_SYSTEM, spec->name) == 0)
			continue;
		int err = errno ? errno : EIO;
		char line[128];
		snprintf(line, sizeof line, "cannot enable writeback:%s", spec->name);
		if (spec->required) {
			wbtrace_why(why, whylen, err, "%s", line);
			return -err;
		}
		wbtrace_note_add(wt, line);
		wt->ev[e].on = false;
	}
	return 0;
}

/* A decoder for the header page and event formats given as text (an
 * event's NULL: this kernel lacks it). */
static int wbtrace_parse_formats(struct wbtrace *wt, char *header, int hlen, char *const text[EV_N],
				 const int len[EV_N])
{
	wt->tep = tep_alloc();
	if (!wt->tep)
		return -ENOMEM;
	enum tep_endian endian = tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN;
	tep_set_file_bigendian(wt->tep, endian);
	tep_set_local_bigendian(wt->tep, endian);
	tep_set_long_size(wt->tep, (int)sizeof(long));
	tep_set_page_size(wt->tep, (int)sysconf(_SC_PAGESIZE));
	if (!header || hlen <= 0 ||
	    tep_parse_header_page(wt->tep, header, (unsigned long)hlen, (int)sizeof(long)) != 0)
		return -EIO;
	for (int e = 0; e < EV_N; e++)
		if (text[e] && len[e] > 0 &&
		    tep_parse_event(wt->tep, text[e], (unsigned long)len[e], WBTRACE_SYSTEM) != 0)
			return -EIO;
	return 0;
}

const char *const wbtrace_event_names[WBTRACE_NEVENTS] = {
	"balance_dirty_pages", "global_dirty_state", "writeback_start", "writeback_written",
	"bdi_dirty_ratelimit",
};
_Static_assert(WBTRACE_NEVENTS == EV_N, "one name per event, in enum wbtrace_ev order");

int wbtrace_check_formats(const char *header, const char *const fmt[WBTRACE_NEVENTS], char *why,
			  size_t whylen, char *note, size_t notelen)
{
	struct wbtrace *wt = calloc(1, sizeof *wt);
	char *hcopy = header ? strdup(header) : NULL;
	char *copy[EV_N] = { NULL };
	int len[EV_N] = { 0 };
	int rc = wt && (!header || hcopy) ? 0 : -ENOMEM;
	for (int e = 0; e < EV_N && !rc; e++)
		if (fmt[e] && !(copy[e] = strdup(fmt[e])))
			rc = -ENOMEM;
		else
			len[e] = fmt[e] ? (int)strlen(fmt[e]) : 0;
	if (!rc)
		rc = wbtrace_parse_formats(wt, hcopy, hcopy ? (int)strlen(hcopy) : 0, copy, len);
	if (rc == -EIO)
		wbtrace_why(why, whylen, 0, "%s", "cannot parse the writeback event formats");
	if (!rc)
		rc = wbtrace_check(wt, why, whylen);
	if (wt && note && notelen)
		snprintf(note, notelen, "%s", wt->note);
	for (int e = 0; e < EV_N; e++)
		free(copy[e]);
	free(hcopy);
	if (wt)
		tep_free(wt->tep);
	free(wt);
	return rc;
}

/* The formats of our events only.  libtracefs's tracefs_local_events*()
 * also load every kernel symbol (/proc/kallsyms): about 2 s of system time
 * a start on this machine, for nothing we print.  An event this kernel
 * lacks is left out here and reported by wbtrace_check. */
static int wbtrace_load_formats(struct wbtrace *wt)
{
	int hlen = 0, len[EV_N] = { 0 };
	char *text[EV_N] = { NULL };
	char *header = tracefs_instance_file_read(NULL, "events/header_page", &hlen);
	for (int e = 0; e < EV_N; e++)
		text[e] = tracefs_event_file_read(NULL, WBTRACE_SYSTEM, wbtrace_events[e].name,
						  "format", &len[e]);
	int rc = header ? wbtrace_parse_formats(wt, header, hlen, text, len) : -EIO;
	free(header);
	for (int e = 0; e < EV_N; e++)
		free(text[e]);
	return rc;
}

static int wbtrace_setup(struct wbtrace *wt, char *why, size_t whylen)
{
	int rc;
	const char *dir = tracefs_tracing_dir();
	if (!dir) {
		int err = errno ? errno : ENODEV;
		wbtrace_why(why, whylen, err, "%s", err == EPERM || err == EACCES ?
			    "tracefs is not mounted and only root can mount it" :
			    "tracefs is not mounted and could not be mounted");
		return -err;
	}
	/* where the instance is made: a unit may keep the rest of tracefs read-only */
	char instances[PATH_MAX];
	snprintf(instances, sizeof instances, "%s/instances", dir);
	if (access(dir, R_OK | X_OK) != 0 || access(instances, R_OK | W_OK | X_OK) != 0) {
		int err = errno;
		if (err == EACCES)
			wbtrace_why(why, whylen, 0, "not root: %s is for root only", dir);
		else
			wbtrace_why(why, whylen, err, "cannot use %s", instances);
		return -err;
	}
	/* the formats first: a kernel we cannot use gets no instance */
	rc = wbtrace_load_formats(wt);
	if (rc) {
		wbtrace_why(why, whylen, -rc, "cannot parse the %s event formats", WBTRACE_SYSTEM);
		return rc;
	}
	struct tep_event *bdp = tep_find_event_by_name(wt->tep, WBTRACE_SYSTEM,
						       "balance_dirty_pages");
	wt->type_field = bdp ? tep_find_common_field(bdp, "common_type") : NULL;
	wt->pid_field = bdp ? tep_find_common_field(bdp, "common_pid") : NULL;
	if (bdp && (!wt->type_field || !wt->pid_field)) {
		wbtrace_why(why, whylen, 0, "%s",
			    "writeback events without common_type or common_pid");
		return -ENOENT;
	}
	rc = wbtrace_check(wt, why, whylen);
	if (rc)
		return rc;
	/* best effort: one we cannot remove does not stop ours */
	(void)wbtrace_remove_stale();
	snprintf(wt->name, sizeof wt->name, WBTRACE_PREFIX "%ld", (long)getpid());
	if (tracefs_instance_exists(wt->name))
		wbtrace_destroy_named(wt->name);	/* ours from a reused pid */
	wt->inst = tracefs_instance_create(wt->name);
	if (!wt->inst) {
		int err = errno ? errno : EIO;
		wbtrace_why(why, whylen, err, "cannot create tracefs instance %s", wt->name);
		return -err;
	}
	if (tracefs_instance_set_buffer_size(wt->inst, WBTRACE_BUF_KB, -1) < 0)
		wbtrace_note_add(wt, "ring buffer left at its default size");
	rc = wbtrace_enable(wt, why, whylen);
	if (rc)
		return rc;
	wbtrace_reason_names(wt);
	return wbtrace_open_cpus(wt, why, whylen);
}

int wbtrace_open(struct wbtrace **out, char *why, size_t whylen)
{
	static bool registered;
	*out = NULL;
	if (why && whylen)
		why[0] = '\0';
	if (wbtrace_live) {
		wbtrace_why(why, whylen, 0, "%s", "writeback tracing is already open");
		return -EBUSY;
	}
	/* libtracefs and libtraceevent print their warnings; we report ours */
	tracefs_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	struct wbtrace *wt = calloc(1, sizeof *wt);
	if (!wt)
		return -ENOMEM;
	int rc = wbtrace_setup(wt, why, whylen);
	if (rc) {
		wbtrace_close(wt);
		return rc;
	}
	if (!registered && atexit(wbtrace_atexit) == 0)
		registered = true;
	wbtrace_live = wt;
	*out = wt;
	return 0;
}

/* A number field of a record.  The ring buffer is this machine's, so the
 * bytes are in host order: a copy of the field's size, no conversion. */
static uint64_t wbtrace_num(const struct tep_format_field *f, const void *data)
{
	if (!f)
		return 0;
	const char *p = (const char *)data + f->offset;
	bool sign = (f->flags & TEP_FIELD_IS_SIGNED) != 0;
	switch (f->size) {
	case 1: { uint8_t v; memcpy(&v, p, 1); return sign ? (uint64_t)(int64_t)(int8_t)v : v; }
	case 2: { uint16_t v; memcpy(&v, p, 2); return sign ? (uint64_t)(int64_t)(int16_t)v : v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return sign ? (uint64_t)(int64_t)(int32_t)v : v; }
	case 8: { uint64_t v; memcpy(&v, p, 8); return v; }
	default: return 0;	/* not a number field */
	}
}

/* A string field (a char array, or __string's dynamic location) into out. */
static void wbtrace_str(const struct tep_format_field *f, const char *data, int size, char *out,
			size_t outlen)
{
	int off = f->offset, len = f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint64_t loc = wbtrace_num(f, data);
		off = (int)(loc & 0xffff);
		len = (int)(loc >> 16 & 0xffff);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	}
	if (off < 0 || len < 0 || off > size || len > size - off)
		len = 0;
	size_t n = strnlen(data + off, (size_t)len);
	if (n >= outlen)
		n = outlen - 1;
	memcpy(out, data + off, n);
	out[n] = '\0';
}

static struct wbtrace_pass *wbtrace_pass_find(struct wbtrace *wt, int32_t pid)
{
	for (size_t i = 0; i < wt->npass; i++)
		if (wt->pass[i].pid == pid)
			return &wt->pass[i];
	return NULL;
}

/* A flusher pass begins in task pid; 0 or -ENOMEM.  Passes run one at a
 * time in a flusher, so the table holds about one row per flusher. */
static int wbtrace_pass_start(struct wbtrace *wt, int32_t pid, int64_t nr_pages)
{
	struct wbtrace_pass *p = wbtrace_pass_find(wt, pid);
	if (!p)
		p = wbtrace_pass_find(wt, 0);
	if (!p) {
		if (grow_array((void **)&wt->pass, &wt->cap_pass, wt->npass + 1, sizeof *wt->pass,
			       8))
			return -ENOMEM;
		p = &wt->pass[wt->npass++];
	}
	p->pid = pid;
	p->nr_pages = nr_pages;
	return 0;
}

/* The pass of pid ends with nr_pages left: the pages it wrote, 0 if its
 * start was not seen (before we opened, or lost). */
static int64_t wbtrace_pass_end(struct wbtrace *wt, int32_t pid, int64_t nr_pages)
{
	struct wbtrace_pass *p = pid ? wbtrace_pass_find(wt, pid) : NULL;
	if (!p)
		return 0;
	int64_t wrote = p->nr_pages >= nr_pages ? p->nr_pages - nr_pages : 0;
	p->pid = 0;
	return wrote;
}

static int wbtrace_decode(struct wbtrace *wt, const char *data, int size, struct wbloop *w)
{
	int type = (int)wbtrace_num(wt->type_field, data);
	int e = 0;
	while (e < EV_N && !(wt->ev[e].on && wt->ev[e].id == type))
		e++;
	if (e == EV_N)
		return 0;	/* an event we did not ask for */
	struct tep_format_field *const *f = wt->ev[e].f;
	if (size < wt->ev[e].need) {
		w->bad_events++;
		return 0;
	}
	char bdi[32];
	int32_t pid = (int32_t)wbtrace_num(wt->pid_field, data);
	switch (e) {
	case EV_BDP: {
		wbtrace_str(f[F_BDP_BDI], data, size, bdi, sizeof bdi);
		struct wbloop_bdp ev = {
			.pid = pid,
			.bdi = bdi,
			.limit_pages = wbtrace_num(f[F_BDP_LIMIT], data),
			.setpoint_pages = wbtrace_num(f[F_BDP_SETPOINT], data),
			.dirty_pages = wbtrace_num(f[F_BDP_DIRTY], data),
			.wb_setpoint_pages = wbtrace_num(f[F_BDP_WB_SETPOINT], data),
			.wb_dirty_pages = wbtrace_num(f[F_BDP_WB_DIRTY], data),
			.dirty_ratelimit_kbps = wbtrace_num(f[F_BDP_DRATE], data),
			.task_ratelimit_kbps = wbtrace_num(f[F_BDP_TRATE], data),
			.pause_ms = (int64_t)wbtrace_num(f[F_BDP_PAUSE], data),
			.cgroup_ino = wbtrace_num(f[F_BDP_CGROUP], data),
		};
		return wbloop_add_bdp(w, &ev);
	}
	case EV_GLOBAL:
		wbloop_add_global(w, wbtrace_num(f[F_GL_LIMIT], data),
				  wbtrace_num(f[F_GL_THRESH], data), wbtrace_num(f[F_GL_BG], data));
		return 0;
	case EV_START:
		return wbtrace_pass_start(wt, pid, (int64_t)wbtrace_num(f[F_ST_PAGES], data));
	case EV_WRITTEN: {
		wbtrace_str(f[F_WR_NAME], data, size, bdi, sizeof bdi);
		int64_t left = (int64_t)wbtrace_num(f[F_WR_PAGES], data);
		return wbloop_add_written(w, bdi, wbtrace_pass_end(wt, pid, left),
					  (int)wbtrace_num(f[F_WR_REASON], data),
					  wbtrace_num(f[F_WR_CGROUP], data));
	}
	default: {
		wbtrace_str(f[F_BW_BDI], data, size, bdi, sizeof bdi);
		struct wbloop_bw ev = {
			.bdi = bdi,
			.write_bw_kbps = wbtrace_num(f[F_BW_WRITE], data),
			.avg_write_bw_kbps = wbtrace_num(f[F_BW_AVG], data),
			.dirty_rate_kbps = wbtrace_num(f[F_BW_DRATE], data),
			.dirty_ratelimit_kbps = wbtrace_num(f[F_BW_RATELIMIT], data),
			.balanced_ratelimit_kbps = wbtrace_num(f[F_BW_BALANCED], data),
			.cgroup_ino = wbtrace_num(f[F_BW_CGROUP], data),
		};
		return wbloop_add_bw(w, &ev);
	}
	}
}

/* The CPU's next sub-buffer with an event in it; false when it has no
 * more now or has given what its ring holds this interval. */
static bool wbtrace_cpu_load(struct wbtrace *wt, struct wbtrace_cpu *cpu, struct wbloop *w, int *rc)
{
	cpu->data = NULL;
	while (cpu->pages < wt->max_pages) {
		cpu->pages++;
		errno = 0;
		int n = tracefs_cpu_read(cpu->tcpu, cpu->page, true);
		if (n <= 0) {
			if (n < 0 && errno && errno != EAGAIN && errno != EINTR)
				*rc = -errno;
			return false;
		}
		if (kbuffer_load_subbuffer(cpu->kbuf, cpu->page) < 0) {
			w->bad_events++;
			continue;
		}
		cpu->data = kbuffer_read_event(cpu->kbuf, &cpu->ts);
		if (cpu->data)
			return true;
	}
	return false;
}

/* The CPU whose current event is the oldest, or NULL when all are drained:
 * a flusher pass can start on one CPU and end on another. */
static struct wbtrace_cpu *wbtrace_oldest(struct wbtrace *wt)
{
	struct wbtrace_cpu *best = NULL;
	for (size_t c = 0; c < wt->ncpu; c++)
		if (wt->cpu[c].data && (!best || wt->cpu[c].ts < best->ts))
			best = &wt->cpu[c];
	return best;
}

static int wbtrace_merge(struct wbtrace *wt, struct wbloop *w)
{
	int rc = 0;
	for (size_t c = 0; c < wt->ncpu; c++) {
		wt->cpu[c].pages = 0;
		wbtrace_cpu_load(wt, &wt->cpu[c], w, &rc);
	}
	struct wbtrace_cpu *cpu;
	while (!rc && (cpu = wbtrace_oldest(wt))) {
		rc = wbtrace_decode(wt, cpu->data, kbuffer_event_size(cpu->kbuf), w);
		cpu->data = kbuffer_next_event(cpu->kbuf, &cpu->ts);
		if (!cpu->data)
			wbtrace_cpu_load(wt, cpu, w, &rc);
	}
	return rc;
}

/* The comms the tracer saved (the saved_cmdlines file) for the tasks that
 * have none: a task that has exited since its last decision has no /proc
 * entry.  One pass over the file for all of them. */
static void wbtrace_saved_comms(struct wbloop *w)
{
	char *text = tracefs_instance_file_read(NULL, "saved_cmdlines", NULL);
	if (!text)
		return;
	for (const char *p = text; *p;) {
		/* "PID COMM\n": digits by hand, the file has thousands of lines */
		uint64_t pid = 0;
		const char *q = p;
		while (*q >= '0' && *q <= '9' && pid < INT32_MAX)
			pid = pid * 10 + (uint64_t)(*q++ - '0');
		const char *eol = strchr(q, '\n');
		size_t len = eol ? (size_t)(eol - q) : strlen(q);
		const struct wbloop_task *t =
			q > p && *q == ' ' ? wbloop_find_task(w, (int32_t)pid) : NULL;
		if (t && !t->comm[0] && len > 1) {
			char *comm = w->task[t - w->task].comm;
			size_t n = len - 1 < sizeof t->comm - 1 ? len - 1 : sizeof t->comm - 1;
			memcpy(comm, q + 1, n);
			comm[n] = '\0';
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	free(text);
}

/* /proc/TID/comm of each task seen, the tracer's saved one for a task gone
 * since; "" when neither knows it. */
static void wbtrace_comms(struct wbloop *w)
{
	bool missing = false;
	for (size_t i = 0; i < w->ntask; i++) {
		struct wbloop_task *t = &w->task[i];
		char path[48];
		snprintf(path, sizeof path, "/proc/%d/comm", (int)t->pid);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read(fd, t->comm, sizeof t->comm - 1);
		if (fd >= 0)
			close(fd);
		t->comm[n < 0 ? 0 : n] = '\0';
		t->comm[strcspn(t->comm, "\n")] = '\0';
		missing |= !t->comm[0];
	}
	if (missing)
		wbtrace_saved_comms(w);
}

int wbtrace_read(struct wbtrace *wt, struct wbloop *w)
{
	wbloop_reset(w);
	memcpy(w->reason_name, wt->reason_name, sizeof w->reason_name);
	int rc = wbtrace_merge(wt, w);
	for (size_t c = 0; c < wt->ncpu; c++) {
		struct wbtrace_cpu *cpu = &wt->cpu[c];
		uint64_t lost;
		if (cpu->stats_fd >= 0 && wbtrace_stats_lost(cpu->stats_fd, &lost) == 0) {
			/* the stats are cumulative for the instance's life */
			w->lost_events += lost >= cpu->lost_seen ? lost - cpu->lost_seen : 0;
			cpu->lost_seen = lost;
		}
	}
	wbtrace_comms(w);
	return rc;
}

const char *wbtrace_note(const struct wbtrace *wt)
{
	return wt->note;
}

const char *wbtrace_instance(const struct wbtrace *wt)
{
	return wt->name;
}

void wbtrace_close(struct wbtrace *wt)
{
	if (!wt)
		return;
	if (wbtrace_live == wt)
		wbtrace_live = NULL;
	/* the per-CPU files hold the instance: close them before removing it */
	for (size_t c = 0; c < wt->ncpu; c++) {
		tracefs_cpu_close(wt->cpu[c].tcpu);
		if (wt->cpu[c].stats_fd >= 0)
			close(wt->cpu[c].stats_fd);
		if (wt->cpu[c].kbuf)
			kbuffer_free(wt->cpu[c].kbuf);
		free(wt->cpu[c].page);
	}
	free(wt->cpu);
	free(wt->pass);
	if (wt->inst) {
		tracefs_instance_destroy(wt->inst);
		tracefs_instance_free(wt->inst);
	}
	tep_free(wt->tep);
	free(wt);
}
