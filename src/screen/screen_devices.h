/*
 * screen_devices.h - the device table (screen_devices.c).
 */
#ifndef WBTOP_SCREEN_DEVICES_H
#define WBTOP_SCREEN_DEVICES_H

#include <stdbool.h>
#include <stddef.h>
#include "screen_data.h"

void screen_devices_update(struct screen *s);
void screen_devices_draw(struct screen *s, int y, int rows);
bool screen_devices_key(struct screen *s, int ch);
/* From now on the selection follows the selected device (not the row). */
void screen_devices_note_selection(struct screen *s);
/* The selected device of the current frame, or NULL. */
const struct dev_counters *screen_devices_selected(struct screen *s, size_t *index);
/* Make rows [0, n) of the order known (at most norder); screen_devices_order_at: row k's
 * device index. */
void screen_devices_order_upto(struct screen *s, size_t n);
size_t screen_devices_order_at(struct screen *s, size_t k);
/* "vg-home /home xfs": a device as people know it, sanitized. */
const char *screen_devices_label(const struct dev_counters *d, char *buf, size_t len);
/* The label cut to width so what tells devices apart stays: the type
 * dropped first, then the mount point's head ("loop1 ..wbexp/m1"). */
const char *screen_devices_label_fit(const struct dev_counters *d, int width, char *buf,
				     size_t len);
/* The screen's columns from the figure registry; sorts by its first column. */
void screen_devices_cols_init(struct screen *s);
/* The index in s->cols of the column titled title, -1 if none. */
int screen_devices_col_by_title(const struct screen *s, const char *title);
/* A column's value as shown (scaled), NAN where the device has none. */
double screen_devices_col_value(const struct fig_dev *col, const struct dev_rates *r);
/* Sort by the column titled name ("name": the device name); false if unknown. */
bool screen_devices_set_sort(struct screen *s, const char *name);
/* Whether name is a column of the device table the sort can use ("name" too). */
bool screen_devices_sort_known(const char *name);
/* Set the device filter; false (message set) if text is not a regex. */
bool screen_devices_set_filter(struct screen *s, const char *text);
/* The view's state now (screen_get_view()). */
void screen_devices_get_view(const struct screen *s, struct screen_view *v);
void screen_devices_free(struct screen *s);

#endif
