/*
 * read_dist.c - a rank's share of a data file for data-parallel training
 * (nesvm_dataset_read_distributed): the lines that start in the rank's equal
 * byte range of one plain file, or the rank's own file PATH.R (`nesvm
 * split`); every rank's dataset gets the largest feature count over the
 * ranks, and a failure on any rank is every rank's, with the file's own line
 * numbers.
 */
#include "dataset_internal.h"
#include "../comm/comm.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

enum { MODE_NONE = 0, MODE_RANGES = 1, MODE_FILES = 2 };

int64_t nv_range_cut(int64_t size, int64_t k, int64_t parts) { return size / parts * k + size % parts * k / parts; }

/* Rank 0 looks at the path: a regular file is cut into ranges; otherwise
 * PATH.0 ... PATH.{P-1} are the ranks' files (and PATH.P must not exist, or
 * rows would be left out).  info = {mode, size}. */
static nesvm_status choose(const nv_comm *c, const char *path, int64_t info[2], nesvm_error *err)
{
    struct stat sb;
    char part[4096];
    info[0] = MODE_NONE;
    info[1] = 0;
    if (stat(path, &sb) == 0) {
        if (!S_ISREG(sb.st_mode))
            return nv_error(err, NESVM_ERR_ARG,
                            "%s: not a regular file: ranks read byte ranges of a file (or their own files "
                            "%s.0 ... %s.%d)",
                            path, path, path, c->size - 1);
        info[0] = MODE_RANGES;
        info[1] = (int64_t)sb.st_size;
        return NESVM_OK;
    }
    const int enoent = errno == ENOENT;
    snprintf(part, sizeof part, "%s.0", path);
    if (!enoent || stat(part, &sb) != 0)
        return nv_error(err, NESVM_ERR_IO, "cannot open '%s': %s%s%s%s", path,
                        strerror(enoent ? ENOENT : errno), enoent ? " (nor is there a per-rank file '" : "",
                        enoent ? part : "", enoent ? "': `nesvm split` writes them)" : "");
    snprintf(part, sizeof part, "%s.%d", path, c->size);
    if (stat(part, &sb) == 0)
        return nv_error(err, NESVM_ERR_ARG,
                        "%s exists: the data are split into more files than the %d processes, whose "
                        "rows would be left out; run as many processes as files",
                        part, c->size);
    info[0] = MODE_FILES;
    return NESVM_OK;
}

/* This rank's rows: its byte range (from line 1: the line numbers are fixed
 * afterwards) or its file. */
static nesvm_status read_share(const nv_comm *c, const char *path, const nesvm_read_options *o, const int64_t info[2],
                               int64_t first_line, int64_t *lines, nesvm_dataset **ds, nesvm_error *err)
{
    if (info[0] == MODE_FILES) {
        char part[4096];
        snprintf(part, sizeof part, "%s.%d", path, c->rank);
        *lines = 0;
        return nesvm_dataset_read(part, o, ds, err);
    }
    const int64_t size = info[1];
    return nv_dataset_read_range(path, o, nv_range_cut(size, c->rank, c->size),
                                 nv_range_cut(size, c->rank + 1, c->size), first_line, lines, ds, err);
}

nesvm_status nv_dataset_read_distributed(const char *path, const nesvm_read_options *opt, const nv_comm *c,
                                         nesvm_dataset **out, nesvm_error *err)
{
    if (!path || !out) return nv_error(err, NESVM_ERR_ARG, "path and out must not be NULL");
    *out = NULL;
    if (strcmp(path, "-") == 0)
        return nv_error(err, NESVM_ERR_ARG, "standard input cannot be shared by ranks: give a file");
    nesvm_read_options o;
    if (opt)
        o = *opt;
    else
        nesvm_read_options_init(&o);
    const nesvm_storage storage = o.storage;
    o.storage = NESVM_STORAGE_CSR; /* widened to the common d first */

    int64_t info[2] = {MODE_NONE, 0};
    nesvm_status st = c->rank == 0 ? choose(c, path, info, err) : NESVM_OK;
    st = nv_comm_agree(c, st, err);
    if (st == NESVM_OK) st = nv_comm_bcast(c, info, sizeof info, 0, err);
    if (st != NESVM_OK) return st;

    nesvm_dataset *ds = NULL;
    int64_t lines = 0;
    st = read_share(c, path, &o, info, 1, &lines, &ds, err);
    if (info[0] == MODE_RANGES) {
        /* messages carry the whole file's line numbers: the lines of the
         * ranks before this one (a failing rank reads again from there; the
         * lowest failing rank's message is the one reported, and every rank
         * before it counted its lines) */
        double cnt = st == NESVM_OK ? (double)lines : 0.0, *all = NULL;
        int64_t total = 0;
        nesvm_error gerr;
        memset(&gerr, 0, sizeof gerr);
        nesvm_status gst = nv_comm_gather(c, &cnt, 1, &all, &total, NULL, &gerr);
        if (gst != NESVM_OK) {
            nesvm_dataset_destroy(ds);
            if (err) *err = gerr;
            return gst;
        }
        if (st != NESVM_OK) {
            int64_t before = 0;
            for (int r = 0; r < c->rank; r++) before += (int64_t)all[r];
            st = read_share(c, path, &o, info, 1 + before, &lines, &ds, err);
        }
        nv_free(all);
    }
    st = nv_comm_agree(c, st, err);
    if (st != NESVM_OK) {
        nesvm_dataset_destroy(ds);
        return st;
    }
    /* one feature count on every rank */
    double d = (double)ds->d;
    if (o.min_features > ds->d) d = (double)o.min_features;
    st = nv_comm_max(c, &d, 1, err);
    if (st == NESVM_OK) {
        ds->d = (int32_t)d;
        st = nv_dataset_convert(ds, storage, o.precision, o.dense_threshold, err);
    }
    st = nv_comm_agree(c, st, err);
    if (st != NESVM_OK) {
        nesvm_dataset_destroy(ds);
        return st;
    }
    *out = ds;
    return NESVM_OK;
}

nesvm_status nesvm_dataset_read_distributed(const char *path, const nesvm_read_options *opt,
                                            const void *mpi_comm, nesvm_dataset **out, nesvm_error *err)
{
    if (out) *out = NULL;
    if (!mpi_comm) return nv_error(err, NESVM_ERR_ARG, "mpi_comm must not be NULL");
    nv_comm c;
    nesvm_status st = nv_comm_mpi(&c, mpi_comm, err);
    if (st != NESVM_OK) return st;
    return nv_dataset_read_distributed(path, opt, &c, out, err);
}
