/*
 * screen_data.h - struct screen, the state every part of the screen shares
 * (the terminal, the frame shown, the table, the prompt, the panes), and
 * the roles, views and prompts it names.  Types only; not a public
 * interface: only src/screen/ includes it.
 */
#ifndef WBTOP_SCREEN_DATA_H
#define WBTOP_SCREEN_DATA_H

#include <curses.h>
#include <regex.h>

#include "core/derive.h"
#include "core/figure.h"
#include "core/pipeline.h"
#include "core/snapshot.h"
#include "screen/screen_types.h"
#include "sink/cgview.h"
#include "sink/history.h"
#include "sink/procs_view.h"
#include "util/topk.h"

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

/* What a piece of text is; screen_paint_attr() maps it to colour or, without
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

/* A glyph's wide cell in one attribute (screen_paint_glyph). */
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
	 * order, selected from them as far as a view asked (screen_devices_order_upto) */
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
	int table_want, table_lines;	/* the table's rows held (screen_table_want), at LINES */
	uint64_t table_since_ns;
	size_t nselected;	/* devices passing the filter, idle or not */
	const struct fig_dev *cols[SCR_MAX_COLS];	/* the columns, in screen order */
	size_t ncols;
	int max_level;		/* the highest screen.level of a column */
	int sort_col;		/* index into cols, or -1 for the name */
	bool sort_rev;
	bool show_idle;
	bool only_dips;		/* '!': only the devices that dipped lately (screen_devices_dipped_lately) */
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


#endif
