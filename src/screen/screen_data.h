/*
 * screen_data.h - what the screen_*.c files share: the screen's state and
 * the drawing helpers.  Not a public interface: only screen_*.c include it.
 */
#ifndef WBTOP_SCREEN_DATA_H
#define WBTOP_SCREEN_DATA_H

#include <curses.h>
#include <regex.h>

#include "sink/cgview.h"
#include "core/figure.h"
#include "util/topk.h"
#include "sink/procs_view.h"
#include "screen/screen.h"
#include "core/snapshot.h"

/* Below this the screen shows a message instead of a squeezed layout. */
#define SCR_MIN_COLS 64
#define SCR_MIN_ROWS 16
/* Rows above the device table: top line, 2 summary, 2 gauge, 2 knob rows. */
#define SCR_TOP_ROWS 7

enum scr_view { SCR_VIEW_MAIN, SCR_VIEW_HELP, SCR_VIEW_DETAIL, SCR_VIEW_KNOBS, SCR_VIEW_CGROUPS };
enum scr_prompt {
	SCR_PROMPT_NONE, SCR_PROMPT_FILTER, SCR_PROMPT_DELAY, SCR_PROMPT_KNOB,
	SCR_PROMPT_TIME,	/* replay: jump to a time */
	SCR_PROMPT_SAVE		/* the file to save the history to */
};

/* What a piece of text is; scr_attr() maps it to colour or, without
 * colour, to an attribute, so every role stays visible on a vt100. */
enum scr_role {
	SCR_NORMAL,
	SCR_LABEL,	/* the name before a figure */
	SCR_TITLE,	/* the program name, section titles */
	SCR_DIP,	/* a dipping device, interval or graph column */
	SCR_DIRTY,	/* the Dirty part of the gauge */
	SCR_WB,		/* the Writeback part of the gauge */
	SCR_GRAPH,	/* bars of the throughput graph and sparklines */
	SCR_HEADER,	/* the device table's column titles */
	SCR_SELECT,	/* the selected row */
	SCR_SELECT_DIP,	/* the selected row, dipping */
	SCR_WARN,	/* over a threshold, paused, read-only */
	SCR_EVENT,	/* a knob change */
	SCR_DIM,	/* idle, empty parts of a bar */
	SCR_NROLES
};

/* At most this many device table columns (rows of figure.h with a screen title). */
#define SCR_MAX_COLS 48

/* A cursor writing along one screen row, clipped at xmax. */
struct scr_line {
	int y, x, xmax;
};

/* A glyph's wide cell in one attribute (scr_glyph). */
#define SCR_NGLYPH 96
struct scr_glyph_cell {
	const char *g;		/* the glyph's UTF-8 text: a constant, compared by address */
	attr_t a;
	cchar_t cc;
};

/* A device the name ranks were made for. */
struct scr_rank_dev {
	uint32_t major, minor;
	char name[32];
};

/* A device's filter verdict and what it was for. */
struct scr_filter_memo {
	unsigned gen;
	const struct dev_ident *ident;
	uint32_t major, minor;
	char name[32];
	bool ok;
};

struct screen {
	SCREEN *term;
	struct scr_glyph_cell glyph[SCR_NGLYPH];	/* wide cells made so far */
	size_t nglyph;
	bool color, utf8;
	attr_t role_attr[SCR_NROLES];
	const struct frame *f;
	const struct history *h;
	struct screen_state st;
	enum scr_view view;
	size_t help_top;	/* first line of the help page shown */

	/* the device table: the candidates (devices shown) and the first nsorted rows in
	 * order, selected from them as far as a view asked (scr_order_upto) */
	struct topk_item *cand;	/* norder of them; [0, nsorted) in order */
	size_t *order;		/* order[k], k < nsorted: the index into f->cur->dev of row k */
	size_t norder, nsorted, cap_order;
	bool key_asc;		/* the sort column's keys go up (before R) */
	const struct fig_dev *write_col;	/* the column whose key the step derived */
	uint32_t *name_rank;	/* each device's place in name order, for ties */
	struct scr_rank_dev *rank_dev;	/* the devices the ranks are for (nrank) */
	size_t nrank;
	uint64_t rank_serial;		/* their list's devs_serial (snapshot.h), 0 not known */
	struct scr_filter_memo *fmemo;	/* per device: its filter verdict */
	unsigned filter_gen;	/* bumped when the filter changes */
	int table_want, table_lines;	/* the table's rows held (scr_table_want), at LINES */
	uint64_t table_since_ns;
	size_t nselected;	/* devices passing the filter, idle or not */
	const struct fig_dev *cols[SCR_MAX_COLS];	/* the columns, in screen order */
	size_t ncols;
	int max_level;		/* the highest screen.level of a column */
	int sort_col;		/* index into cols, or -1 for the name */
	bool sort_rev;
	bool show_idle;
	bool only_dips;		/* '!': only the devices that dipped lately (scr_dipped_lately) */
	bool have_filter;
	regex_t filter;
	char filter_text[128];
	uint32_t sel_major, sel_minor;	/* the selected device */
	bool have_sel;		/* the user picked a row: follow that device */
	size_t sel, top;	/* selected row and first row shown, in order[] */
	int table_rows;		/* device rows drawn last time: a page */
	bool want_flush, want_discard;
	uint64_t flush_seen_ns, discard_seen_ns;	/* last frame a shown device had some */
	int label_max;			/* the longest full label of the devices shown */

	/* the status line */
	enum scr_prompt prompt;
	char input[256];
	size_t ninput;
	bool input_hint;		/* input is only a suggestion: the first key typed replaces it */
	struct msgq *msgq;	/* the messages, each in turn (msgq.h); CLOCK_MONOTONIC ns */

	/* scratch for series, grown with the screen width */
	double *vals;
	bool *dips, *evs;
	size_t cap_vals;

	/* the knob panel */
	struct control_item *kitems;
	size_t nk, cap_k, ksel;
	struct screen_knobs kn;
	char kreason[96];
	char preview[256];
	int preview_rc;
	bool have_preview;

	/* the process pane, built from the frame at each draw */
	bool procs_open;
	struct proc_row *prows;
	size_t nprows, cap_prows;
	struct procs_summary psum;
	bool have_psum;		/* the frame has process samples */

	/* the cgroups page, built from the frame at each draw */
	struct cgview cgv;
};


/* screen.c */
uint64_t scr_now_ns(void);	/* CLOCK_MONOTONIC, for how long messages stay */
attr_t scr_attr(const struct screen *s, enum scr_role role);
/* Append text at the cursor, clipped; returns columns written. */
int scr_add(struct screen *s, struct scr_line *ln, enum scr_role role, const char *text);
/* text right-aligned in width columns ("%*s"), or left-aligned and cut to width bytes
 * ("%-*.*s"): the cells of a table without a printf each. */
int scr_add_pad(struct screen *s, struct scr_line *ln, enum scr_role role, const char *text,
		int width, bool left);
int scr_addf(struct screen *s, struct scr_line *ln, enum scr_role role, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* "label value" with a space before it; only if all of it fits. */
bool scr_field(struct screen *s, struct scr_line *ln, const char *label, enum scr_role vrole,
	       const char *value);
/* text from row y, column x, broken at spaces, at most max_rows rows;
 * returns the row after the last one written. */
int scr_wrap(struct screen *s, int y, int x, enum scr_role role, const char *text, int max_rows);
/* Fill the rest of the row with ch in role (for bars and rules). */
void scr_fill(struct screen *s, struct scr_line *ln, enum scr_role role, const char *ch, int n);
void scr_draw_top_line(struct screen *s);
/* Whether the data is a replayed recording (the replay keys apply). */
bool scr_is_replay(const struct screen *s);
void scr_draw_status(struct screen *s);
/* Make room for n series entries; false on allocation failure. */
bool scr_scratch(struct screen *s, size_t n);

/* Start typing a knob value on the status line. */
void scr_open_knob_prompt(struct screen *s, const char *initial);

/* screen_top.c */
void scr_draw_summary(struct screen *s, int y);
void scr_draw_gauge(struct screen *s, int y);
/* A gauge's cells: dirty then writeback KiB against scale, mark_kb marked
 * (none when above scale), in w cells between brackets. */
void scr_gauge_cells(struct screen *s, struct scr_line *ln, int w, uint64_t dirty_kb,
		     uint64_t writeback_kb, uint64_t scale, uint64_t mark_kb);
void scr_draw_knob_rows(struct screen *s, int y);

/* screen_devices.c */
void scr_devs_update(struct screen *s);
void scr_draw_devices(struct screen *s, int y, int rows);
bool scr_devs_key(struct screen *s, int ch);
/* From now on the selection follows the selected device (not the row). */
void scr_note_selection(struct screen *s);
/* The selected device of the current frame, or NULL. */
const struct dev_counters *scr_selected(struct screen *s, size_t *index);
/* Make rows [0, n) of the order known (at most norder); scr_order_at: row k's device index. */
void scr_order_upto(struct screen *s, size_t n);
size_t scr_order_at(struct screen *s, size_t k);
/* One glyph (one column: ASCII or a UTF-8 constant) at y, x in attribute a. */
void scr_put_glyph(struct screen *s, int y, int x, const char *g, attr_t a);
/* The wide cell of the UTF-8 glyph constant g in attribute a, made once; NULL if it cannot. */
const cchar_t *scr_glyph(struct screen *s, const char *g, attr_t a);
/* "vg-home /home xfs": a device as people know it, sanitized. */
const char *scr_dev_label(const struct dev_counters *d, char *buf, size_t len);
/* The label cut to width so what tells devices apart stays: the type
 * dropped first, then the mount point's head ("loop1 ..wbexp/m1"). */
const char *scr_dev_label_fit(const struct dev_counters *d, int width, char *buf, size_t len);
/* The screen's columns from the figure registry; sorts by its first column. */
void scr_cols_init(struct screen *s);
/* The index in s->cols of the column titled title, -1 if none. */
int scr_col_by_title(const struct screen *s, const char *title);
/* A column's value as shown (scaled), NAN where the device has none. */
double scr_col_value(const struct fig_dev *col, const struct dev_rates *r);
/* Sort by the column titled name ("name": the device name); false if unknown. */
bool scr_set_sort(struct screen *s, const char *name);
/* Set the device filter; false (message set) if text is not a regex. */
bool scr_set_filter(struct screen *s, const char *text);
void scr_devs_free(struct screen *s);

/* screen_graph.c */
/* A bar graph of vals (n = w columns, oldest first) in rows y..y+h-1,
 * with marks (dip '^', knob change '*') on row y+h; the axis left of x
 * shows the top value, in KiB units when kb, followed by unit. */
void scr_draw_graph(struct screen *s, int y, int x, int h, int w, const double *vals,
		    const bool *dips, const bool *evs, bool kb, const char *unit);
/* A one-row sparkline of vals at the cursor. */
void scr_draw_spark(struct screen *s, struct scr_line *ln, const double *vals, const bool *dips,
		    int n, double floor_max);
/* A titled rule: "── title ─────". */
void scr_draw_rule(struct screen *s, int y, const char *title);

/* screen_detail.c */
void scr_draw_detail(struct screen *s);
bool scr_detail_key(struct screen *s, int ch, struct screen_req *req);

/* screen_help.c */
void scr_draw_help(struct screen *s);
/* Whether the help page goes on below the screen. */
bool scr_help_more(const struct screen *s);
/* Scroll keys scroll the page (true); any other key leaves it (false). */
bool scr_help_key(struct screen *s, int ch);

/* screen_procs.c */
/* Build the pane's rows (at most rows) and summary from the frame. */
void scr_procs_update(struct screen *s, int rows);
/* The pane in rows y..y+rows-1: a rule, the summary, the table. */
void scr_draw_procs(struct screen *s, int y, int rows);
/* "thr N" after the procs figures of the summary, when processes are sampled. */
void scr_procs_summary_field(struct screen *s, struct scr_line *ln);
void scr_procs_free(struct screen *s);

/* screen_knobs.c */
void scr_draw_knobs(struct screen *s);
bool scr_knobs_key(struct screen *s, int ch, struct screen_req *req);
void scr_knobs_free(struct screen *s);

/* screen_cgroups.c */
void scr_draw_cgroups(struct screen *s);
bool scr_cgroups_key(struct screen *s, int ch, struct screen_req *req);
void scr_cgroups_free(struct screen *s);

#endif
