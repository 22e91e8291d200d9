/*
 * event.h - a knob change, as shown on the screen, printed in batch output
 * and stored in recordings.
 */
#ifndef WBTOP_EVENT_H
#define WBTOP_EVENT_H

#include <stdbool.h>
#include <stdint.h>

struct wb_event {
	int64_t wall_ns;	/* CLOCK_REALTIME when the write was attempted */
	char knob[96];		/* "vm.dirty_ratio" or "bdi:sda:max_ratio" */
	int64_t old_value;
	int64_t new_value;	/* what was asked for */
	int64_t read_back;	/* what the kernel held afterwards */
	int result;		/* 0, or a negative errno from the write */
	char note[128];		/* "", "undo", "revert", "read back 0: dirty_bytes now in force", ... */
	bool observed;		/* not a write of wbtop's: a change seen between two samples */
};

#endif
