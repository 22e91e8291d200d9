/*
 * test_msgq.c - the status line's messages in turn: notices posted together are each shown for
 * their whole time, an answer takes the line at once and a notice it pushes off comes back,
 * a key's dismissal brings the next, nothing is queued twice, the queue is bounded, and a
 * waiting notice's time starts only when it is shown.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "util/msgq.h"

enum { SHOW = 5000 };	/* a message's time, in the test's clock */

START_TEST(test_msgq_notices_take_turns)
{
	/* start-up: the kernel loop's note and the recording's note a moment apart */
	struct msgq *q = msgq_new(SHOW);
	ck_assert_ptr_nonnull(q);
	ck_assert_str_eq(msgq_showing(q, 0), "");
	msgq_notice(q, 100, "kernel writeback loop: per-device limits: no debugfs");
	msgq_notice(q, 200, "the recording is on vda, a device shown");
	ck_assert_uint_eq(msgq_waiting(q), 1);
	ck_assert_str_eq(msgq_showing(q, 300), "kernel writeback loop: per-device limits: no debugfs");
	ck_assert_str_eq(msgq_showing(q, 100 + SHOW - 1), "kernel writeback loop: per-device limits: no debugfs");
	/* the second's time starts when it takes the line, not when it was posted */
	ck_assert_str_eq(msgq_showing(q, 100 + SHOW + 700), "the recording is on vda, a device shown");
	ck_assert_str_eq(msgq_showing(q, 100 + SHOW + 700 + SHOW - 1), "the recording is on vda, a device shown");
	ck_assert_str_eq(msgq_showing(q, 100 + SHOW + 700 + SHOW), "");
	ck_assert_uint_eq(msgq_waiting(q), 0);
	msgq_free(q);
}
END_TEST

START_TEST(test_msgq_answer_pushes_a_notice_back)
{
	/* --set's result, then the kernel loop's note after the first frame, then a key's answer */
	struct msgq *q = msgq_new(SHOW);
	msgq_answer(q, 0, "vm.dirty_ratio 20 -> 30: ok (--set)");
	msgq_notice(q, 50, "kernel writeback loop: per-device limits: no debugfs");
	ck_assert_str_eq(msgq_showing(q, 60), "vm.dirty_ratio 20 -> 30: ok (--set)");
	ck_assert_str_eq(msgq_showing(q, SHOW), "kernel writeback loop: per-device limits: no debugfs");
	/* an answer a second into the notice: shown at once, and the notice comes back whole */
	msgq_answer(q, SHOW + 1000, "interval 2s");
	ck_assert_str_eq(msgq_showing(q, SHOW + 1000), "interval 2s");
	ck_assert_uint_eq(msgq_waiting(q), 1);
	ck_assert_str_eq(msgq_showing(q, 2 * SHOW + 1000), "kernel writeback loop: per-device limits: no debugfs");
	ck_assert_str_eq(msgq_showing(q, 3 * SHOW + 999), "kernel writeback loop: per-device limits: no debugfs");
	ck_assert_str_eq(msgq_showing(q, 3 * SHOW + 1000), "");
	/* an answer replaces an answer: the first is not brought back */
	msgq_answer(q, 10 * SHOW, "interval 3s");
	msgq_answer(q, 10 * SHOW + 10, "interval 4s");
	ck_assert_str_eq(msgq_showing(q, 10 * SHOW + 20), "interval 4s");
	ck_assert_str_eq(msgq_showing(q, 11 * SHOW + 10), "");
	/* a notice whose time is up is not brought back either */
	msgq_notice(q, 20 * SHOW, "recording stopped: disk full");
	msgq_answer(q, 21 * SHOW, "interval 5s");
	ck_assert_uint_eq(msgq_waiting(q), 0);
	msgq_free(q);
}
END_TEST

START_TEST(test_msgq_dismiss_brings_the_next)
{
	struct msgq *q = msgq_new(SHOW);
	msgq_notice(q, 0, "one");
	msgq_notice(q, 0, "two");
	ck_assert_str_eq(msgq_showing(q, 10), "one");
	msgq_dismiss(q);	/* a key */
	/* a prompt held the line meanwhile: "two" has lost none of its time */
	ck_assert_str_eq(msgq_showing(q, 3 * SHOW), "two");
	ck_assert_str_eq(msgq_showing(q, 4 * SHOW - 1), "two");
	msgq_dismiss(q);
	ck_assert_str_eq(msgq_showing(q, 4 * SHOW), "");
	msgq_dismiss(q);	/* nothing showing: nothing happens */
	ck_assert_str_eq(msgq_showing(q, 4 * SHOW), "");
	msgq_free(q);
}
END_TEST

START_TEST(test_msgq_once_and_bounded)
{
	struct msgq *q = msgq_new(SHOW);
	msgq_notice(q, 0, "same");
	msgq_notice(q, 1, "same");	/* showing: not again */
	msgq_notice(q, 2, "other");
	msgq_notice(q, 3, "other");	/* waiting: not again */
	ck_assert_uint_eq(msgq_waiting(q), 1);
	char text[32];
	for (int i = 0; i < 2 * MSGQ_WAITING; i++) {
		snprintf(text, sizeof text, "n%d", i);
		msgq_notice(q, 10 + (uint64_t)i, text);
	}
	ck_assert_uint_eq(msgq_waiting(q), MSGQ_WAITING);
	/* the newest are kept, in order */
	ck_assert_str_eq(msgq_showing(q, 20), "same");
	for (int i = MSGQ_WAITING; i < 2 * MSGQ_WAITING; i++) {
		msgq_dismiss(q);
		snprintf(text, sizeof text, "n%d", i);
		ck_assert_str_eq(msgq_showing(q, 30), text);
	}
	/* an answer pushing a notice back into a full queue: the pushed one is kept, first */
	for (int i = 0; i < MSGQ_WAITING; i++) {
		snprintf(text, sizeof text, "m%d", i);
		msgq_notice(q, 40, text);
	}
	ck_assert_uint_eq(msgq_waiting(q), MSGQ_WAITING);
	msgq_answer(q, 50, "answer");
	ck_assert_uint_eq(msgq_waiting(q), MSGQ_WAITING);
	msgq_dismiss(q);
	ck_assert_str_eq(msgq_showing(q, 60), "n7");
	/* a long text is cut, not overrun */
	char long_text[2 * MSGQ_TEXT];
	memset(long_text, 'x', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = '\0';
	msgq_answer(q, 70, long_text);
	ck_assert_uint_eq(strlen(msgq_showing(q, 70)), MSGQ_TEXT - 1);
	msgq_free(q);
	/* no queue: every call is harmless */
	msgq_answer(NULL, 0, "x");
	msgq_notice(NULL, 0, "x");
	msgq_dismiss(NULL);
	ck_assert_str_eq(msgq_showing(NULL, 0), "");
	ck_assert_uint_eq(msgq_waiting(NULL), 0);
}
END_TEST

Suite *msgq_suite(void)
{
	Suite *s = suite_create("msgq");
	TCase *tc = tcase_create("turns");
	tcase_add_test(tc, test_msgq_notices_take_turns);
	tcase_add_test(tc, test_msgq_answer_pushes_a_notice_back);
	tcase_add_test(tc, test_msgq_dismiss_brings_the_next);
	tcase_add_test(tc, test_msgq_once_and_bounded);
	suite_add_tcase(s, tc);
	return s;
}
