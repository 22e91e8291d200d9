/*
 * screen.h - the interactive monitor's view: every line of curses code.
 * It draws what the loop hands it (a frame, the history, the loop's state)
 * and turns keys into requests (struct screen_req) for what changes the
 * sampling or the system; view matters it settles itself.  It reads no
 * /proc or /sys file and writes no knob.  It owns the terminal from
 * screen_new() to screen_free().  Types: screen_types.h; pure helpers:
 * screen_calc.h (doc/screen.md, "Inside").
 */
#ifndef WBTOP_SCREEN_H
#define WBTOP_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/derive.h"
#include "core/pipeline.h"
#include "screen/screen_calc.h"
#include "screen/screen_types.h"
#include "sink/history.h"

struct screen;

/* Take over the terminal (stdin/stdout).  NULL if it can't: not a
 * terminal, unknown TERM, a bad starting filter or sort column; err says
 * why. */
struct screen *screen_new(const struct screen_config *cfg, char *err, size_t errlen);
/* Give the terminal back as it was; NULL is a no-op. */
void screen_free(struct screen *s);

/* New data.  f and h must stay valid until the next screen_frame() or
 * screen_free(): the loop does not step the pipeline before that. */
void screen_frame(struct screen *s, const struct frame *f, const struct history *h);
/* The loop's state for the top line (copied; strings must outlive s). */
void screen_state(struct screen *s, const struct screen_state *st);
/* The answer to what the user just did, on the status line now, for a few seconds or until
 * the next key. */
void screen_message(struct screen *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Something that happened on its own (the kernel loop only partly readable, the recording
 * stopped): on the status line for as long as a message, once no other message is showing;
 * an answer does not take its time away (msgq.h). */
void screen_notice(struct screen *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Draw everything (ncurses sends only what changed). */
void screen_draw(struct screen *s);
/* Handle one pending key.  false when no key is waiting; otherwise true
 * with *req saying what the loop should do (often SCREEN_REQ_NONE). */
bool screen_key(struct screen *s, struct screen_req *req);

/* The view's state now; strings valid until the next call on s. */
void screen_get_view(const struct screen *s, struct screen_view *v);

/* The knob panel's list (copied). */
void screen_set_knobs(struct screen *s, const struct screen_knobs *k);
/* control's verdict on the value being typed: rc as control_preview. */
void screen_set_preview(struct screen *s, int rc, const char *text);
/* Whether name is a column of the device table the sort can use ("name" too). */
bool screen_sort_known(const char *name);

#endif
