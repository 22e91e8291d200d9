/*
 * screen_say.h - the status line's messages and prompts (screen_say.c).
 */
#ifndef WBTOP_SCREEN_SAY_H
#define WBTOP_SCREEN_SAY_H

#include <stdarg.h>
#include <stdbool.h>
#include "screen_data.h"

/* An answer (notice false) or a notice, formatted, to msgq (msgq.h). */
void screen_say_v(struct screen *s, bool notice, const char *fmt, va_list ap);
/* The answer to what the user just did (screen_message()). */
void screen_say_answer(struct screen *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Start typing on the status line, from initial (NULL: empty). */
void screen_say_prompt(struct screen *s, enum scr_prompt p, const char *initial);

#endif
