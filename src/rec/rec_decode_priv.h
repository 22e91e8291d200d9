/*
 * rec_decode_priv.h - the replay's decoder (rec_decode.c), for the replay's
 * own files.
 */
#ifndef WBTOP_REC_DECODE_PRIV_H
#define WBTOP_REC_DECODE_PRIV_H

#include <stdint.h>

#include "core/snapshot.h"
#include "rec_reader_priv.h"

/* Sample target into out with its devices (and their ids into dev_ids[])
 * and its processes (sorted by pid; none if the file has no procs table),
 * decoding forward from the decoded state, a cached one or the keyframe
 * at or before target.  0, 1 if there is no such sample, or -errno. */
int rec_decode_sample(struct rec_replay *rp, int64_t target, struct snapshot *out);
/* The frame at offset of the frame stream, nbytes long, into rp->blob;
 * 0, or -EBADMSG with no message if rows are missing or short (*sqlrc:
 * the SQLite error behind it, or SQLITE_OK). */
int rec_decode_read_stream(struct rec_replay *rp, int64_t offset, int64_t nbytes, int *sqlrc);

#endif
