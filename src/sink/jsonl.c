/*
 * jsonl.c - frames as JSON Lines: one object per interval, the same for
 * live --format json and for --export json of a recording (doc/recording.md
 * gives the schema).  The figures are the registry's rows (figure.h).
 *
 * Not here: CSV (rec_export.c: its columns come from a recording's whole
 * device list) and the recording module, which this does not call.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cause.h"
#include "core/figure.h"
#include "core/ident.h"
#include "sink/jsonl.h"
#include "core/knob.h"
#include "sink/sink.h"

static void jsonl_dev_name(const struct dev_counters *d, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strnlen(d->name, sizeof d->name), d->name);
}

static bool jsonl_dev_exported(const struct fig_dev *f)
{
	return f->sinks & FIG_IN_EXPORT;
}

/* Local time with milliseconds and UTC offset, ISO 8601. */
void jsonl_time(int64_t wall_ns, char *buf, size_t len)
{
	time_t t = (time_t)(wall_ns / 1000000000);
	long ms = (long)((wall_ns % 1000000000) / 1000000);
	if (ms < 0) {
		t--;
		ms += 1000;
	}
	struct tm tm;
	char date[32], zone[8];
	if (!localtime_r(&t, &tm)) {
		snprintf(buf, len, "?");
		return;
	}
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(zone, sizeof zone, "%z", &tm);	/* +hhmm -> +hh:mm */
	snprintf(buf, len, "%s.%03ld%.3s:%.2s", date, ms, zone, zone[0] ? zone + 3 : "00");
}

void jsonl_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void jsonl_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.3f", v);
	else
		fputs("null", out);
}

static void jsonl_sys(FILE *out, const struct sys_rates *sys)
{
	fputs("\"sys\":{", out);
	for (size_t k = 0; k < fig_nsys; k++) {
		const struct fig_sys *f = &fig_sys_table[k];
		fprintf(out, "%s\"%s\":", k ? "," : "", f->name);
		if (f->type == FIG_U64)
			fprintf(out, "%" PRIu64, figure_sys_u64(f, sys));
		else if (!figure_sys_available(f, sys))
			fputs("null", out);
		else
			jsonl_num(out, figure_sys_value(f, sys));
	}
	fputc('}', out);
}

/* "mounts":["/home","/srv"] ([] when none) and "fstype" (null when unknown). */
static void jsonl_mounts(FILE *out, const struct dev_ident *id)
{
	fputs(",\"mounts\":[", out);
	const char *p = id && id->mounts ? id->mounts : "";
	for (bool first = true; *p; first = false) {
		size_t n = strcspn(p, " ");
		char one[512];
		snprintf(one, sizeof one, "%.*s", (int)(n < sizeof one ? n : sizeof one - 1), p);
		if (!first)
			fputc(',', out);
		jsonl_str(out, one);
		p += n;
		p += strspn(p, " ");
	}
	fputs("],\"fstype\":", out);
	if (id && id->fstype)
		jsonl_str(out, id->fstype);
	else
		fputs("null", out);
}

/* ,"KEY":"cause" for a mark, ,"KEY":null for none. */
static void jsonl_cause(FILE *out, const char *key, bool dip, uint8_t cause)
{
	fprintf(out, ",\"%s\":", key);
	if (dip)
		jsonl_str(out, cause_name(cause));
	else
		fputs("null", out);
}

/* ,"dip_depth_pct":N for a mark whose depth is known, null otherwise. */
static void jsonl_depth(FILE *out, bool dip, double depth)
{
	fputs(",\"dip_depth_pct\":", out);
	if (dip && isfinite(depth))
		jsonl_num(out, depth);
	else
		fputs("null", out);
}

static void jsonl_dev(FILE *out, const struct dev_counters *d, const struct dev_rates *r, bool dip,
		      uint8_t cause, double depth)
{
	char kbuf[IDENT_KEY_MAX], name[sizeof d->name + 1];
	jsonl_dev_name(d, name, sizeof name);
	fputs("{\"key\":", out);
	jsonl_str(out, ident_dev_key(d, kbuf, sizeof kbuf));
	fputs(",\"name\":", out);
	jsonl_str(out, name);
	fputs(",\"label\":", out);
	jsonl_str(out, d->ident && d->ident->label_short ? d->ident->label_short : name);
	jsonl_mounts(out, d->ident);
	fprintf(out, ",\"status\":\"%s\"", derive_status_name(r->status));
	for (size_t k = 0; k < fig_ndev; k++) {
		const struct fig_dev *f = &fig_dev_table[k];
		if (!jsonl_dev_exported(f))
			continue;
		fprintf(out, ",\"%s\":", f->name);
		if (figure_dev_available(f, r))
			jsonl_num(out, figure_dev_value(f, r));
		else
			fputs("null", out);
	}
	fprintf(out, ",\"dip\":%s", dip ? "true" : "false");
	jsonl_cause(out, "cause", dip, cause);
	jsonl_depth(out, dip, depth);
	fputc('}', out);
}

static void jsonl_event(FILE *out, const struct wb_event *e, bool first)
{
	fprintf(out, "%s{\"wall_ns\":%" PRId64 ",\"knob\":", first ? "" : ",", e->wall_ns);
	jsonl_str(out, e->knob);
	fprintf(out, ",\"old\":%" PRId64 ",\"new\":%" PRId64 ",\"read_back\":%" PRId64
		",\"result\":%d,\"note\":", e->old_value, e->new_value, e->read_back, e->result);
	jsonl_str(out, e->note);
	/* true: no write of wbtop's, a change seen between two samples */
	fprintf(out, ",\"observed\":%s}", e->observed ? "true" : "false");
}

/* wbtop's knob writes (recorded, or this run's), then the changes others made. */
static void jsonl_events(FILE *out, const struct frame *f)
{
	fputs(",\"events\":[", out);
	for (size_t i = 0; i < f->nevents; i++)
		jsonl_event(out, &f->events[i], i == 0);
	for (size_t i = 0; i < f->nchanges; i++)
		jsonl_event(out, &f->changes[i], i == 0 && f->nevents == 0);
	fputc(']', out);
}

/* Whether the sample has the writeback trace (its source adds the lost
 * count to every sample it reads): then "tasks" and "cgroups" are there,
 * empty when nothing was throttled, so that every line of a run has one
 * schema; a sample without the trace has neither. */
static bool jsonl_traced(const struct snapshot *cur)
{
	return snapshot_find_xkind(cur, SNAP_XSYS, 0, SNAP_XSYS_TRACE_LOST) != NULL;
}

/* Values of one object beside the fixed blocks, as ,"name":value pairs (null where the
 * sample has none), rates per second from prev. */
struct jsonl_xkey {
	unsigned kind;
	const char *name;
};

static void jsonl_xfields(FILE *out, const struct snapshot *prev, const struct snapshot *cur,
			  enum snap_xscope scope, uint64_t obj, const struct jsonl_xkey *keys, size_t n,
			  double dt_s)
{
	for (size_t k = 0; k < n; k++) {
		double x;
		fprintf(out, ",\"%s\":", keys[k].name);
		if (derive_x(prev, cur, scope, obj, keys[k].kind, dt_s, &x))
			jsonl_num(out, x);
		else
			fputs("null", out);
	}
}

/* The tasks the writeback trace saw paused (values beside the fixed blocks),
 * when the sample has the trace: "tasks":[{"pid":..,"comm":..,"throttled_ms":..,
 * "pauses":..,"task_ratelimit_kbps":..,"bdi":"MAJ:MIN"}], rates per second
 * from prev (null without one). */
static void jsonl_tasks(FILE *out, const struct snapshot *prev, const struct snapshot *cur,
			double dt_s)
{
	if (!jsonl_traced(cur))
		return;
	const struct snap_xval *v = cur->x, *end = cur->x + cur->nx;
	while (v < end && v->scope != SNAP_XTASK)
		v++;
	fputs(",\"tasks\":[", out);
	for (bool first = true; v < end && v->scope == SNAP_XTASK; first = false) {
		uint64_t pid = v->obj;
		fprintf(out, "%s{\"pid\":%" PRIu64 ",\"comm\":", first ? "" : ",", pid);
		const struct proc_counters *p = NULL;
		for (size_t lo = 0, hi = cur->nproc; lo < hi && !p;) {
			size_t mid = lo + (hi - lo) / 2;
			if ((uint64_t)(uint32_t)cur->proc[mid].pid == pid)
				p = &cur->proc[mid];
			else if ((uint64_t)(uint32_t)cur->proc[mid].pid < pid)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (p)
			jsonl_str(out, p->comm);
		else
			fputs("null", out);	/* processes were not sampled */
		static const struct jsonl_xkey keys[] = {
			{ SNAP_XTASK_THROTTLED_MS, "throttled_ms" }, { SNAP_XTASK_PAUSES, "pauses" },
			{ SNAP_XTASK_RATELIMIT_KBPS, "task_ratelimit_kbps" },
		};
		jsonl_xfields(out, prev, cur, SNAP_XTASK, pid, keys, sizeof keys / sizeof *keys, dt_s);
		fputs(",\"bdi\":", out);
		bool bdi = false;
		for (; v < end && v->scope == SNAP_XTASK && v->obj == pid; v++)
			if (v->kind == SNAP_XTASK_BDI && !bdi) {
				fprintf(out, "\"%u:%u\"", (unsigned)(v->value >> 32), (unsigned)(uint32_t)v->value);
				bdi = true;
			}
		fputs(bdi ? "}" : "null}", out);
	}
	fputc(']', out);
}

/* The memory cgroups of the sample (values beside the fixed blocks, by
 * inode number), when it has the trace or cgroup names:
 * "cgroups":[{"ino":..,"path":"/a"|null,"gone":false,"throttled_ms":..,...}]
 * with every fig_cg row of the registry as a key, rates per second from
 * prev (null where the sample has none). */
static void jsonl_cgroups(FILE *out, const struct snapshot *prev, const struct snapshot *cur,
			  double dt_s)
{
	if (!jsonl_traced(cur) && !cur->ncg)
		return;
	const struct snap_xval *v = cur->x, *end = cur->x + cur->nx;
	while (v < end && v->scope != SNAP_XCG)
		v++;
	fputs(",\"cgroups\":[", out);
	for (bool first = true; v < end && v->scope == SNAP_XCG; first = false) {
		uint64_t ino = v->obj;
		fprintf(out, "%s{\"ino\":%" PRIu64 ",\"path\":", first ? "" : ",", ino);
		const struct snap_cgroup *name = snapshot_find_cg(cur, ino);
		if (name && name->path[0])
			jsonl_str(out, name->path);
		else
			fputs("null", out);
		fprintf(out, ",\"gone\":%s", name && name->gone ? "true" : "false");
		for (size_t k = 0; k < fig_ncg; k++) {
			struct jsonl_xkey key = { fig_cg_table[k].kind, fig_cg_table[k].name };
			jsonl_xfields(out, prev, cur, SNAP_XCG, ino, &key, 1, dt_s);
		}
		fputc('}', out);
		while (v < end && v->scope == SNAP_XCG && v->obj == ino)
			v++;
	}
	fputc(']', out);
}

int jsonl_write(FILE *out, const struct frame *f)
{
	const struct snapshot *cur = f->cur;
	const struct sys_rates *sys = &f->sys;
	const struct dev_rates *dev = frame_dev_rates(f);
	if (!dev)
		return -EINVAL;	/* not a pipeline's frame */
	char t[48];
	jsonl_time(cur->wall_ns, t, sizeof t);
	fprintf(out, "{\"schema\":%d,\"time\":\"%s\",\"wall_ns\":%" PRId64 ",\"dt_s\":",
		JSONL_SCHEMA, t, cur->wall_ns);
	jsonl_num(out, sys->dt_s);
	fprintf(out, ",\"status\":\"%s\",", derive_status_name(sys->status));
	jsonl_sys(out, sys);
	fputs(",\"knobs\":{", out);
	for (int k = 0; k < SNAP_NKNOBS; k++) {
		/* an unreadable knob (an older kernel, a file gone) is unknown, not -1 */
		fprintf(out, "%s\"%s\":", k ? "," : "", knob_vm_table[k].name);
		if (cur->knob[k] < 0)
			fputs("null", out);
		else
			fprintf(out, "%" PRId64, cur->knob[k]);
	}
	fprintf(out, "},\"dip\":%s", f->sys_dip ? "true" : "false");
	jsonl_cause(out, "dip_cause", f->sys_dip, f->sys_cause);
	jsonl_depth(out, f->sys_dip, f->sys_depth);
	fputs(",\"devices\":[", out);
	for (size_t i = 0; i < cur->ndev; i++) {
		if (i)
			fputc(',', out);
		bool dip = f->dev_dip && f->dev_dip[i];
		jsonl_dev(out, &cur->dev[i], &dev[i], dip, dip && f->dev_cause ? f->dev_cause[i] : 0,
			  f->dev_depth ? f->dev_depth[i] : NAN);
	}
	fputc(']', out);
	jsonl_tasks(out, f->prev, cur, sys->dt_s);
	jsonl_cgroups(out, f->prev, cur, sys->dt_s);
	jsonl_events(out, f);
	fputs("}\n", out);
	return ferror(out) ? (errno ? -errno : -EIO) : 0;
}


/* ---- the sink ------------------------------------------------------------ */

static int jsonl_sink_frame(struct sink *s, const struct frame *f)
{
	struct sink_stream *st = s->impl;
	if (!f->prev)
		return 0;	/* the baseline: no interval yet */
	int rc = jsonl_write(st->out, f);
	if (rc == 0 && fflush(st->out) == EOF)
		rc = errno ? -errno : -EIO;
	if (rc < 0)
		snprintf(s->errmsg, sizeof s->errmsg, "%s: %s", st->name, strerror(-rc));
	return rc;
}

static const struct sink_ops jsonl_sink_ops = {
	.kind = "json", .frame = jsonl_sink_frame, .close = sink_stream_close,
};

struct sink *jsonl_sink_new(FILE *out, const char *out_name)
{
	return sink_stream_new(&jsonl_sink_ops, out, out_name);
}
