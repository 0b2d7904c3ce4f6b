/* grid_csv.c - nesvm grid's CSV: the text of the search so far, written
 * whole (atomically) after each gamma or streamed to a device, and read back
 * to resume a search: two comment lines that identify the search (the data
 * by its fingerprint, the settings), the header whose last column is the
 * task's metric (accuracy, or mse for a regression), the points. */
#include "grid_csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int grid_csv_add(grid_csv *c, const char *s, size_t n)
{
    if (c->len + n + 1 > c->cap) {
        size_t cap = 2 * c->cap + n + 4096;
        char *t = realloc(c->text, cap);
        if (!t) return 0;
        c->text = t;
        c->cap = cap;
    }
    memcpy(c->text + c->len, s, n);
    c->len += n;
    c->text[c->len] = '\0';
    return 1;
}

int grid_csv_save(const char *cmd, grid_csv *c)
{
    nesvm_error err = {0};
    if (!c->streaming) {
        if (nv_atomic_open(&c->af, c->path, &err) != NESVM_OK) return cli_error(cmd, "%s", err.message);
        c->streaming = c->af.direct != 0;
        c->sent = 0;
    }
    fwrite(c->text + c->sent, 1, c->len - c->sent, c->af.fp);
    c->sent = c->len;
    if (!c->streaming)
        return nv_atomic_commit(&c->af, &err) == NESVM_OK ? CLI_OK : cli_error(cmd, "%s", err.message);
    errno = 0;
    if (fflush(c->af.fp) != 0 || ferror(c->af.fp)) {
        int e = errno ? errno : EIO;
        nv_atomic_abort(&c->af);
        c->streaming = 0;
        return cli_error(cmd, "cannot write '%s': %s", c->path, strerror(e));
    }
    return CLI_OK;
}

int grid_csv_close(const char *cmd, grid_csv *c)
{
    if (!c->streaming) return CLI_OK;
    nesvm_error err = {0};
    c->streaming = 0;
    return nv_atomic_commit(&c->af, &err) == NESVM_OK ? CLI_OK : cli_error(cmd, "%s", err.message);
}

/* The first word (space-separated) in which two settings lines differ, from
 * each (empty where one line has no more words). */
static void first_difference(const char *a, const char *b, char *out_a, char *out_b, size_t size)
{
    for (;;) {
        size_t la = strcspn(a, " "), lb = strcspn(b, " ");
        if (la != lb || memcmp(a, b, la) != 0 || !a[la] || !b[lb]) {
            if (la == lb && memcmp(a, b, la) == 0) { /* one line goes on */
                a += la + (a[la] != 0);
                b += lb + (b[lb] != 0);
                la = strcspn(a, " ");
                lb = strcspn(b, " ");
            }
            snprintf(out_a, size, "%.*s", (int)la, a);
            snprintf(out_b, size, "%.*s", (int)lb, b);
            return;
        }
        a += la + 1;
        b += lb + 1;
    }
}

/* Why a CSV is not resumed. */
enum { CSV_SAME, CSV_NOT_GRID, CSV_OLDER, CSV_OTHER_DATA, CSV_OTHER_SETTINGS, CSV_OTHER_P };

/* A CSV being read back: the line, why it is not this search's (if it is
 * not), and the first words that differ. */
typedef struct csv_read {
    const char *cmd;
    grid_csv *c;
    const grid_id *id;
    long lineno;
    int why;
    char there[256], here[256];
} csv_read;

/* Line 1 (the data) or line 2 (the settings, when the data are the same):
 * why the CSV is not this search's, if it is not. */
static void csv_identity(csv_read *r, const char *line)
{
    const grid_id *id = r->id;
    if (r->lineno == 1) {
        long long rows;
        int features;
        char hex[17];
        if (strncmp(line, "# nesvm grid ", 13) != 0)
            r->why = CSV_NOT_GRID;
        else if (sscanf(line, "# nesvm grid 2 rows=%lld features=%d fingerprint=%16[0-9a-f] ", &rows,
                        &features, hex) != 3)
            r->why = CSV_OLDER;
        else if (rows != id->rows || features != id->features || strtoull(hex, NULL, 16) != id->hash) {
            r->why = CSV_OTHER_DATA;
            snprintf(r->there, sizeof r->there, "%lld rows, %d features, fingerprint %s", rows, features,
                     hex);
            snprintf(r->here, sizeof r->here, "%lld rows, %d features, fingerprint %016llx", id->rows,
                     id->features, (unsigned long long)id->hash);
        }
    } else if (r->why == CSV_SAME && strcmp(line, id->settings) != 0) {
        r->why = CSV_OTHER_SETTINGS;
        first_difference(line, id->settings, r->there, r->here, sizeof r->there);
    }
}

/* Line 3, the header (nl: it ended in a newline).  A CSV of the other task
 * (its last column the other task's metric) is refused, whatever its data
 * and settings: its points are no scores of this search, and overwriting
 * it would lose the other search.  Another header in a CSV of this search
 * is damage.  Fails (printed) in both cases. */
static int csv_header(csv_read *r, const char *line, int nl)
{
    const grid_id *id = r->id;
    const char *mine = strrchr(id->header, ',') + 1, *last = strrchr(line, ',');
    const char *other = id->regression ? "accuracy" : "mse";
    if (last && strcmp(last + 1, other) == 0)
        return cli_error(r->cmd,
                         "%s:%ld: the CSV holds a %s search (column '%s'), and this search is a %s (column "
                         "'%s'): give another --out, or remove the file to search afresh",
                         r->c->path, r->lineno, id->regression ? "classification" : "regression", other,
                         id->regression ? "regression" : "classification", mine);
    /* p searched there and not here, or the reverse: another search (its
     * settings differ too, by epsilon), said as such */
    char pre[32];
    const int lp = snprintf(pre, sizeof pre, "log2g,log2%s,", id->third);
    const int has_p = strncmp(strchr(line, ',') ? strchr(line, ',') + 1 : "", pre, (size_t)lp) == 0;
    if (r->why == CSV_OTHER_SETTINGS && has_p != id->with_p) r->why = CSV_OTHER_P;
    if (r->why == CSV_SAME && (!nl || strcmp(line, id->header) != 0))
        return cli_error(r->cmd,
                         "%s:%ld: expected the header '%s', not '%.60s': the CSV was changed or "
                         "damaged; remove it to search afresh",
                         r->c->path, r->lineno, id->header, line);
    return CLI_OK;
}

/* The index of v among the n values of an axis (log2), -1 if none. */
static int axis_index(const double *vals, int n, double v)
{
    for (int i = 0; i < n; i++)
        if (fabs(vals[i] - v) < 1e-9) return i;
    return -1;
}

/* A point (len bytes, its newline taken off; nl: it had one): log2 of the
 * first axis, log2 gamma, (log2 p,) the axis, gamma (and p) ('' when not
 * searched), the score; into the text and into g (each grid point's first).
 * Fails (printed) on a damaged point or without memory. */
static int csv_point(csv_read *r, char *line, size_t len, int nl, const grid_have *g)
{
    const char *cmd = r->cmd, *path = r->c->path;
    const int nlog = r->id->with_p ? 3 : 2, nf = 2 * nlog + 1; /* the log2 columns, all columns */
    char *field[7], *s = line;
    int k = 0;
    for (; k < nf && s; k++) {
        field[k] = s;
        s = strchr(s, ',');
        if (s) *s++ = '\0';
    }
    double lv[3], x, sc;
    int ok = nl && k == nf && !s;
    for (int j = 0; ok && j < nlog; j++) /* log2 v, and v itself ('' when not searched) */
        ok = cli_parse_double(field[j], &lv[j]) &&
             (!field[nlog + j][0] || (cli_parse_double(field[nlog + j], &x) && x > 0));
    if (!ok) {
        for (int j = 1; j < k; j++) field[j][-1] = ','; /* the line as it was */
        if (s) s[-1] = ',';
        return cli_error(cmd,
                         "%s:%ld: '%.60s' is not a point (%s: %s numbers and a newline): the CSV "
                         "was changed or damaged; remove it to search afresh",
                         path, r->lineno, line, r->id->header, nf == 7 ? "seven" : "five");
    }
    if (r->id->regression && (!cli_parse_double(field[nf - 1], &sc) || sc < 0))
        return cli_error(cmd,
                         "%s:%ld: mean squared error '%.40s' is not a number >= 0: the CSV was changed or "
                         "damaged; remove it to search afresh",
                         path, r->lineno, field[nf - 1]);
    /* (nan: a nu infeasible on some fold, not trained) */
    if (r->id->nan_ok && strcmp(field[nf - 1], "nan") == 0) sc = NAN;
    else if (!r->id->regression && (!cli_parse_double(field[nf - 1], &sc) || sc < 0 || sc > 100))
        return cli_error(cmd,
                         "%s:%ld: accuracy '%.40s' is not a number from 0 to 100: the CSV was "
                         "changed or damaged; remove it to search afresh",
                         path, r->lineno, field[nf - 1]);
    for (int j = 1; j < nf; j++) field[j][-1] = ',';
    line[len] = '\n';
    if (!grid_csv_add(r->c, line, len + 1)) return cli_error(cmd, "out of memory");
    const int i = axis_index(g->as, g->na, lv[0]), jg = axis_index(g->gv, g->ng, lv[1]);
    const int jp = g->pv ? axis_index(g->pv, g->np, lv[2]) : 0;
    if (i >= 0 && jg >= 0 && jp >= 0) {
        const size_t at = ((size_t)i * (size_t)g->ng + (size_t)jg) * (size_t)g->np + (size_t)jp;
        if (!g->have[at]) {
            g->have[at] = 1;
            g->score[at] = sc;
            (*g->resumed)++;
        }
    }
    return CLI_OK;
}

/* The warning for a CSV that is not resumed, saying why. */
static void csv_warn(const csv_read *r)
{
    const char *cmd = r->cmd, *path = r->c->path;
    if (r->why == CSV_OTHER_DATA) {
        fprintf(stderr,
                "nesvm %s: warning: '%s' holds a search of other data (%s; this data: %s): it is "
                "overwritten by a new search\n",
                cmd, path, r->there, r->here);
    } else if (r->why == CSV_OTHER_SETTINGS) {
        /* 'folds=5' there, 'folds=3' here; 'w1=2' here only */
        char diff[600];
        if (r->there[0] && r->here[0])
            snprintf(diff, sizeof diff, "'%s' there, '%s' here", r->there, r->here);
        else
            snprintf(diff, sizeof diff, "'%s' %s only", r->there[0] ? r->there : r->here,
                     r->there[0] ? "there" : "here");
        fprintf(stderr,
                "nesvm %s: warning: '%s' holds a search with other settings (%s): it is overwritten by a "
                "new search\n",
                cmd, path, diff);
    } else if (r->why == CSV_OTHER_P) {
        /* the third axis (p, or nu-SVR's nu) searched in one and fixed in the other */
        const char *t = r->id->third, *opt = strcmp(t, "p") == 0 ? "p" : "n";
        char there[64], here[64];
        if (r->id->with_p) {
            snprintf(there, sizeof there, "with %s fixed (no column log2%s)", t, t);
            snprintf(here, sizeof here, "searches %s (-log2%s)", t, t);
        } else {
            snprintf(there, sizeof there, "over %s (column log2%s)", t, t);
            snprintf(here, sizeof here, "has %s fixed (-%s)", t, opt);
        }
        fprintf(stderr, "nesvm %s: warning: '%s' holds a search %s, and this one %s: it is overwritten by a new "
                        "search\n",
                cmd, path, there, here);
    } else if (r->why == CSV_OLDER) {
        fprintf(stderr,
                "nesvm %s: warning: '%s' was written by an older nesvm grid, without a fingerprint of "
                "its data: it is overwritten by a new search\n",
                cmd, path);
    } else {
        fprintf(stderr,
                "nesvm %s: warning: '%s' is not a CSV of nesvm grid (its first line is not '# nesvm grid "
                "...'): it is overwritten\n",
                cmd, path);
    }
}

int grid_csv_resume(const char *cmd, grid_csv *c, const grid_id *id, const grid_have *g)
{
    const size_t head = c->len;
    FILE *f = fopen(c->path, "r");
    if (!f)
        return errno == ENOENT ? CLI_OK : cli_error(cmd, "cannot read '%s': %s", c->path, strerror(errno));
    csv_read r;
    memset(&r, 0, sizeof r);
    r.cmd = cmd;
    r.c = c;
    r.id = id;
    r.why = CSV_SAME;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = CLI_OK;
    /* another search's CSV is read up to its header (one of the other task is refused) */
    while (
        rc == CLI_OK &&
        (r.why == CSV_SAME || (r.lineno < 3 && (r.why == CSV_OTHER_DATA || r.why == CSV_OTHER_SETTINGS))) &&
        (len = getline(&line, &cap, f)) >= 0) {
        r.lineno++;
        const int nl = len > 0 && line[len - 1] == '\n';
        if (nl) line[--len] = '\0';
        if (r.lineno <= 2)
            csv_identity(&r, line);
        else if (r.lineno == 3)
            rc = csv_header(&r, line, nl);
        else
            rc = csv_point(&r, line, (size_t)len, nl, g);
    }
    if (rc == CLI_OK && r.why == CSV_SAME && ferror(f))
        rc = cli_error(cmd, "cannot read '%s': %s", c->path, strerror(errno));
    if (rc == CLI_OK && r.why == CSV_SAME && r.lineno > 0 && r.lineno < 3)
        rc = cli_error(cmd,
                       "%s: the CSV ends before its header (line 3): it was changed or damaged; remove "
                       "it to search afresh",
                       c->path);
    fclose(f);
    free(line);
    if (rc != CLI_OK) return rc;
    if (r.why != CSV_SAME) {
        /* searched afresh: the file's points are not taken */
        c->len = head;
        memset(g->have, 0, (size_t)g->na * (size_t)g->ng * (size_t)g->np);
        *g->resumed = 0;
        csv_warn(&r);
    }
    return CLI_OK;
}
