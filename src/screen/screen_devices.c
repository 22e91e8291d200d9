/*
 * screen_devices.c - the device table: which devices show (filter, idle),
 * in what order (sort column), which columns fit the width, the selected
 * row and scrolling, and a sparkline of each device's recent writes.
 * Columns are the figure registry's rows with a screen title (figure.h).
 * No cap on devices: the row order is an index array grown with the set.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/figure.h"
#include "util/grow.h"
#include "core/ident.h"
#include "screen/screen_calc.h"
#include "screen_clock.h"
#include "screen_devices.h"
#include "screen_graph.h"
#include "screen_paint.h"
#include "screen_say.h"
#include "util/topk.h"

#define SCR_NAME_MIN 12
#define SCR_NAME_PREF 24	/* "vg-home /home xfs": before optional columns */
#define SCR_NAME_MAX 40
#define SCR_SPARK_MIN 8
#define SCR_SPARK_PREF 16
#define SCR_SPARK_MAX 60
/* A sparkline's scale never goes below this (KiB/s), so a trickle of
 * writes shows as a trickle, not as a full bar. */
#define SCR_SPARK_FLOOR_KBPS 256.0
/* '!' shows the devices that dipped this long ago or less, in the samples' time: long enough
 * for a dip of the last interval or two to stay in view while it is looked into, short enough
 * that a device that dipped once at the start of a long run does not stay. */
#define SCR_DIPS_LATELY_NS (60 * (int64_t)1000000000)

/* The columns, in screen order, from the figure registry: once per screen. */
void screen_devices_cols_init(struct screen *s)
{
	s->ncols = figure_dev_screen_cols(s->cols, SCR_MAX_COLS);
	s->max_level = 0;
	for (size_t c = 0; c < s->ncols; c++)
		if (s->cols[c]->screen.level > s->max_level)
			s->max_level = s->cols[c]->screen.level;
	s->write_col = figure_dev_write_rate();
	const struct fig_dev *first = figure_dev_sort_first();
	s->sort_col = first ? screen_devices_col_by_title(s, first->screen.title) : -1;
}

/* The columns that fit this width, and the name and sparkline widths. */
struct screen_devices_layout {
	bool on[SCR_MAX_COLS];
	int name_w, spark_w;
};

static bool screen_devices_col_needed(const struct screen *s, const struct fig_dev *c)
{
	return figure_dev_wanted(c, s->want_discard, s->want_flush);
}

/* Add the optional columns that fit, in level order, keeping room for a
 * readable name and a useful sparkline: who a device is matters more than
 * its merge counts. */
static void screen_devices_layout_optional(const struct screen *s, int width,
					   struct screen_devices_layout *L, int *used)
{
	for (int level = 1; level <= s->max_level; level++)
		for (size_t c = 0; c < s->ncols; c++) {
			const struct fig_dev *col = s->cols[c];
			if (col->screen.level != level || !screen_devices_col_needed(s, col))
				continue;
			if (width - *used - col->screen.width < SCR_NAME_PREF + 1 + SCR_SPARK_PREF)
				return;
			L->on[c] = true;
			*used += col->screen.width;
		}
}

/* Seconds a flush or discard column stays after its last non-zero figure:
 * it must not come and go with every burst. */
#define SCR_COL_HOLD_NS 10000000000ull

static bool screen_devices_col_quiet(const struct screen *s, unsigned need)
{
	uint64_t seen = need == FIG_NEED_FLUSH ? s->flush_seen_ns : s->discard_seen_ns;
	return !seen || screen_clock_now_ns() - seen > SCR_COL_HOLD_NS;
}

static void screen_devices_layout(const struct screen *s, int width, struct screen_devices_layout *L)
{
	int used = 1;	/* the dip marker */
	for (size_t c = 0; c < s->ncols; c++) {
		L->on[c] = s->cols[c]->screen.level == 0 && screen_devices_col_needed(s, s->cols[c]);
		used += L->on[c] ? s->cols[c]->screen.width : 0;
	}
	/* Narrow: the discard, then the flush columns give way to the name. */
	static const unsigned give_way[] = { FIG_NEED_DISCARD, FIG_NEED_FLUSH };
	for (size_t g = 0; g < 2; g++)
		for (size_t c = s->ncols; c-- > 0 && width - used < SCR_NAME_MIN + 1 + SCR_SPARK_MIN;)
			if (L->on[c] && (s->cols[c]->need & give_way[g])) {
				L->on[c] = false;
				used -= s->cols[c]->screen.width;
			}
	/* Columns of nothing (no flush, no discard on any row shown for a
	 * while) give way before a name is cut: the name tells devices apart. */
	for (size_t g = 0; g < 2; g++)
		for (size_t c = s->ncols; c-- > 0 && width - used < s->label_max + 1 + SCR_SPARK_MIN;)
			if (L->on[c] && (s->cols[c]->need & give_way[g]) && screen_devices_col_quiet(s, give_way[g])) {
				L->on[c] = false;
				used -= s->cols[c]->screen.width;
			}
	screen_devices_layout_optional(s, width, L, &used);
	int rest = width - used;	/* name, a space, the sparkline */
	int name = rest - 1 - SCR_SPARK_PREF;
	name = name < SCR_NAME_MIN ? SCR_NAME_MIN : name > SCR_NAME_MAX ? SCR_NAME_MAX : name;
	int spark = rest - name - 1;
	if (spark > SCR_SPARK_MAX)
		spark = SCR_SPARK_MAX;
	if (spark < SCR_SPARK_MIN)
		spark = rest - SCR_NAME_MIN - 1 < 0 ? 0 : rest - SCR_NAME_MIN - 1;
	L->spark_w = spark;
	L->name_w = rest - spark - 1;
}

/* ---- names, keys and the filter ---- */

static void screen_devices_append(char *buf, size_t len, const char *text, size_t n)
{
	size_t have = strlen(buf);
	if (have + 1 >= len)
		return;
	if (n > len - have - 1)
		n = len - have - 1;
	memcpy(buf + have, text, n);
	buf[have + n] = '\0';
}

const char *screen_devices_label(const struct dev_counters *d, char *buf, size_t len)
{
	const struct dev_ident *id = d->ident;
	buf[0] = '\0';
	const char *base = id && id->label_short ? id->label_short : d->name;
	screen_devices_append(buf, len, base, strlen(base));
	if (id && id->mounts) {
		size_t first = strcspn(id->mounts, " ");
		screen_devices_append(buf, len, " ", 1);
		screen_devices_append(buf, len, id->mounts, first);
		if (id->mounts[first])
			screen_devices_append(buf, len, "+", 1);	/* mounted in more places */
	}
	if (id && id->fstype) {
		screen_devices_append(buf, len, " ", 1);
		screen_devices_append(buf, len, id->fstype, strlen(id->fstype));
	}
	/* One byte, one column: anything else would break the table. */
	for (char *p = buf; *p; p++)
		if (!isprint((unsigned char)*p))
			*p = '?';
	return buf;
}

const char *screen_devices_label_fit(const struct dev_counters *d, int width, char *buf, size_t len)
{
	screen_devices_label(d, buf, len);
	const struct dev_ident *id = d->ident;
	if ((int)strlen(buf) <= width || width <= 0 || !id)
		return buf;
	/* Too long: the filesystem type goes first; then the mount point keeps
	 * its tail ("..exp/m1"), which is where mount points differ; a device
	 * without one shows its filesystem label instead. */
	const char *base = id->label_short ? id->label_short : d->name;
	size_t first = id->mounts ? strcspn(id->mounts, " ") : 0;
	const char *tail = id->mounts ? id->mounts : id->fs_label;
	size_t tail_len = id->mounts ? first : tail ? strlen(tail) : 0;
	int room = width - (int)strlen(base) - 1;
	buf[0] = '\0';
	screen_devices_append(buf, len, base, strlen(base));
	if (tail && room >= 4) {
		screen_devices_append(buf, len, " ", 1);
		if ((int)tail_len > room) {
			screen_devices_append(buf, len, "..", 2);
			screen_devices_append(buf, len, tail + tail_len - (size_t)(room - 2), (size_t)(room - 2));
		} else {
			screen_devices_append(buf, len, tail, tail_len);
		}
	}
	for (char *p = buf; *p; p++)
		if (!isprint((unsigned char)*p))
			*p = '?';
	return buf;
}

bool screen_devices_set_filter(struct screen *s, const char *text)
{
	if (!text || !*text) {
		if (s->have_filter)
			regfree(&s->filter);
		s->have_filter = false;
		s->filter_text[0] = '\0';
		return true;
	}
	regex_t re;
	int rc = regcomp(&re, text, REG_EXTENDED | REG_ICASE | REG_NOSUB);
	if (rc != 0) {
		char why[128];
		regerror(rc, &re, why, sizeof why);
		screen_say_answer(s, "filter '%s': %s", text, why);
		return false;
	}
	if (s->have_filter)
		regfree(&s->filter);
	s->filter = re;
	s->have_filter = true;
	s->filter_gen++;
	snprintf(s->filter_text, sizeof s->filter_text, "%s", text);
	return true;
}

static bool screen_devices_match(const struct screen *s, const char *text)
{
	return text && regexec(&s->filter, text, 0, NULL, 0) == 0;
}

static bool screen_devices_filter_match(const struct screen *s, const struct dev_counters *d)
{
	const struct dev_ident *id = d->ident;
	return screen_devices_match(s, d->name) ||
	       (id && (screen_devices_match(s, id->label_short) || screen_devices_match(s, id->dm_name) ||
		       screen_devices_match(s, id->md_name) || screen_devices_match(s, id->mounts) ||
		       screen_devices_match(s, id->fstype) || screen_devices_match(s, id->fs_label) ||
		       screen_devices_match(s, id->key)));
}

/* Whether device i passes the filter.  Matching is eight regexec calls: the verdict is kept
 * per device until the filter or the device's identity changes (an identity lives as long as
 * the device does and is replaced, not changed, when its names change). */
static bool screen_devices_selected_by_filter(struct screen *s, size_t i)
{
	if (!s->have_filter)
		return true;
	const struct dev_counters *d = &s->f->cur->dev[i];
	struct scr_filter_memo *m = &s->fmemo[i];
	if (m->gen != s->filter_gen || m->ident != d->ident || m->major != d->major ||
	    m->minor != d->minor || (!d->ident && !snapshot_dev_name_eq(m->name, d->name))) {
		m->gen = s->filter_gen;
		m->ident = d->ident;
		m->major = d->major;
		m->minor = d->minor;
		memcpy(m->name, d->name, sizeof m->name);
		m->ok = screen_devices_filter_match(s, d);
	}
	return m->ok;
}

void screen_devices_free(struct screen *s)
{
	if (s->have_filter)
		regfree(&s->filter);
	s->have_filter = false;
	free(s->order);
	free(s->cand);
	free(s->fmemo);
	free(s->name_rank);
	free(s->rank_dev);
	s->order = NULL;
	s->cand = NULL;
	s->fmemo = NULL;
	s->name_rank = NULL;
	s->rank_dev = NULL;
	s->cap_order = s->norder = s->nsorted = s->nrank = 0;
}

/* ---- which rows, in what order ---- */

/* The table shows a page of rows of maybe thousands of devices, so a frame does not sort
 * them all: it gives each device shown a sort key (one figure, from what the step derived
 * anyway where it can), and the rows up to the last one drawn are selected from those keys
 * (screen_devices_order_upto), the rest left unordered.  Ties go by the device's place in name order,
 * a number kept until the set of devices changes. */

/* Device i's sort key for a column other than the write rate (screen_devices_update takes that one
 * as the step derived it): its figure, or +-INFINITY (at the end) without one; briefs are the
 * frame's (asked once a frame, not a device). */
static double screen_devices_sort_key(const struct screen *s, size_t i, const struct dev_rates *briefs)
{
	const struct fig_dev *col = s->cols[s->sort_col];
	double none = col->sort == FIG_SORT_DESC ? -INFINITY : INFINITY;
	const struct dev_rates *r = (col->sinks & FIG_IN_BRIEF) ? &briefs[i] :
				    frame_dev_rate(s->f, i);
	double v = r->status == RATE_OK ? figure_dev_value(col, r) : none;
	return isnan(v) ? none : v;
}

/* Each device's place in name order, when the devices are not the ones of the last frame. */
static int screen_devices_name_cmp(const void *a, const void *b, void *arg)
{
	const struct dev_counters *dev = arg;
	return screen_calc_name_cmp(dev[*(const uint32_t *)a].name, dev[*(const uint32_t *)b].name);
}

static bool screen_devices_name_ranks(struct screen *s)
{
	const struct snapshot *cur = s->f->cur;
	bool same = s->nrank == cur->ndev;
	if (same && cur->devs_serial && cur->devs_serial == s->rank_serial)
		return true;	/* the list its source numbered so last frame */
	for (size_t i = 0; same && i < cur->ndev; i++)
		same = s->rank_dev[i].major == cur->dev[i].major &&
		       s->rank_dev[i].minor == cur->dev[i].minor &&
		       snapshot_dev_name_eq(s->rank_dev[i].name, cur->dev[i].name);
	if (same) {
		s->rank_serial = cur->devs_serial;
		return true;
	}
	s->rank_serial = 0;	/* until the ranks are made again */
	uint32_t *by_name = malloc(cur->ndev * sizeof *by_name + 1);
	if (!by_name)
		return false;
	for (size_t i = 0; i < cur->ndev; i++) {
		by_name[i] = (uint32_t)i;
		s->rank_dev[i].major = cur->dev[i].major;
		s->rank_dev[i].minor = cur->dev[i].minor;
		memcpy(s->rank_dev[i].name, cur->dev[i].name, sizeof s->rank_dev[i].name);
	}
	qsort_r(by_name, cur->ndev, sizeof *by_name, screen_devices_name_cmp, cur->dev);
	for (size_t k = 0; k < cur->ndev; k++)
		s->name_rank[by_name[k]] = (uint32_t)k;
	free(by_name);
	s->nrank = cur->ndev;
	s->rank_serial = cur->devs_serial;
	return true;
}

static bool screen_devices_grow(struct screen *s, size_t n)
{
	size_t had = s->cap_order;
	if (n <= had)
		return true;
	const struct grow_part parts[] = {
		{ (void **)&s->order, sizeof *s->order }, { (void **)&s->cand, sizeof *s->cand },
		{ (void **)&s->name_rank, sizeof *s->name_rank }, { (void **)&s->rank_dev, sizeof *s->rank_dev },
		{ (void **)&s->fmemo, sizeof *s->fmemo },
	};
	if (grow_arrays(parts, sizeof parts / sizeof parts[0], &s->cap_order, n, n) < 0)
		return false;
	memset(s->fmemo + had, 0, (s->cap_order - had) * sizeof *s->fmemo);
	s->nrank = 0;	/* grown arrays: ranks again */
	return true;
}

/* Device i's series in the history (NULL: none), found at its place in the frame. */
static const struct hist_series *screen_devices_series(const struct screen *s, size_t i)
{
	const char *const *keys = frame_dev_keys(s->f);
	const uint64_t *ids = frame_dev_ids(s->f);
	return s->h && keys ? history_find_at(s->h, i, keys[i], ids ? ids[i] : 0) : NULL;
}

/* Did device i dip in the last SCR_DIPS_LATELY_NS of samples (this frame's time), by the
 * history's marks? */
static bool screen_devices_dipped_lately(const struct screen *s, size_t i)
{
	const struct hist_series *hs = screen_devices_series(s, i);
	int64_t at, now = s->f->cur->wall_ns;
	return hs && history_last_dip(s->h, hs, &at) && at <= now && now - at <= SCR_DIPS_LATELY_NS;
}

static bool screen_devices_shown(const struct screen *s, size_t i, const struct dev_rates *briefs)
{
	const struct dev_rates *r = &briefs[i];
	bool dip = s->f->dev_dip && s->f->dev_dip[i];
	if (s->only_dips)
		return dip || screen_devices_dipped_lately(s, i);
	return s->show_idle || dip || (r->status == RATE_OK && r->active);
}

void screen_devices_order_upto(struct screen *s, size_t n)
{
	if (n > s->norder)
		n = s->norder;
	if (n <= s->nsorted)
		return;
	struct topk_order o = { s->key_asc, s->sort_rev };
	topk_select(&o, s->cand, s->nsorted, s->norder, n - s->nsorted);
	for (size_t k = s->nsorted; k < n; k++)
		s->order[k] = s->cand[k].idx;
	s->nsorted = n;
}

/* Where the selected device is in the order: the candidates before it, counted. */
static bool screen_devices_rank_of_sel(struct screen *s, size_t *rank)
{
	for (size_t k = 0; k < s->norder; k++) {
		const struct dev_counters *d = &s->f->cur->dev[s->cand[k].idx];
		if (d->major == s->sel_major && d->minor == s->sel_minor) {
			struct topk_order o = { s->key_asc, s->sort_rev };
			*rank = topk_rank(&o, s->cand, s->norder, &s->cand[k]);
			return true;
		}
	}
	return false;
}

/* Once the user has picked a row, the selection follows that device when the order
 * changes; until then it stays on the top row. */
static void screen_devices_keep_selection(struct screen *s)
{
	if (!s->have_sel) {
		s->sel = 0;
		return;
	}
	if (screen_devices_rank_of_sel(s, &s->sel))
		return;
	/* the device is gone or hidden: stay at the same place in the table */
	if (s->sel >= s->norder)
		s->sel = s->norder ? s->norder - 1 : 0;
	if (s->norder) {
		screen_devices_order_upto(s, s->sel + 1);
		s->sel_major = s->f->cur->dev[s->order[s->sel]].major;
		s->sel_minor = s->f->cur->dev[s->order[s->sel]].minor;
	}
}

void screen_devices_update(struct screen *s)
{
	s->norder = s->nselected = s->nsorted = 0;
	s->want_flush = s->want_discard = false;
	if (!s->f)
		return;
	const struct snapshot *cur = s->f->cur;
	if (!screen_devices_grow(s, cur->ndev) || !screen_devices_name_ranks(s))
		return;	/* an empty table this frame; the next may fit */
	s->key_asc = s->sort_col >= 0 && s->cols[s->sort_col]->sort == FIG_SORT_ASC;
	const struct dev_rates *briefs = frame_dev_briefs(s->f);
	const double *write_kbps = frame_dev_write_kbps(s->f);
	if (!briefs || !write_kbps)
		return;
	/* every device every frame: what the loop reads of s is read once, and what it counts is
	 * counted in locals (stored through s, they would be stored and read again each device) */
	struct topk_item *cand = s->cand;
	const uint32_t *name_rank = s->name_rank;
	bool keyed = s->sort_col >= 0;
	bool by_write = keyed && s->cols[s->sort_col] == s->write_col;
	double none = keyed && s->cols[s->sort_col]->sort == FIG_SORT_ASC ? INFINITY : -INFINITY;
	size_t norder = 0, nselected = 0;
	bool want_flush = false, want_discard = false;
	for (size_t i = 0; i < cur->ndev; i++) {
		const struct dev_counters *d = &cur->dev[i];
		if (!screen_devices_selected_by_filter(s, i))
			continue;
		nselected++;
		if (!screen_devices_shown(s, i, briefs))
			continue;
		struct topk_item *c = &cand[norder++];
		c->idx = (uint32_t)i;
		c->rank = name_rank[i];
		if (by_write)	/* the default: the rate the dip detector was given */
			c->key = write_kbps[i] < 0 ? none : write_kbps[i];
		else
			c->key = keyed ? screen_devices_sort_key(s, i, briefs) : 0.0;
		/* "has them": the device has done flushes or discards at all */
		want_flush |= d->nfields >= 17 && d->f[DS_FL_IOS] > 0;
		want_discard |= d->nfields >= 15 && d->f[DS_DC_IOS] > 0;
	}
	s->norder = norder;
	s->nselected = nselected;
	s->want_flush = want_flush;
	s->want_discard = want_discard;
	screen_devices_keep_selection(s);
}

size_t screen_devices_order_at(struct screen *s, size_t k)
{
	screen_devices_order_upto(s, k + 1);
	return s->order[k];
}

const struct dev_counters *screen_devices_selected(struct screen *s, size_t *index)
{
	if (!s->f)
		return NULL;
	const struct snapshot *cur = s->f->cur;
	if (!s->have_sel) {	/* the top row */
		if (!s->norder)
			return NULL;
		size_t i = screen_devices_order_at(s, 0);
		if (index)
			*index = i;
		return &cur->dev[i];
	}
	for (size_t i = 0; i < cur->ndev; i++)
		if (cur->dev[i].major == s->sel_major && cur->dev[i].minor == s->sel_minor) {
			if (index)
				*index = i;
			return &cur->dev[i];
		}
	return NULL;
}

void screen_devices_note_selection(struct screen *s)
{
	if (!s->norder)
		return;
	const struct dev_counters *d = &s->f->cur->dev[screen_devices_order_at(s, s->sel)];
	s->sel_major = d->major;
	s->sel_minor = d->minor;
	s->have_sel = true;
}

/* ---- drawing ---- */

static void screen_devices_draw_header(struct screen *s, int y, const struct screen_devices_layout *L)
{
	struct scr_line ln = { y, 0, COLS };
	char buf[192];
	attr_t a = screen_paint_attr(s, SCR_HEADER);
	attron(a);
	mvhline(y, 0, ' ', COLS);
	attroff(a);
	const char *by_name = s->sort_col >= 0 ? "" : s->sort_rev ? (s->utf8 ? "\u25bc" : "v") :
			      (s->utf8 ? "\u25b2" : "^");
	if (s->norder)
		snprintf(buf, sizeof buf, " DEVICE%s %zu/%zu", by_name, s->sel + 1, s->norder);
	else
		snprintf(buf, sizeof buf, " DEVICE%s", by_name);
	struct scr_line name = { y, 0, L->name_w + 1 };
	screen_paint_add(s, &name, SCR_HEADER, buf);	/* (the row is already blank in the header colour) */
	ln.x = L->name_w + 1;
	for (size_t c = 0; c < s->ncols; c++) {
		if (!L->on[c])
			continue;
		const struct fig_screen *col = &s->cols[c]->screen;
		const char *arrow = (int)c == s->sort_col ? (s->sort_rev ? (s->utf8 ? "\u25b2" : "^") :
						(s->utf8 ? "\u25bc" : "v")) : "";
		int pad = col->width - (int)strlen(col->title) - (*arrow ? 1 : 0);
		screen_paint_addf(s, &ln, SCR_HEADER, "%*s", pad, "");
		screen_paint_add(s, &ln, SCR_HEADER, arrow);
		screen_paint_add(s, &ln, SCR_HEADER, col->title);
	}
	screen_paint_add(s, &ln, SCR_HEADER, " writes");
}

static void screen_devices_draw_row(struct screen *s, int y, size_t i, const struct screen_devices_layout *L, bool sel)
{
	const struct dev_counters *d = &s->f->cur->dev[i];
	const struct dev_rates *r = frame_dev_rate(s->f, i);
	bool dip = s->f->dev_dip && s->f->dev_dip[i];
	enum scr_role role = dip ? SCR_DIP : (r->status == RATE_OK && r->active) ? SCR_NORMAL : SCR_DIM;
	struct scr_line ln = { y, 0, COLS };
	char name[160], v[24];
	screen_paint_add(s, &ln, SCR_DIP, dip ? "!" : " ");
	/* the label and the cells, all in the row's colour, put in as one text */
	char text[512];
	size_t n = screen_calc_pad_into(text, sizeof text, 0,
				   screen_devices_label_fit(d, L->name_w, name, sizeof name), L->name_w, true);
	for (size_t c = 0; c < s->ncols; c++) {
		if (!L->on[c])
			continue;
		const struct fig_dev *col = s->cols[c];
		screen_calc_fmt_num(screen_devices_col_value(col, r), col->screen.width - 1, col->screen.prec,
				    v, sizeof v);
		n = screen_calc_pad_into(text, sizeof text, n, v, col->screen.width, false);
	}
	screen_paint_add(s, &ln, role, text);
	screen_paint_add(s, &ln, SCR_NORMAL, " ");
	const struct hist_series *hs = screen_devices_series(s, i);
	if (hs && L->spark_w > 0 && screen_graph_scratch(s, (size_t)L->spark_w)) {
		history_series(s->h, hs, history_dev_field(figure_dev_write_rate()), s->vals, (size_t)L->spark_w);
		history_marks(s->h, hs, true, s->dips, NULL, (size_t)L->spark_w);
		screen_graph_spark(s, &ln, s->vals, s->dips, L->spark_w, SCR_SPARK_FLOOR_KBPS);
	}
	if (sel) {
		attr_t a = screen_paint_attr(s, dip ? SCR_SELECT_DIP : SCR_SELECT);
		mvchgat(y, 0, -1, a & ~A_COLOR, (short)PAIR_NUMBER(a), NULL);
	}
}

static void screen_devices_draw_empty(struct screen *s, int y)
{
	const char *why;
	if (!s->f || !s->f->prev)
		why = "  waiting for the first interval...";
	else if (s->have_filter && s->nselected == 0)
		why = "  no device matches the filter (f: change it)";
	else if (s->only_dips)
		why = "  no device dipped in the last minute (!: show all)";
	else
		why = "  no device is busy (a: show idle devices too)";
	struct scr_line ln = { y, 0, COLS };
	screen_paint_add(s, &ln, SCR_DIM, why);
}

/* What the layout needs of the rows on show: their longest label, and
 * whether any had flushes or discards this frame. */
static void screen_devices_measure_rows(struct screen *s, int page)
{
	uint64_t now = screen_clock_now_ns();
	s->label_max = 0;
	for (int r = 0; r < page && s->top + (size_t)r < s->norder; r++) {
		size_t i = s->order[s->top + (size_t)r];
		const struct dev_rates *d = frame_dev_rate(s->f, i);
		/* a flush or discard column with something in it on this row */
		for (size_t c = 0; d && d->status == RATE_OK && c < s->ncols; c++) {
			const struct fig_dev *col = s->cols[c];
			if (!(col->need & (FIG_NEED_FLUSH | FIG_NEED_DISCARD)) ||
			    !figure_dev_available(col, d) || !(figure_dev_value(col, d) > 0))
				continue;
			if (col->need & FIG_NEED_FLUSH)
				s->flush_seen_ns = now;
			else
				s->discard_seen_ns = now;
		}
		char label[160];
		int n = (int)strlen(screen_devices_label(&s->f->cur->dev[i], label, sizeof label));
		s->label_max = n > s->label_max ? n : s->label_max;
	}
}

void screen_devices_draw(struct screen *s, int y, int rows)
{
	int page = rows - 1;	/* the header takes a row */
	s->table_rows = page > 0 ? page : 1;
	if (s->sel < s->top)
		s->top = s->sel;
	if (s->sel >= s->top + (size_t)s->table_rows)
		s->top = s->sel - (size_t)s->table_rows + 1;
	if (s->top + (size_t)s->table_rows > s->norder)
		s->top = s->norder > (size_t)s->table_rows ? s->norder - (size_t)s->table_rows : 0;
	if (s->norder) {
		screen_devices_order_upto(s, s->top + (size_t)page);
		screen_devices_measure_rows(s, page);
	}
	struct screen_devices_layout L;
	screen_devices_layout(s, COLS, &L);
	screen_devices_draw_header(s, y, &L);
	if (!s->norder) {
		screen_devices_draw_empty(s, y + 1);
		return;
	}
	for (int r = 0; r < page && s->top + (size_t)r < s->norder; r++) {
		size_t k = s->top + (size_t)r;
		screen_devices_draw_row(s, y + 1 + r, s->order[k], &L, k == s->sel);
	}
}

/* ---- keys: selection, scrolling, sorting, idle devices ---- */

static void screen_devices_move_sel(struct screen *s, long delta)
{
	if (!s->norder)
		return;
	long to = (long)s->sel + delta;
	if (to < 0)
		to = 0;
	if (to >= (long)s->norder)
		to = (long)s->norder - 1;
	s->sel = (size_t)to;
	screen_devices_note_selection(s);
}

/* The next sort column among those shown (-1, the name, comes first). */
static void screen_devices_step_sort(struct screen *s, int dir)
{
	struct screen_devices_layout L;
	screen_devices_layout(s, COLS, &L);
	int c = s->sort_col;
	for (size_t tries = 0; tries <= s->ncols; tries++) {
		c += dir;
		if (c < -1)
			c = (int)s->ncols - 1;
		if (c >= (int)s->ncols)
			c = -1;
		if (c == -1 || L.on[c])
			break;
	}
	s->sort_col = c;
}

int screen_devices_col_by_title(const struct screen *s, const char *title)
{
	for (size_t c = 0; c < s->ncols; c++)
		if (strcmp(s->cols[c]->screen.title, title) == 0)
			return (int)c;
	return -1;
}

/* The column a key sorts by (figure.h: screen.key), -1 if none. */
static int screen_devices_col_by_key(const struct screen *s, int ch)
{
	for (size_t c = 0; ch > 0 && c < s->ncols; c++)
		if (s->cols[c]->screen.key == ch)
			return (int)c;
	return -1;
}

double screen_devices_col_value(const struct fig_dev *col, const struct dev_rates *r)
{
	return figure_dev_available(col, r) ? figure_dev_value(col, r) * col->screen.scale : NAN;
}

bool screen_devices_set_sort(struct screen *s, const char *name)
{
	if (strcmp(name, "name") == 0) {
		s->sort_col = -1;
		return true;
	}
	int c = screen_devices_col_by_title(s, name);
	if (c < 0)
		return false;
	s->sort_col = c;
	return true;
}

bool screen_devices_sort_known(const char *name)
{
	const struct fig_dev *cols[SCR_MAX_COLS];
	size_t n = figure_dev_screen_cols(cols, SCR_MAX_COLS);
	for (size_t c = 0; c < n; c++)
		if (strcmp(cols[c]->screen.title, name) == 0)
			return true;
	return strcmp(name, "name") == 0;
}

void screen_devices_get_view(const struct screen *s, struct screen_view *v)
{
	v->procs_open = s->procs_open;
	v->sort = s->sort_col < 0 ? "name" : s->cols[s->sort_col]->screen.title;
	v->sort_reverse = s->sort_rev;
	v->filter = s->filter_text;
	v->show_idle = s->show_idle;
}

bool screen_devices_key(struct screen *s, int ch)
{
	long page = s->table_rows > 1 ? s->table_rows - 1 : 1;
	switch (ch) {
	case KEY_UP: case 'k': screen_devices_move_sel(s, -1); return true;
	case KEY_DOWN: case 'j': screen_devices_move_sel(s, 1); return true;
	case KEY_PPAGE: screen_devices_move_sel(s, -page); return true;
	case KEY_NPAGE: screen_devices_move_sel(s, page); return true;
	case KEY_HOME: case 'g': screen_devices_move_sel(s, -(long)s->norder); return true;
	case KEY_END: case 'G': screen_devices_move_sel(s, (long)s->norder); return true;
	case '<': screen_devices_step_sort(s, -1); break;
	case '>': screen_devices_step_sort(s, 1); break;
	case 'R': s->sort_rev = !s->sort_rev; break;
	case 'N': s->sort_col = -1; s->sort_rev = false; break;
	case 'a': s->show_idle = !s->show_idle; break;
	case '!': s->only_dips = !s->only_dips; break;
	default:
		if (screen_devices_col_by_key(s, ch) < 0)
			return false;
		s->sort_col = screen_devices_col_by_key(s, ch);
		s->sort_rev = false;
		break;
	}
	screen_devices_update(s);
	return true;
}
