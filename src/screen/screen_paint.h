/*
 * screen_paint.h - the helpers every pane draws with (screen_paint.c).
 */
#ifndef WBTOP_SCREEN_PAINT_H
#define WBTOP_SCREEN_PAINT_H

#include <stdbool.h>
#include <stdint.h>
#include "screen_data.h"

/* The roles' attributes, in colour unless no_color (or the terminal has none). */
void screen_paint_init_colors(struct screen *s, bool no_color);
attr_t screen_paint_attr(const struct screen *s, enum scr_role role);
/* Bytes of text that fill at most max columns; *cols gets the columns. */
size_t screen_paint_clip(const char *text, int max, int *cols);
/* Append text at the cursor, clipped; returns columns written. */
int screen_paint_add(struct screen *s, struct scr_line *ln, enum scr_role role, const char *text);
/* text right-aligned in width columns ("%*s"), or left-aligned and cut to width bytes
 * ("%-*.*s"): the cells of a table without a printf each. */
int screen_paint_add_pad(struct screen *s, struct scr_line *ln, enum scr_role role,
			 const char *text, int width, bool left);
int screen_paint_addf(struct screen *s, struct scr_line *ln, enum scr_role role,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* "label value" with a space before it; only if all of it fits. */
bool screen_paint_field(struct screen *s, struct scr_line *ln, const char *label,
			enum scr_role vrole, const char *value);
/* text from row y, column x, broken at spaces, at most max_rows rows;
 * returns the row after the last one written. */
int screen_paint_wrap(struct screen *s, int y, int x, enum scr_role role, const char *text,
		      int max_rows);
/* Fill the rest of the row with ch in role (for bars and rules). */
void screen_paint_fill(struct screen *s, struct scr_line *ln, enum scr_role role, const char *ch,
		       int n);
/* One glyph (one column: ASCII or a UTF-8 constant) at y, x in attribute a. */
void screen_paint_put_glyph(struct screen *s, int y, int x, const char *g, attr_t a);
/* The wide cell of the UTF-8 glyph constant g in attribute a, made once; NULL if it cannot. */
const cchar_t *screen_paint_glyph(struct screen *s, const char *g, attr_t a);
/* A titled rule: "── title ─────". */
void screen_paint_rule(struct screen *s, int y, const char *title);

#endif
