/*
 * atomic.h - output files written whole or not at all (not installed;
 * util.c has the code).  internal.h includes it; the command-line tool
 * reaches it through src/tool/tool.h.
 */
#ifndef NESVM_CORE_ATOMIC_H
#define NESVM_CORE_ATOMIC_H

#include "nesvm.h"

#include <stdio.h>

/* Output files (util.c has the rules).
 * Regular files and new paths: written to a temporary in the same folder and
 * renamed into place on commit, so readers see the old file or the whole new
 * one.  A symlink: the file it points to is replaced, the link stays.
 * Devices, FIFOs, sockets: written directly.  "-": standard output. */
typedef struct nv_atomic_file {
    FILE *fp;
    char *tmp_path;   /* the temporary; NULL when written directly */
    char *final_path; /* the file written or replaced (a link's target) */
    int direct;       /* 0 atomic, 1 a special file written in place, 2 stdout */
} nv_atomic_file;
nesvm_status nv_atomic_open(nv_atomic_file *af, const char *path, nesvm_error *err);
/* Flush, sync and close the temporary without renaming it (the rename is
 * left to nv_atomic_commit); on failure it is removed. */
nesvm_status nv_atomic_finish(nv_atomic_file *af, nesvm_error *err);
/* Flush, fsync, close and rename over the final path; on any failure the
 * temporary is removed and nothing is left behind.  Standard output is
 * flushed and checked, not closed. */
nesvm_status nv_atomic_commit(nv_atomic_file *af, nesvm_error *err);
/* Close and remove the temporary file (a direct stream is only closed). */
void nv_atomic_abort(nv_atomic_file *af);

#endif
