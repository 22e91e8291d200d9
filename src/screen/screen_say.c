/*
 * screen_say.c - what the status line says and asks: answers and notices
 * (msgq.h decides which shows when) and the prompt being typed.  The line
 * itself is drawn by screen_status.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/msgq.h"
#include "screen_clock.h"
#include "screen_say.h"

/* An answer or a notice (msgq.h), formatted. */
void screen_say_v(struct screen *s, bool notice, const char *fmt, va_list ap)
{
	char text[MSGQ_TEXT];
	vsnprintf(text, sizeof text, fmt, ap);
	if (notice)
		msgq_notice(s->msgq, screen_clock_now_ns(), text);
	else
		msgq_answer(s->msgq, screen_clock_now_ns(), text);
}

void screen_say_answer(struct screen *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	screen_say_v(s, false, fmt, ap);
	va_end(ap);
}

void screen_say_prompt(struct screen *s, enum scr_prompt p, const char *initial)
{
	s->prompt = p;
	snprintf(s->input, sizeof s->input, "%s", initial ? initial : "");
	s->ninput = strlen(s->input);
	s->input_hint = false;
	msgq_dismiss(s->msgq);	/* the prompt takes the line */
}
