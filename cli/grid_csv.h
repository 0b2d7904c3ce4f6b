/* grid_csv.h - nesvm grid's CSV (cli/grid_csv.c): the text written so far,
 * saving it whole or streaming it, and resuming a search from it. */
#ifndef NESVM_CLI_GRID_CSV_H
#define NESVM_CLI_GRID_CSV_H

#include "cli.h"

#include <stddef.h>
#include <stdint.h>

/* The CSV as written so far (the whole file), and where it goes. */
typedef struct grid_csv {
    const char *path;
    char *text;
    size_t len, cap;
    nv_atomic_file af;
    int streaming; /* a device or FIFO: written in place as the text grows */
    size_t sent;   /* streaming: the bytes written */
} grid_csv;

/* What identifies the search in the CSV: the data (rows, features,
 * fingerprint) and the settings' line; the header of the points, whose last
 * column names the search's metric: "accuracy" (a classification, in %,
 * from 0 to 100) or "mse" (a regression: the cross-validation mean squared
 * error, >= 0); with_p: epsilon-SVR's tube (p) is searched, and every point
 * has its log2 p and p (the header's third and sixth columns). */
typedef struct grid_id {
    long long rows;
    int features;
    uint64_t hash;
    const char *settings, *header;
    int regression; /* the metric is "mse" */
    int with_p;     /* the third axis's columns (log2p and p, or log2nu and nu) */
    const char *third; /* its name: "p" (epsilon-SVR) or "nu" (nu-SVR) */
    int nan_ok;        /* nu-SVC along nu: an infeasible point's accuracy is nan */
} grid_id;

/* The grid a CSV's points are matched to: log2 of the first axis's na
 * values, of gamma's ng values and of p's np values (pv: NULL and np = 1
 * without the columns of p); per point (i ng np + jg np + jp), whether it is
 * scored and its score (accuracy in %, or MSE); how many were resumed. */
typedef struct grid_have {
    const double *as, *gv, *pv;
    int na, ng, np;
    unsigned char *have;
    double *score;
    int *resumed;
} grid_have;

/* Append n bytes of s to the text: 0 without memory. */
int grid_csv_add(grid_csv *c, const char *s, size_t n);
/* Write the CSV: a regular file is replaced whole (atomically: on a failure
 * the file stays as the last save left it, every point of it resumable); a
 * device or FIFO gets what it has not had yet.  Fails (printed, as cmd). */
int grid_csv_save(const char *cmd, grid_csv *c);
/* Close a device or FIFO written in place.  Fails (printed, as cmd). */
int grid_csv_close(const char *cmd, grid_csv *c);
/* Resume from the CSV at c->path (a regular file): when it holds this search
 * (the same data and settings), its points go to g (each grid point's first)
 * and its lines to c->text after the three lines of id, to be written again
 * with the new points.  Another search's CSV (other data, other settings,
 * or p searched in one and not in the other), an older nesvm's or a file
 * that is no grid CSV is not resumed: a warning says that it is overwritten.
 * Errors (printed; the file is left as it is): a damaged point (not five
 * numbers, or seven with p, an accuracy outside [0, 100], a mean squared error below 0), a
 * damaged header, and a CSV of the other task (a classification's for a
 * regression search, or the reverse), whatever its data and settings. */
int grid_csv_resume(const char *cmd, grid_csv *c, const grid_id *id, const grid_have *g);

#endif
