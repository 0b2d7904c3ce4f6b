/*
 * scale.c - per-feature scaling compatible with LIBSVM's svm-scale.
 *
 * Feature j's range [min_j, max_j] counts the implicit zeros of rows that do
 * not store it.  A value v maps to lower at min_j, upper at max_j and
 * lower + (upper-lower)(v-min_j)/(max_j-min_j) in between; features with
 * min_j == max_j are dropped.  Absent entries are scaled too (as 0), so with
 * lower != 0 the output gets denser, exactly as svm-scale does.  Features
 * beyond the fitted range (or unseen at fit time) are dropped.  The
 * parameter file has svm-scale's layout: optional "y" section, then "x",
 * "lower upper", and "index min max" lines.
 */
#include "dataset_internal.h"

#include <errno.h>
#include <sys/stat.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct nesvm_scaling {
    double lower, upper;
    int has_y;
    double y_lower, y_upper, y_min, y_max;
    int32_t d;
    double *fmin, *fmax; /* d entries; fmin > fmax marks an unused feature */
};

int32_t nesvm_scaling_features(const nesvm_scaling *sc) { return sc ? sc->d : 0; }

void nesvm_scaling_destroy(nesvm_scaling *sc)
{
    if (!sc) return;
    nv_free(sc->fmin);
    nv_free(sc->fmax);
    nv_free(sc);
}

static nesvm_scaling *scaling_new(int32_t d)
{
    nesvm_scaling *sc = nv_calloc(1, sizeof *sc);
    if (!sc) return NULL;
    sc->d = d;
    sc->fmin = nv_malloc_array((size_t)(d ? d : 1), sizeof(double));
    sc->fmax = nv_malloc_array((size_t)(d ? d : 1), sizeof(double));
    if (!sc->fmin || !sc->fmax) {
        nesvm_scaling_destroy(sc);
        return NULL;
    }
    for (int32_t j = 0; j < d; j++) {
        sc->fmin[j] = INFINITY;
        sc->fmax[j] = -INFINITY;
    }
    return sc;
}

/* Every range must have a finite width, or the map gives inf and nan. */
static nesvm_status check_ranges(const nesvm_scaling *sc, const char *where, nesvm_error *err)
{
    if (!isfinite(sc->upper - sc->lower))
        return nv_error(err, NESVM_ERR_ARG,
                        "%sthe target range [%g, %g] is too wide to scale into (upper - lower "
                        "overflows double precision)", where, sc->lower, sc->upper);
    if (sc->has_y && !isfinite(sc->y_upper - sc->y_lower))
        return nv_error(err, NESVM_ERR_ARG,
                        "%sthe label target range [%g, %g] is too wide (upper - lower overflows)",
                        where, sc->y_lower, sc->y_upper);
    if (sc->has_y && sc->y_min < sc->y_max && !isfinite(sc->y_max - sc->y_min))
        return nv_error(err, NESVM_ERR_DATA,
                        "%sthe labels span [%g, %g], a range too wide to scale (max - min overflows)",
                        where, sc->y_min, sc->y_max);
    for (int32_t j = 0; j < sc->d; j++)
        if (sc->fmin[j] < sc->fmax[j] && !isfinite(sc->fmax[j] - sc->fmin[j]))
            return nv_error(err, NESVM_ERR_DATA,
                            "%sfeature %d spans [%g, %g], a range too wide to scale (max - min "
                            "overflows double precision)",
                            where, j + 1, sc->fmin[j], sc->fmax[j]);
    return NESVM_OK;
}

nesvm_status nesvm_scaling_fit(const nesvm_dataset *ds, double lower, double upper,
                               double y_lower, double y_upper, nesvm_scaling **out,
                               nesvm_error *err)
{
    if (!ds || !out) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_scaling_fit");
    *out = NULL;
    if (!(lower < upper) || !isfinite(lower) || !isfinite(upper))
        return nv_error(err, NESVM_ERR_ARG, "scaling needs lower < upper (got %g, %g)", lower, upper);
    if (y_lower != y_upper && !(y_lower < y_upper))
        return nv_error(err, NESVM_ERR_ARG, "label scaling needs y_lower < y_upper");
    /* the ranges take 24 bytes per feature up to the largest index: refuse a
     * few values at a huge index (as the training does) before allocating */
    const double need = 24.0 * (double)ds->d;
    if (nv_dense_too_large(need, ds->nnz, ds->n))
        return nv_error(err, NESVM_ERR_DATA,
                        "the largest feature index is %d but the data hold only %lld values: the "
                        "ranges of %d features need %.0f MB; renumber the features to the ones used",
                        ds->d, (long long)ds->nnz, ds->d, need / 1048576.0);
    nesvm_scaling *sc = scaling_new(ds->d);
    if (!sc) return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the ranges of %d features", ds->d);
    sc->lower = lower;
    sc->upper = upper;
    int64_t *count = nv_calloc((size_t)(ds->d ? ds->d : 1), sizeof(int64_t));
    if (!count) {
        nesvm_scaling_destroy(sc);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory for the ranges of %d features", ds->d);
    }
    for (int64_t i = 0; i < ds->n; i++) {
        if (ds->storage == NESVM_STORAGE_DENSE) {
            for (int32_t j = 0; j < ds->d; j++) {
                double v = nv_val(ds, i * (int64_t)ds->d + j);
                if (v < sc->fmin[j]) sc->fmin[j] = v;
                if (v > sc->fmax[j]) sc->fmax[j] = v;
                count[j]++;
            }
        } else {
            for (int64_t k = ds->indptr[i]; k < ds->indptr[i + 1]; k++) {
                int32_t j = (int32_t)nv_idx(ds, k);
                double v = nv_val(ds, k);
                if (v < sc->fmin[j]) sc->fmin[j] = v;
                if (v > sc->fmax[j]) sc->fmax[j] = v;
                count[j]++;
            }
        }
    }
    for (int32_t j = 0; j < ds->d; j++) {
        if (count[j] < ds->n) { /* implicit zeros */
            if (0 < sc->fmin[j]) sc->fmin[j] = 0;
            if (0 > sc->fmax[j]) sc->fmax[j] = 0;
        }
    }
    nv_free(count);
    if (y_lower != y_upper) {
        sc->has_y = 1;
        sc->y_lower = y_lower;
        sc->y_upper = y_upper;
        sc->y_min = INFINITY;
        sc->y_max = -INFINITY;
        for (int64_t i = 0; i < ds->n; i++) {
            if (ds->labels[i] < sc->y_min) sc->y_min = ds->labels[i];
            if (ds->labels[i] > sc->y_max) sc->y_max = ds->labels[i];
        }
    }
    nesvm_status st = check_ranges(sc, "", err);
    if (st != NESVM_OK) {
        nesvm_scaling_destroy(sc);
        return st;
    }
    *out = sc;
    return NESVM_OK;
}

static double map(double v, double mn, double mx, double lo, double hi)
{
    if (v == mn) return lo;
    if (v == mx) return hi;
    const double s = lo + (hi - lo) * (v - mn) / (mx - mn);
    if (isfinite(s)) return s;
    /* (hi - lo) * (v - mn) overflowed: divide first (the same value where both are finite) */
    return lo + (hi - lo) * ((v - mn) / (mx - mn));
}

int nesvm_scaling_labels(const nesvm_scaling *sc, double *y_lower, double *y_upper, double *y_min,
                         double *y_max)
{
    if (!sc || !sc->has_y || !(sc->y_min < sc->y_max)) return 0;
    if (y_lower) *y_lower = sc->y_lower;
    if (y_upper) *y_upper = sc->y_upper;
    if (y_min) *y_min = sc->y_min;
    if (y_max) *y_max = sc->y_max;
    return 1;
}

double nesvm_scaling_unscale_label(const nesvm_scaling *sc, double v)
{
    /* the labels' map with its ends swapped */
    return nesvm_scaling_labels(sc, NULL, NULL, NULL, NULL) ? map(v, sc->y_lower, sc->y_upper, sc->y_min, sc->y_max)
                                                            : v;
}

nesvm_status nesvm_scaling_apply(const nesvm_scaling *sc, const nesvm_dataset *ds,
                                 nesvm_dataset **out, nesvm_error *err)
{
    if (!sc || !ds || !out) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_scaling_apply");
    *out = NULL;
    int32_t d = sc->d < ds->d ? sc->d : ds->d;
    int dense_zero = 0; /* does a zero map to a non-zero value for some feature? */
    int64_t varying = 0; /* features with a range: the only ones written */
    for (int32_t j = 0; j < d; j++) {
        if (!(sc->fmin[j] < sc->fmax[j])) continue;
        varying++;
        if (map(0, sc->fmin[j], sc->fmax[j], sc->lower, sc->upper) != 0) dense_zero = 1;
    }
    int64_t cap = dense_zero ? ds->n * varying : ds->nnz;
    int64_t *indptr = nv_malloc_array((size_t)ds->n + 1, sizeof(int64_t));
    int32_t *indices = nv_malloc_array((size_t)(cap ? cap : 1), sizeof(int32_t));
    double *values = nv_malloc_array((size_t)(cap ? cap : 1), sizeof(double));
    double *labels = nv_malloc_array((size_t)(ds->n ? ds->n : 1), sizeof(double));
    double *row = nv_calloc((size_t)(d ? d : 1), sizeof(double));
    if (!indptr || !indices || !values || !labels || !row) {
        nv_free(indptr); nv_free(indices); nv_free(values); nv_free(labels); nv_free(row);
        return nv_error(err, NESVM_ERR_NOMEM, "out of memory scaling %lld rows", (long long)ds->n);
    }
    int64_t nnz = 0;
    indptr[0] = 0;
    for (int64_t i = 0; i < ds->n; i++) {
        double y = ds->labels[i];
        if (sc->has_y && sc->y_min < sc->y_max)
            y = map(y, sc->y_min, sc->y_max, sc->y_lower, sc->y_upper);
        if (!isfinite(y)) {
            nv_free(indptr); nv_free(indices); nv_free(values); nv_free(labels); nv_free(row);
            return nv_error(err, NESVM_ERR_DATA, "row %lld: label %g scales to a non-finite value",
                            (long long)i + 1, ds->labels[i]);
        }
        labels[i] = y;
        /* expand row i into `row` (only the first d features matter) */
        if (ds->storage == NESVM_STORAGE_DENSE) {
            for (int32_t j = 0; j < d; j++) row[j] = nv_val(ds, i * (int64_t)ds->d + j);
        } else {
            for (int64_t k = ds->indptr[i]; k < ds->indptr[i + 1]; k++)
                if (nv_idx(ds, k) < d) row[nv_idx(ds, k)] = nv_val(ds, k);
        }
        for (int32_t j = 0; j < d; j++) {
            double v = row[j];
            row[j] = 0;
            if (!(sc->fmin[j] < sc->fmax[j])) continue;
            if (v == 0 && !dense_zero) continue;
            double s = map(v, sc->fmin[j], sc->fmax[j], sc->lower, sc->upper);
            if (s == 0) continue;
            if (!isfinite(s)) {
                nv_free(indptr); nv_free(indices); nv_free(values); nv_free(labels); nv_free(row);
                return nv_error(err, NESVM_ERR_DATA,
                                "row %lld, feature %d: value %g scales to a non-finite value "
                                "(range [%g, %g] onto [%g, %g])",
                                (long long)i + 1, j + 1, v, sc->fmin[j], sc->fmax[j], sc->lower, sc->upper);
            }
            indices[nnz] = j;
            values[nnz] = s;
            nnz++;
        }
        indptr[i + 1] = nnz;
    }
    nv_free(row);
    return nv_dataset_from_csr(ds->n, ds->d, indptr, indices, values, NESVM_DOUBLE, labels, out,
                               err);
}

nesvm_status nesvm_scaling_save(const nesvm_scaling *sc, const char *path, nesvm_error *err)
{
    if (!sc || !path) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_scaling_save");
    nv_atomic_file af;
    nesvm_status st = nv_atomic_open(&af, path, err);
    if (st != NESVM_OK) return st;
    char a[32], b[32];
    if (sc->has_y) {
        nv_format_double(sc->y_lower, a);
        nv_format_double(sc->y_upper, b);
        fprintf(af.fp, "y\n%s %s\n", a, b);
        nv_format_double(sc->y_min, a);
        nv_format_double(sc->y_max, b);
        fprintf(af.fp, "%s %s\n", a, b);
    }
    nv_format_double(sc->lower, a);
    nv_format_double(sc->upper, b);
    fprintf(af.fp, "x\n%s %s\n", a, b);
    for (int32_t j = 0; j < sc->d; j++) {
        if (!(sc->fmin[j] < sc->fmax[j])) continue;
        nv_format_double(sc->fmin[j], a);
        nv_format_double(sc->fmax[j], b);
        fprintf(af.fp, "%d %s %s\n", j + 1, a, b);
    }
    return nv_atomic_commit(&af, err);
}

/* Read numbers from a line; returns how many were read (up to max). */
static int line_numbers(const char *line, double *v, int max, int *extra)
{
    const char *p = line, *end = line + strlen(line);
    int k = 0;
    *extra = 0;
    while (1) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
        if (p >= end) break;
        double x;
        const char *q = nv_parse_double(p, end, &x);
        if (!q || (q < end && *q != ' ' && *q != '\t' && *q != '\r') || k == max) {
            *extra = 1;
            break;
        }
        v[k++] = x;
        p = q;
    }
    return k;
}

nesvm_status nesvm_scaling_load(const char *path, nesvm_scaling **out, nesvm_error *err)
{
    if (!path || !out) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_scaling_load");
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f) return nv_error(err, NESVM_ERR_IO, "cannot open scaling file '%s': %s", path, strerror(errno));
    struct stat fst;
    const off_t fsize = fstat(fileno(f), &fst) == 0 ? fst.st_size : 0;
    char *line = NULL;
    size_t line_cap = 0;
    ssize_t got;
    long long ln = 0;
    nesvm_scaling *sc = NULL;
    int32_t cap = 0;
    int32_t maxidx = 0;
    int section = 0; /* 0 none, 'y', 'x' */
    int stage = 0;
    int ystage = 0; /* lines read of the 'y' section */
    double v[3];
    int extra;
    nesvm_status st = NESVM_OK;
    double ylo = 0, yhi = 0, ymin = 0, ymax = 0, lo = 0, hi = 0;
    int has_y = 0, has_x = 0;
    double *fmin = NULL, *fmax = NULL;
    /* lines of any length (numbers of any length are read exactly) */
    while ((errno = 0, got = getline(&line, &line_cap, f)) > 0) {
        ln++;
        size_t len = (size_t)got;
        if (memchr(line, '\0', len)) {
            st = nv_error(err, NESVM_ERR_PARSE, "%s:%lld: NUL byte in scaling file (a binary file?)",
                          path, ln);
            goto done;
        }
        if (line[len - 1] == '\n') line[--len] = '\0';
        const char *t = line + (ln == 1 ? nv_utf8_bom(line, len) : 0);
        while (*t == ' ' || *t == '\t') t++;
        if (*t == '\0' || *t == '\r') continue;
        if ((t[0] == 'x' || t[0] == 'y') && (t[1] == '\0' || t[1] == '\r' || t[1] == ' ')) {
            section = t[0];
            stage = 0;
            if (section == 'y') has_y = 1; else has_x = 1;
            continue;
        }
        int n = line_numbers(t, v, 3, &extra);
        if (section == 'y' && stage < 2 && n == 2 && !extra) {
            if (stage == 0) { ylo = v[0]; yhi = v[1]; } else { ymin = v[0]; ymax = v[1]; }
            stage++;
            ystage = stage;
        } else if (section == 'x' && stage == 0 && n == 2 && !extra) {
            lo = v[0]; hi = v[1];
            stage = 1;
        } else if (section == 'x' && stage == 1 && n == 3 && !extra && v[0] >= 1 &&
                   v[0] <= INT32_MAX && v[0] == (double)(int64_t)v[0] && isfinite(v[1]) && isfinite(v[2])) {
            int32_t idx = (int32_t)v[0];
            if (idx <= maxidx) {
                st = nv_error(err, NESVM_ERR_PARSE, "%s:%lld: feature index %d not ascending", path, ln, idx);
                goto done;
            }
            if (idx > cap && 16.0 * idx > 268435456.0 && 16.0 * idx > 64.0 * (double)fsize) {
                st = nv_error(err, NESVM_ERR_PARSE,
                              "%s:%lld: feature index %d in a scaling file of %lld bytes: the ranges "
                              "of %d features need %.0f MB (a wrong index?)",
                              path, ln, idx, (long long)fsize, idx, 16.0 * idx / 1048576.0);
                goto done;
            }
            if (idx > cap) {
                int32_t ncap = cap ? cap : 64;
                while (ncap < idx) ncap = ncap > INT32_MAX / 2 ? INT32_MAX : ncap * 2;
                double *a = nv_realloc_array(fmin, (size_t)ncap, sizeof(double));
                if (!a) { st = nv_error(err, NESVM_ERR_NOMEM, "out of memory reading scaling file '%s'", path); goto done; }
                fmin = a;
                double *b2 = nv_realloc_array(fmax, (size_t)ncap, sizeof(double));
                if (!b2) { st = nv_error(err, NESVM_ERR_NOMEM, "out of memory reading scaling file '%s'", path); goto done; }
                fmax = b2;
                for (int32_t j = cap; j < ncap; j++) { fmin[j] = INFINITY; fmax[j] = -INFINITY; }
                cap = ncap;
            }
            if (v[1] > v[2]) {
                st = nv_error(err, NESVM_ERR_PARSE, "%s:%lld: feature %d has min %g above max %g",
                              path, ln, idx, v[1], v[2]);
                goto done;
            }
            fmin[idx - 1] = v[1];
            fmax[idx - 1] = v[2];
            maxidx = idx;
        } else {
            st = nv_error(err, NESVM_ERR_PARSE,
                          "%s:%lld: unexpected line '%.40s' in scaling file (expected svm-scale format)",
                          path, ln, t);
            goto done;
        }
    }
    if (errno == ENOMEM) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory reading scaling file '%s'", path);
        goto done;
    }
    if (ferror(f)) {
        st = nv_error(err, NESVM_ERR_IO, "cannot read scaling file '%s': %s", path,
                      strerror(errno ? errno : EIO));
        goto done;
    }
    if (!has_x || stage < 1) {
        st = nv_error(err, NESVM_ERR_PARSE, "%s: no 'x' section with lower and upper bounds", path);
        goto done;
    }
    if (!(lo < hi)) {
        st = nv_error(err, NESVM_ERR_PARSE, "%s: lower bound must be below upper bound", path);
        goto done;
    }
    if (has_y && (ystage < 2 || !(ylo < yhi) || !(ymin <= ymax))) {
        st = nv_error(err, NESVM_ERR_PARSE,
                      "%s: the 'y' section needs two lines: the target range (lower below upper) "
                      "and the labels' range (min not above max)", path);
        goto done;
    }
    sc = scaling_new(maxidx);
    if (!sc) { st = nv_error(err, NESVM_ERR_NOMEM, "out of memory reading scaling file '%s'", path); goto done; }
    sc->lower = lo; sc->upper = hi;
    if (has_y) {
        sc->has_y = 1;
        sc->y_lower = ylo; sc->y_upper = yhi; sc->y_min = ymin; sc->y_max = ymax;
    }
    for (int32_t j = 0; j < maxidx; j++) { sc->fmin[j] = fmin[j]; sc->fmax[j] = fmax[j]; }
    char where[300];
    snprintf(where, sizeof where, "%s: ", path);
    st = check_ranges(sc, where, err);
    if (st != NESVM_OK) {
        nesvm_scaling_destroy(sc);
        goto done;
    }
    *out = sc;
done:
    free(line);
    fclose(f);
    nv_free(fmin);
    nv_free(fmax);
    return st;
}
