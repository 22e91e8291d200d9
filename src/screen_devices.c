/*
 * screen_devices.c - the device table: which devices show (filter, idle),
 * in what order (sort column), which columns fit the width, the selected
 * row and scrolling, and a sparkline of each device's recent writes.
 *
 * The columns are one table (scr_cols); a column with a level above 0 is
 * added, in level order, only when the terminal is wide enough, and the
 * flush and discard columns only when some device shown has done any.
 * No cap on devices: the row order is an index array grown with the set.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ident.h"
#include "screen_priv.h"

#define SCR_NAME_MIN 12
#define SCR_NAME_PREF 24	/* "vg-home /home xfs": before optional columns */
#define SCR_NAME_MAX 40
#define SCR_SPARK_MIN 8
#define SCR_SPARK_PREF 16
#define SCR_SPARK_MAX 60
/* A sparkline's scale never goes below this (KiB/s), so a trickle of
 * writes shows as a trickle, not as a full bar. */
#define SCR_SPARK_FLOOR_KBPS 256.0

static double scr_c_rs(const struct dev_rates *r) { return r->r_s; }
static double scr_c_ws(const struct dev_rates *r) { return r->w_s; }
static double scr_c_rmb(const struct dev_rates *r) { return r->rkb_s / 1024.0; }
static double scr_c_wmb(const struct dev_rates *r) { return r->wkb_s / 1024.0; }
static double scr_c_rrqm(const struct dev_rates *r) { return r->rrqm_s; }
static double scr_c_wrqm(const struct dev_rates *r) { return r->wrqm_s; }
static double scr_c_raw(const struct dev_rates *r) { return r->r_await_ms; }
static double scr_c_waw(const struct dev_rates *r) { return r->w_await_ms; }
static double scr_c_aqu(const struct dev_rates *r) { return r->aqu_sz; }
static double scr_c_util(const struct dev_rates *r) { return r->util_pct; }
static double scr_c_fs(const struct dev_rates *r) { return r->f_s; }
static double scr_c_faw(const struct dev_rates *r) { return r->f_await_ms; }
static double scr_c_ds(const struct dev_rates *r) { return r->d_s; }
static double scr_c_dmb(const struct dev_rates *r) { return r->dkb_s / 1024.0; }

/* Reads and writes together, weighted by I/Os: the old iostat await. */
static double scr_c_await(const struct dev_rates *r)
{
	double ios = r->r_s + r->w_s;
	return ios > 0 ? (r->r_await_ms * r->r_s + r->w_await_ms * r->w_s) / ios : 0.0;
}

const struct scr_col scr_cols[] = {
	{ "r/s", 8, 1, SCR_NEED_NONE, 0, scr_c_rs },
	{ "w/s", 8, 1, SCR_NEED_NONE, 0, scr_c_ws },
	{ "rMB/s", 7, 2, SCR_NEED_NONE, 0, scr_c_rmb },
	{ "wMB/s", 7, 2, SCR_NEED_NONE, 0, scr_c_wmb },
	{ "rrqm/s", 7, 1, SCR_NEED_NONE, 7, scr_c_rrqm },
	{ "wrqm/s", 7, 1, SCR_NEED_NONE, 4, scr_c_wrqm },
	{ "await", 7, 1, SCR_NEED_NONE, 0, scr_c_await },
	{ "r_await", 8, 1, SCR_NEED_NONE, 3, scr_c_raw },
	{ "w_await", 8, 1, SCR_NEED_NONE, 1, scr_c_waw },
	{ "aqu-sz", 7, 2, SCR_NEED_NONE, 2, scr_c_aqu },
	{ "util", 6, 1, SCR_NEED_NONE, 0, scr_c_util },
	{ "f/s", 7, 1, SCR_NEED_FLUSH, 0, scr_c_fs },
	{ "f_await", 8, 1, SCR_NEED_FLUSH, 5, scr_c_faw },
	{ "d/s", 7, 1, SCR_NEED_DISCARD, 0, scr_c_ds },
	{ "dMB/s", 7, 2, SCR_NEED_DISCARD, 6, scr_c_dmb },
};
const size_t scr_ncols = sizeof scr_cols / sizeof scr_cols[0];
#define SCR_MAX_LEVEL 7

/* The columns that fit this width, and the name and sparkline widths. */
struct scr_layout {
	bool on[sizeof scr_cols / sizeof scr_cols[0]];
	int name_w, spark_w;
};

static bool scr_col_needed(const struct screen *s, const struct scr_col *c)
{
	return c->need == SCR_NEED_NONE || (c->need == SCR_NEED_FLUSH && s->want_flush) ||
	       (c->need == SCR_NEED_DISCARD && s->want_discard);
}

/* Add the optional columns that fit, in level order, keeping room for a
 * readable name and a useful sparkline: who a device is matters more than
 * its merge counts. */
static void scr_layout_optional(const struct screen *s, int width, struct scr_layout *L, int *used)
{
	for (int level = 1; level <= SCR_MAX_LEVEL; level++)
		for (size_t c = 0; c < scr_ncols; c++) {
			const struct scr_col *col = &scr_cols[c];
			if (col->level != level || !scr_col_needed(s, col))
				continue;
			if (width - *used - col->width < SCR_NAME_PREF + 1 + SCR_SPARK_PREF)
				return;
			L->on[c] = true;
			*used += col->width;
		}
}

/* Seconds a flush or discard column stays after its last non-zero figure:
 * it must not come and go with every burst. */
#define SCR_COL_HOLD_NS 10000000000ull

static bool scr_col_quiet(const struct screen *s, enum scr_need need)
{
	uint64_t seen = need == SCR_NEED_FLUSH ? s->flush_seen_ns : s->discard_seen_ns;
	return !seen || scr_now_ns() - seen > SCR_COL_HOLD_NS;
}

static void scr_layout(const struct screen *s, int width, struct scr_layout *L)
{
	int used = 1;	/* the dip marker */
	for (size_t c = 0; c < scr_ncols; c++) {
		L->on[c] = scr_cols[c].level == 0 && scr_col_needed(s, &scr_cols[c]);
		used += L->on[c] ? scr_cols[c].width : 0;
	}
	/* Narrow: the discard, then the flush column give way to the name. */
	for (size_t c = scr_ncols; c-- > 0 && width - used < SCR_NAME_MIN + 1 + SCR_SPARK_MIN;)
		if (L->on[c] && scr_cols[c].need == SCR_NEED_DISCARD) {
			L->on[c] = false;
			used -= scr_cols[c].width;
		}
	for (size_t c = scr_ncols; c-- > 0 && width - used < SCR_NAME_MIN + 1 + SCR_SPARK_MIN;)
		if (L->on[c] && scr_cols[c].need == SCR_NEED_FLUSH) {
			L->on[c] = false;
			used -= scr_cols[c].width;
		}
	/* Columns of nothing (no flush, no discard on any device shown for a
	 * while) give way before a name is cut: the name tells devices apart. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t c = scr_ncols; c-- > 0 && width - used < s->label_max + 1 + SCR_SPARK_MIN;) {
			enum scr_need need = pass == 0 ? SCR_NEED_DISCARD : SCR_NEED_FLUSH;
			if (L->on[c] && scr_cols[c].need == need && scr_col_quiet(s, need)) {
				L->on[c] = false;
				used -= scr_cols[c].width;
			}
		}
	scr_layout_optional(s, width, L, &used);
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

const char *scr_dev_key(const struct dev_counters *d)
{
	return history_dev_key(d);
}

static void scr_append(char *buf, size_t len, const char *text, size_t n)
{
	size_t have = strlen(buf);
	if (have + 1 >= len)
		return;
	if (n > len - have - 1)
		n = len - have - 1;
	memcpy(buf + have, text, n);
	buf[have + n] = '\0';
}

const char *scr_dev_label(const struct dev_counters *d, char *buf, size_t len)
{
	const struct dev_ident *id = d->ident;
	buf[0] = '\0';
	const char *base = id && id->label_short ? id->label_short : d->name;
	scr_append(buf, len, base, strlen(base));
	if (id && id->mounts) {
		size_t first = strcspn(id->mounts, " ");
		scr_append(buf, len, " ", 1);
		scr_append(buf, len, id->mounts, first);
		if (id->mounts[first])
			scr_append(buf, len, "+", 1);	/* mounted in more places */
	}
	if (id && id->fstype) {
		scr_append(buf, len, " ", 1);
		scr_append(buf, len, id->fstype, strlen(id->fstype));
	}
	/* One byte, one column: anything else would break the table. */
	for (char *p = buf; *p; p++)
		if (!isprint((unsigned char)*p))
			*p = '?';
	return buf;
}

const char *scr_dev_label_fit(const struct dev_counters *d, int width, char *buf, size_t len)
{
	scr_dev_label(d, buf, len);
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
	scr_append(buf, len, base, strlen(base));
	if (tail && room >= 4) {
		scr_append(buf, len, " ", 1);
		if ((int)tail_len > room) {
			scr_append(buf, len, "..", 2);
			scr_append(buf, len, tail + tail_len - (size_t)(room - 2), (size_t)(room - 2));
		} else {
			scr_append(buf, len, tail, tail_len);
		}
	}
	for (char *p = buf; *p; p++)
		if (!isprint((unsigned char)*p))
			*p = '?';
	return buf;
}

bool scr_set_filter(struct screen *s, const char *text)
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
		screen_message(s, "filter '%s': %s", text, why);
		return false;
	}
	if (s->have_filter)
		regfree(&s->filter);
	s->filter = re;
	s->have_filter = true;
	snprintf(s->filter_text, sizeof s->filter_text, "%s", text);
	return true;
}

static bool scr_match(const struct screen *s, const char *text)
{
	return text && regexec(&s->filter, text, 0, NULL, 0) == 0;
}

static bool scr_selected_by_filter(const struct screen *s, const struct dev_counters *d)
{
	if (!s->have_filter)
		return true;
	const struct dev_ident *id = d->ident;
	return scr_match(s, d->name) ||
	       (id && (scr_match(s, id->label_short) || scr_match(s, id->dm_name) ||
		       scr_match(s, id->md_name) || scr_match(s, id->mounts) ||
		       scr_match(s, id->fstype) || scr_match(s, id->fs_label) || scr_match(s, id->key)));
}

void scr_devs_free(struct screen *s)
{
	if (s->have_filter)
		regfree(&s->filter);
	s->have_filter = false;
	free(s->order);
	s->order = NULL;
	s->cap_order = s->norder = 0;
}

/* ---- which rows, in what order ---- */

struct scr_sort_ctx {
	const struct screen *s;
	const struct frame *f;
};

static double scr_sort_value(const struct scr_sort_ctx *c, size_t i)
{
	const struct dev_rates *r = &frame_dev_rates(c->f)[i];
	if (r->status != RATE_OK)
		return -1;	/* no figures: at the end */
	return scr_cols[c->s->sort_col].get(r);
}

static int scr_sort_cmp(const void *a, const void *b, void *arg)
{
	const struct scr_sort_ctx *c = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct dev_counters *di = &c->f->cur->dev[i], *dj = &c->f->cur->dev[j];
	int by_name = strcmp(di->name, dj->name);
	int order = 0;
	if (c->s->sort_col >= 0) {
		double vi = scr_sort_value(c, i), vj = scr_sort_value(c, j);
		order = vi > vj ? -1 : vi < vj ? 1 : 0;	/* biggest first */
	}
	if (order == 0)
		order = by_name;
	return c->s->sort_rev ? -order : order;
}

static bool scr_dev_shown(const struct screen *s, size_t i)
{
	const struct dev_rates *r = &frame_dev_rates(s->f)[i];
	bool dip = s->f->dev_dip && s->f->dev_dip[i];
	return s->show_idle || dip || (r->status == RATE_OK && r->active);
}

/* Once the user has picked a row, the selection follows that device when
 * the order changes; until then it stays on the top row. */
static void scr_keep_selection(struct screen *s)
{
	const struct snapshot *cur = s->f->cur;
	if (!s->have_sel) {
		s->sel = 0;
		return;
	}
		for (size_t k = 0; k < s->norder; k++) {
			const struct dev_counters *d = &cur->dev[s->order[k]];
			if (d->major == s->sel_major && d->minor == s->sel_minor) {
				s->sel = k;
				return;
			}
		}
	/* the device is gone or hidden: stay at the same place in the table */
	if (s->sel >= s->norder)
		s->sel = s->norder ? s->norder - 1 : 0;
	if (s->norder) {
		s->sel_major = cur->dev[s->order[s->sel]].major;
		s->sel_minor = cur->dev[s->order[s->sel]].minor;
	}
}

void scr_note_selection(struct screen *s)
{
	if (!s->norder)
		return;
	const struct dev_counters *d = &s->f->cur->dev[s->order[s->sel]];
	s->sel_major = d->major;
	s->sel_minor = d->minor;
	s->have_sel = true;
}

void scr_devs_update(struct screen *s)
{
	s->norder = s->nselected = 0;
	s->want_flush = s->want_discard = false;
	s->label_max = 0;
	uint64_t now = scr_now_ns();
	if (!s->f)
		return;
	const struct snapshot *cur = s->f->cur;
	if (cur->ndev > s->cap_order) {
		size_t *o = realloc(s->order, cur->ndev * sizeof *o);
		if (!o)
			return;	/* an empty table this frame; the next may fit */
		s->order = o;
		s->cap_order = cur->ndev;
	}
	for (size_t i = 0; i < cur->ndev; i++) {
		const struct dev_counters *d = &cur->dev[i];
		if (!scr_selected_by_filter(s, d))
			continue;
		s->nselected++;
		if (!scr_dev_shown(s, i))
			continue;
		s->order[s->norder++] = i;
		/* "has them": the device has done flushes or discards at all */
		s->want_flush |= d->nfields >= 17 && d->f[DS_FL_IOS] > 0;
		s->want_discard |= d->nfields >= 15 && d->f[DS_DC_IOS] > 0;
		const struct dev_rates *r = &frame_dev_rates(s->f)[i];
		if (r->status == RATE_OK && r->has_flush && r->f_s > 0)
			s->flush_seen_ns = now;
		if (r->status == RATE_OK && r->has_discard && r->d_s > 0)
			s->discard_seen_ns = now;
		char label[160];
		int n = (int)strlen(scr_dev_label(d, label, sizeof label));
		s->label_max = n > s->label_max ? n : s->label_max;
	}
	struct scr_sort_ctx ctx = { s, s->f };
	qsort_r(s->order, s->norder, sizeof *s->order, scr_sort_cmp, &ctx);
	scr_keep_selection(s);
}

const struct dev_counters *scr_selected(const struct screen *s, size_t *index)
{
	if (!s->f)
		return NULL;
	const struct snapshot *cur = s->f->cur;
	if (!s->have_sel) {	/* the top row */
		if (!s->norder)
			return NULL;
		if (index)
			*index = s->order[0];
		return &cur->dev[s->order[0]];
	}
	for (size_t i = 0; i < cur->ndev; i++)
		if (cur->dev[i].major == s->sel_major && cur->dev[i].minor == s->sel_minor) {
			if (index)
				*index = i;
			return &cur->dev[i];
		}
	return NULL;
}

/* ---- drawing ---- */

static void scr_draw_header(struct screen *s, int y, const struct scr_layout *L)
{
	struct scr_line ln = { y, 0, COLS };
	char buf[192];
	attr_t a = scr_attr(s, SCR_HEADER);
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
	scr_add(s, &name, SCR_HEADER, buf);	/* (the row is already blank in the header colour) */
	ln.x = L->name_w + 1;
	for (size_t c = 0; c < scr_ncols; c++) {
		if (!L->on[c])
			continue;
		const char *arrow = (int)c == s->sort_col ? (s->sort_rev ? (s->utf8 ? "\u25b2" : "^") :
						(s->utf8 ? "\u25bc" : "v")) : "";
		int pad = scr_cols[c].width - (int)strlen(scr_cols[c].title) - (*arrow ? 1 : 0);
		scr_addf(s, &ln, SCR_HEADER, "%*s", pad, "");
		scr_add(s, &ln, SCR_HEADER, arrow);
		scr_add(s, &ln, SCR_HEADER, scr_cols[c].title);
	}
	scr_add(s, &ln, SCR_HEADER, " writes");
}

static void scr_draw_row(struct screen *s, int y, size_t i, const struct scr_layout *L, bool sel)
{
	const struct dev_counters *d = &s->f->cur->dev[i];
	const struct dev_rates *r = &frame_dev_rates(s->f)[i];
	bool dip = s->f->dev_dip && s->f->dev_dip[i];
	enum scr_role role = dip ? SCR_DIP : (r->status == RATE_OK && r->active) ? SCR_NORMAL : SCR_DIM;
	struct scr_line ln = { y, 0, COLS };
	char name[160], v[24];
	scr_add(s, &ln, SCR_DIP, dip ? "!" : " ");
	scr_addf(s, &ln, role, "%-*.*s", L->name_w, L->name_w, scr_dev_label_fit(d, L->name_w, name, sizeof name));
	for (size_t c = 0; c < scr_ncols; c++) {
		if (!L->on[c])
			continue;
		const struct scr_col *col = &scr_cols[c];
		bool have = r->status == RATE_OK && (col->need == SCR_NEED_NONE ||
			    (col->need == SCR_NEED_FLUSH ? r->has_flush : r->has_discard));
		screen_fmt_num(have ? col->get(r) : NAN, col->width - 1, col->prec, v, sizeof v);
		scr_addf(s, &ln, role, "%*s", col->width, v);
	}
	scr_add(s, &ln, SCR_NORMAL, " ");
	const struct hist_series *hs = s->h ? history_find(s->h, scr_dev_key(d)) : NULL;
	if (hs && L->spark_w > 0 && scr_scratch(s, (size_t)L->spark_w)) {
		history_series(s->h, hs, HIST_DEV_WKB_S, s->vals, (size_t)L->spark_w);
		history_marks(s->h, hs, true, s->dips, NULL, (size_t)L->spark_w);
		scr_draw_spark(s, &ln, s->vals, s->dips, L->spark_w, SCR_SPARK_FLOOR_KBPS);
	}
	if (sel) {
		attr_t a = scr_attr(s, dip ? SCR_SELECT_DIP : SCR_SELECT);
		mvchgat(y, 0, -1, a & ~A_COLOR, (short)PAIR_NUMBER(a), NULL);
	}
}

static void scr_draw_empty(struct screen *s, int y)
{
	const char *why;
	if (!s->f || !s->f->prev)
		why = "  waiting for the first interval...";
	else if (s->have_filter && s->nselected == 0)
		why = "  no device matches the filter (f: change it)";
	else
		why = "  no device is busy (a: show idle devices too)";
	struct scr_line ln = { y, 0, COLS };
	scr_add(s, &ln, SCR_DIM, why);
}

void scr_draw_devices(struct screen *s, int y, int rows)
{
	struct scr_layout L;
	scr_layout(s, COLS, &L);
	int page = rows - 1;	/* the header takes a row */
	s->table_rows = page > 0 ? page : 1;
	if (s->sel < s->top)
		s->top = s->sel;
	if (s->sel >= s->top + (size_t)s->table_rows)
		s->top = s->sel - (size_t)s->table_rows + 1;
	if (s->top + (size_t)s->table_rows > s->norder)
		s->top = s->norder > (size_t)s->table_rows ? s->norder - (size_t)s->table_rows : 0;
	scr_draw_header(s, y, &L);
	if (!s->norder) {
		scr_draw_empty(s, y + 1);
		return;
	}
	for (int r = 0; r < page && s->top + (size_t)r < s->norder; r++) {
		size_t k = s->top + (size_t)r;
		scr_draw_row(s, y + 1 + r, s->order[k], &L, k == s->sel);
	}
}

/* ---- keys: selection, scrolling, sorting, idle devices ---- */

static void scr_move_sel(struct screen *s, long delta)
{
	if (!s->norder)
		return;
	long to = (long)s->sel + delta;
	if (to < 0)
		to = 0;
	if (to >= (long)s->norder)
		to = (long)s->norder - 1;
	s->sel = (size_t)to;
	scr_note_selection(s);
}

/* The next sort column among those shown (-1, the name, comes first). */
static void scr_step_sort(struct screen *s, int dir)
{
	struct scr_layout L;
	scr_layout(s, COLS, &L);
	int c = s->sort_col;
	for (size_t tries = 0; tries <= scr_ncols; tries++) {
		c += dir;
		if (c < -1)
			c = (int)scr_ncols - 1;
		if (c >= (int)scr_ncols)
			c = -1;
		if (c == -1 || L.on[c])
			break;
	}
	s->sort_col = c;
}

static int scr_col_by_title(const char *title)
{
	for (size_t c = 0; c < scr_ncols; c++)
		if (strcmp(scr_cols[c].title, title) == 0)
			return (int)c;
	return -1;
}

bool scr_set_sort(struct screen *s, const char *name)
{
	if (strcmp(name, "name") == 0) {
		s->sort_col = -1;
		return true;
	}
	int c = scr_col_by_title(name);
	if (c < 0)
		return false;
	s->sort_col = c;
	return true;
}

bool screen_sort_known(const char *name)
{
	return strcmp(name, "name") == 0 || scr_col_by_title(name) >= 0;
}

void screen_get_view(const struct screen *s, struct screen_view *v)
{
	v->procs_open = s->procs_open;
	v->sort = s->sort_col < 0 ? "name" : scr_cols[s->sort_col].title;
	v->sort_reverse = s->sort_rev;
	v->filter = s->filter_text;
	v->show_idle = s->show_idle;
}

bool scr_devs_key(struct screen *s, int ch)
{
	long page = s->table_rows > 1 ? s->table_rows - 1 : 1;
	switch (ch) {
	case KEY_UP: case 'k': scr_move_sel(s, -1); return true;
	case KEY_DOWN: case 'j': scr_move_sel(s, 1); return true;
	case KEY_PPAGE: scr_move_sel(s, -page); return true;
	case KEY_NPAGE: scr_move_sel(s, page); return true;
	case KEY_HOME: case 'g': scr_move_sel(s, -(long)s->norder); return true;
	case KEY_END: case 'G': scr_move_sel(s, (long)s->norder); return true;
	case '<': scr_step_sort(s, -1); break;
	case '>': scr_step_sort(s, 1); break;
	case 'R': s->sort_rev = !s->sort_rev; break;
	case 'N': s->sort_col = -1; s->sort_rev = false; break;
	case 'M': s->sort_col = scr_col_by_title("wMB/s"); s->sort_rev = false; break;
	case 'T': s->sort_col = scr_col_by_title("await"); s->sort_rev = false; break;
	case 'P': s->sort_col = scr_col_by_title("util"); s->sort_rev = false; break;
	case 'a': s->show_idle = !s->show_idle; break;
	default: return false;
	}
	scr_devs_update(s);
	return true;
}
