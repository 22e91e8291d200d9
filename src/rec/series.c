/*
 * series.c - a recording read into per-device rate series.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "core/derive.h"
#include "core/detect.h"
#include "core/event.h"
#include "core/figure.h"
#include "util/grow.h"
#include "core/ident.h"
#include "core/pipeline.h"
#include "rec/rec.h"
#include "rec/rec_db.h"
#include "rec/rec_idmap.h"
#include "rec/series.h"

void series_dev_clear(struct series_dev *d)
{
	free(d->key);
	free(d->label);
	free(d->kname);
	free(d->mounts);
	free(d->fs_label);
	free(d->fstype);
	free(d->t_s);
	free(d->kbps);
	free(d->dt_s);
	free(d->dip);
	free(d->end);
	memset(d, 0, sizeof *d);
}

void series_free(struct series *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ndev; i++)
		series_dev_clear(&s->dev[i]);
	series_dev_clear(&s->total);
	free(s->dev);
	free(s->changes);
	free(s->path);
	free(s->case_name);
	free(s->command);
	free(s->sweep);
	free(s);
}

const struct series_dev *series_find(const struct series *s, const char *key)
{
	for (size_t i = 0; i < s->ndev; i++)
		if (!strcmp(s->dev[i].key, key))
			return &s->dev[i];
	return NULL;
}

bool series_dev_selected(const struct series_dev *d, const struct re_pattern_buffer *re)
{
	if (!re)
		return true;
	const char *names[] = { d->kname, d->label, d->key };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i] && regexec(re, names[i], 0, NULL, 0) == 0)
			return true;
	/* each mount point on its own, so that ^/mnt/a$ can match one */
	char *m = d->mounts ? strdup(d->mounts) : NULL, *save = NULL;
	bool hit = false;
	for (char *t = m ? strtok_r(m, " ", &save) : NULL; t && !hit; t = strtok_r(NULL, " ", &save))
		hit = regexec(re, t, 0, NULL, 0) == 0;
	free(m);
	return hit;
}

/* The arrays grow together, doubling: a long recording is read without a
 * reallocation per sample. */
static int series_push(struct series_dev *d, double t_s, double kbps, double dt_s, bool dip)
{
	const struct grow_part parts[] = {
		{ (void **)&d->t_s, sizeof *d->t_s }, { (void **)&d->kbps, sizeof *d->kbps },
		{ (void **)&d->dt_s, sizeof *d->dt_s }, { (void **)&d->dip, sizeof *d->dip },
		{ (void **)&d->end, sizeof *d->end },
	};
	if (grow_arrays(parts, sizeof parts / sizeof parts[0], &d->cap, d->n + 1, 64) < 0)
		return -ENOMEM;
	d->t_s[d->n] = t_s;
	d->kbps[d->n] = kbps;
	d->dt_s[d->n] = dt_s;
	d->dip[d->n] = dip;
	d->end[d->n] = false;
	d->n++;
	d->ndips += dip;
	return 0;
}

/* Which marks are the end of a workload, in d->end: those of a stretch of idle intervals (at
 * most the detector's idle floor), after a busy one, that lasts DIP_END_SECONDS or reaches the
 * end of the run.
 * The detector marks such a stretch live until it has lasted that long (it has no
 * look-ahead); a comparison, which sees the whole run, does not count those marks. */
static void series_dev_ends(struct series_dev *d)
{
	d->ndips = 0;
	bool worked = false;	/* a busy interval came before: there is a workload to end */
	for (size_t k = 0; k < d->n;) {
		if (!(d->kbps[k] <= DIP_DEFAULT_IDLE_KBPS)) {
			d->end[k] = false;
			d->ndips += d->dip[k];
			worked |= d->kbps[k] > DIP_DEFAULT_IDLE_KBPS;
			k++;
			continue;
		}
		size_t j = k;
		double secs = 0;
		for (; j < d->n && d->kbps[j] <= DIP_DEFAULT_IDLE_KBPS; j++)
			secs += d->dt_s[j];
		bool end = worked && (j == d->n || secs >= DIP_END_SECONDS);
		for (; k < j; k++) {
			d->end[k] = end && d->dip[k];
			d->ndips += d->dip[k] && !end;
		}
	}
}

static char *series_dup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* The series of d's key, new if there is none: a device that left and came
 * back (a second devices row) stays one series, present when it was. */
static struct series_dev *series_add_dev(struct series *s, const struct dev_counters *d)
{
	char name[sizeof d->name + 1], key[IDENT_KEY_MAX];
	snprintf(name, sizeof name, "%.*s", (int)strnlen(d->name, sizeof d->name), d->name);
	const struct dev_ident *id = d->ident;
	const char *k = ident_dev_key(d, key, sizeof key);
	for (size_t i = 0; i < s->ndev; i++)
		if (!strcmp(s->dev[i].key, k))
			return &s->dev[i];
	struct series_dev *v = realloc(s->dev, (s->ndev + 1) * sizeof *v);
	if (!v)
		return NULL;
	s->dev = v;
	struct series_dev *e = &s->dev[s->ndev];
	memset(e, 0, sizeof *e);
	e->key = strdup(k);
	e->label = strdup(id && id->label_short ? id->label_short : name);
	e->kname = strdup(name);
	e->mounts = series_dup(id ? id->mounts : NULL);
	e->fs_label = series_dup(id ? id->fs_label : NULL);
	e->fstype = series_dup(id ? id->fstype : NULL);
	if (!e->key || !e->label || !e->kname) {
		series_dev_clear(e);
		return NULL;
	}
	s->ndev++;
	return e;
}

/* The series of the devices row id, found by key once per row. */
static struct series_dev *series_dev_of(struct series *s, struct rec_idmap *of_id, int64_t id,
					const struct dev_counters *d)
{
	size_t k = rec_idmap_get(of_id, id);
	if (k != SIZE_MAX)
		return &s->dev[k];
	struct series_dev *e = series_add_dev(s, d);
	if (e && rec_idmap_put(of_id, id, (size_t)(e - s->dev)) < 0)
		return NULL;
	return e;
}

static int series_add_changes(struct series *s, const struct snapshot *prev,
			      const struct snapshot *cur, double t_s)
{
	for (int k = 0; k < SNAP_NKNOBS; k++) {
		if (prev->knob[k] == cur->knob[k])
			continue;
		struct series_change *c = realloc(s->changes, (s->nchanges + 1) * sizeof *c);
		if (!c)
			return -ENOMEM;
		s->changes = c;
		c[s->nchanges++] = (struct series_change){ t_s, k, prev->knob[k], cur->knob[k] };
	}
	return 0;
}

/* One interval of the replay into s. */
static int series_interval(struct series *s, struct source *src, struct rec_idmap *of_id,
			   const struct frame *f)
{
	/* the marks the recording holds: the pipeline puts them in the frame */
	struct source_marks m = { f->sys_dip, f->dev_dip, NULL, 0, f->dev_cause, f->sys_cause };
	const struct snapshot *cur = f->cur;
	/* wall time for the axis (what people read off a picture); the rates
	 * themselves come from the monotonic clock, in derive.c */
	double t_s = (double)(cur->wall_ns - s->start_wall_ns) / 1e9;
	memcpy(s->knob_last, cur->knob, sizeof s->knob_last);
	int r = series_add_changes(s, f->prev, cur, t_s);
	if (r == 0 && f->sys.status == RATE_OK)
		r = series_push(&s->total, t_s, f->sys.bo_kbps, f->sys.dt_s, m.sys_dip);
	const struct dev_rates *rates = frame_dev_rates(f);
	const struct fig_dev *wrate = figure_dev_write_rate();	/* what a run is compared by */
	const int64_t *ids = rec_replay_dev_ids(src);
	for (size_t i = 0; r == 0 && i < cur->ndev; i++) {
		struct series_dev *e = series_dev_of(s, of_id, ids ? ids[i] : -1, &cur->dev[i]);
		if (!e)
			return -ENOMEM;
		/* a first or reset interval has no rate: absent, not zero */
		if (rates && rates[i].status == RATE_OK)
			r = series_push(e, t_s, figure_dev_value(wrate, &rates[i]), f->sys.dt_s,
					m.dev_dips && m.dev_dips[i]);
	}
	return r;
}

/* The case name: meta "case", else the file's base name without its
 * recording extension. */
static char *series_case_name(const char *path, const char *meta)
{
	if (meta[0])
		return strdup(meta);
	const char *base = strrchr(path, '/');
	base = base && base[1] ? base + 1 : path;
	size_t n = strlen(base);
	static const char *const exts[] = { ".wbrec", ".db", ".sqlite" };
	for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
		size_t e = strlen(exts[i]);
		if (n > e && !strcmp(base + n - e, exts[i])) {
			n -= e;
			break;
		}
	}
	return strndup(base, n);
}

static int series_meta(struct series *s, const char *path, char *err, size_t errlen)
{
	char v[4096];
	int r = rec_meta_get(path, "case", v, sizeof v, err, errlen);
	if (r == 0 && !(s->case_name = series_case_name(path, v)))
		r = -ENOMEM;
	if (r == 0 && (r = rec_meta_get(path, "command", v, sizeof v, err, errlen)) == 0 && v[0] &&
	    !(s->command = strdup(v)))
		r = -ENOMEM;
	if (r == 0 && (r = rec_meta_get(path, "sweep", v, sizeof v, err, errlen)) == 0 && v[0] &&
	    !(s->sweep = strdup(v)))
		r = -ENOMEM;
	if (r == -ENOMEM)
		rec_db_set_err(err, errlen, "%s: out of memory", path);
	return r;
}

static int series_walk(struct series *s, struct source *src, char *err, size_t errlen)
{
	struct dip_params dip;
	detect_params_default(&dip);
	struct pipeline *p = pipeline_new(src, &dip, pipeline_marks_rule(false));
	struct rec_idmap of_id = { 0 };
	int r = p ? 0 : -ENOMEM;
	bool first = true;
	while (r == 0) {
		const struct frame *f;
		r = pipeline_step(p, &f);
		if (r != 0)
			break;
		if (first) {
			s->start_wall_ns = f->cur->wall_ns;
			memcpy(s->knob_first, f->cur->knob, sizeof s->knob_first);
			memcpy(s->knob_last, f->cur->knob, sizeof s->knob_last);
			first = false;
			continue;	/* only a baseline: no interval ends at it */
		}
		r = series_interval(s, src, &of_id, f);
		if (r == -ENOMEM)
			rec_db_set_err(err, errlen, "%s: out of memory", s->path);
	}
	if (r < 0 && r != -ENOMEM)
		rec_db_set_err(err, errlen, "%s", src->errmsg[0] ? src->errmsg : strerror(-r));
	rec_idmap_free(&of_id);
	pipeline_free(p);
	return r == 1 ? 0 : r;
}

int series_total_of(const struct series *s, const struct re_pattern_buffer *re, struct series_dev *out)
{
	memset(out, 0, sizeof *out);
	size_t *at = calloc(s->ndev + 1, sizeof *at);	/* each device's next interval */
	int r = at && (out->key = strdup("total")) && (out->label = strdup("TOTAL")) ? 0 : -ENOMEM;
	for (size_t k = 0; r == 0 && k < s->total.n; k++) {
		double t = s->total.t_s[k], kbps = 0;
		bool dip = false;
		for (size_t i = 0; i < s->ndev; i++) {
			const struct series_dev *d = &s->dev[i];
			/* a device's intervals are a subset of the total's, in order */
			while (at[i] < d->n && d->t_s[at[i]] < t)
				at[i]++;
			if (at[i] < d->n && d->t_s[at[i]] == t && series_dev_selected(d, re)) {
				kbps += d->kbps[at[i]];
				dip |= d->dip[at[i]] && !d->end[at[i]];
			}
		}
		r = series_push(out, t, kbps, s->total.dt_s[k], dip);
	}
	free(at);
	if (r < 0)
		series_dev_clear(out);
	return r;
}

int series_load(const char *path, struct series **out, char *err, size_t errlen)
{
	*out = NULL;
	struct series *s = calloc(1, sizeof *s);
	if (!s || !(s->path = strdup(path)) || !(s->total.key = strdup("total")) ||
	    !(s->total.label = strdup("TOTAL"))) {
		series_free(s);
		rec_db_set_err(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	for (int k = 0; k < SNAP_NKNOBS; k++)
		s->knob_first[k] = s->knob_last[k] = -1;
	struct source *src = rec_replay_open(path, false, err, errlen);
	int r = src ? series_meta(s, path, err, errlen) : -EINVAL;
	if (r == 0)
		r = series_walk(s, src, err, errlen);
	source_close(src);
	if (r < 0) {
		series_free(s);
		return r;
	}
	series_dev_ends(&s->total);
	for (size_t i = 0; i < s->ndev; i++)
		series_dev_ends(&s->dev[i]);
	*out = s;
	return 0;
}
