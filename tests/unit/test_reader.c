/* test_reader.c - the LIBSVM reader on good and bad inputs. */
#include "../../src/data/dataset_internal.h"
#include "check.h"

#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

static char dir[] = "/tmp/nesvm_reader_XXXXXX";

static const char *write_file(const char *name, const char *text, size_t len)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    fwrite(text, 1, len, f);
    fclose(f);
    return path;
}

static nesvm_status read_text(const char *text, nesvm_storage storage, nesvm_dataset **ds,
                              nesvm_error *err)
{
    const char *p = write_file("in.txt", text, strlen(text));
    nesvm_read_options o;
    nesvm_read_options_init(&o);
    o.storage = storage;
    return nesvm_dataset_read(p, &o, ds, err);
}

/* The file at path read as P byte ranges [k size / P, (k + 1) size / P), each
 * from the line number the ranges before it counted: the first range that
 * fails (other than with no data) must fail as the whole read did. */
static void expect_same_in_ranges(const char *path, size_t size, nesvm_status want, const char *whole)
{
    nesvm_read_options o;
    nesvm_read_options_init(&o);
    for (int P = 2; P <= 4; P++) {
        int64_t first = 1;
        int found = 0;
        for (int k = 0; k < P && !found; k++) {
            int64_t lines = 0;
            nesvm_dataset *ds = NULL;
            nesvm_error err = {0};
            nesvm_status st = nv_dataset_read_range(path, &o, (int64_t)size * k / P, (int64_t)size * (k + 1) / P,
                                                    first, &lines, &ds, &err);
            nesvm_dataset_destroy(ds);
            if (st == NESVM_ERR_UNSUPPORTED && strstr(err.message, "compressed")) return; /* no ranges */
            if (st == NESVM_OK || (st == NESVM_ERR_DATA && strstr(err.message, "no data in bytes"))) {
                first += lines;
                continue;
            }
            found = 1;
            CHECK_MSG(st == want && strcmp(err.message, whole) == 0,
                      "%d ranges, range %d: status %d '%s', the whole read %d '%s'", P, k, st, err.message, want,
                      whole);
        }
        /* every range read: only an error about the whole file (none has data) */
        if (!found) CHECK_MSG(want == NESVM_ERR_DATA, "%d ranges read without the error '%s'", P, whole);
    }
}

/* The bad text inside a 2 MiB file of good lines (so that parsing splits it
 * between threads) at a third, half and five sixths of the way: 3 threads
 * give the same status and message as 1 (the same line and column). */
static void expect_same_threaded(const char *text)
{
    static char big[(2 << 20) + 4096];
    const size_t tl = strlen(text), fill = 2 << 20;
    for (int where = 0; where < 3; where++) {
        const size_t at = where == 0 ? fill / 3 : where == 1 ? fill / 2 : fill * 5 / 6;
        size_t len = 0;
        int64_t i = 0;
        int placed = 0;
        while (len < fill) {
            if (!placed && len >= at) {
                memcpy(big + len, text, tl);
                len += tl;
                if (tl && text[tl - 1] != '\n') big[len++] = '\n';
                placed = 1;
            }
            len += (size_t)snprintf(big + len, sizeof big - len, "%d 1:%lld 5:0.25 9:-3\n", i % 2 ? 1 : -1,
                                    (long long)i);
            i++;
        }
        const char *p = write_file("threaded-bad.txt", big, len);
        nesvm_read_options o1, o3;
        nesvm_read_options_init(&o1);
        nesvm_read_options_init(&o3);
        o3.threads = 3;
        nesvm_dataset *d1 = NULL, *d3 = NULL;
        nesvm_error e1 = {0}, e3 = {0};
        nesvm_status s1 = nesvm_dataset_read(p, &o1, &d1, &e1), s3 = nesvm_dataset_read(p, &o3, &d3, &e3);
        CHECK_MSG(s1 == s3 && s1 != NESVM_OK && strcmp(e1.message, e3.message) == 0,
                  "input %s at %zu: 1 thread %d '%s', 3 threads %d '%s'", text, at, s1, e1.message, s3, e3.message);
        nesvm_dataset_destroy(d1);
        nesvm_dataset_destroy(d3);
    }
}

static void expect_error(const char *text, nesvm_status want, const char *msg)
{
    nesvm_dataset *ds = NULL;
    nesvm_error err = {0};
    nesvm_status st = read_text(text, NESVM_STORAGE_AUTO, &ds, &err);
    CHECK_MSG(st == want, "input %s: status %d, want %d", text, st, want);
    CHECK(ds == NULL);
    CHECK_CONTAINS(err.message, msg);
    char path[256];
    snprintf(path, sizeof path, "%s/in.txt", dir);
    expect_same_in_ranges(path, strlen(text), st, err.message);
    if (want != NESVM_ERR_DATA) expect_same_threaded(text); /* "no data" is no error among good lines */
}

/* Byte ranges partition a file's rows: for P = 1..7 equal ranges and for
 * random cuts, the ranges chained by their line counts give the whole read's
 * rows (labels, indices, values, in order) and every line once. */
static void test_ranges(void)
{
    static char text[200000];
    size_t len = 0;
    uint64_t st = 99;
    int64_t nlines = 0;
    for (int i = 0; i < 600; i++) {
        double u = nv_rng_uniform(&st);
        if (u < 0.05) len += (size_t)snprintf(text + len, sizeof text - len, "# a comment line\n");
        else if (u < 0.08) len += (size_t)snprintf(text + len, sizeof text - len, "\n");
        else {
            len += (size_t)snprintf(text + len, sizeof text - len, "%d", i % 3 ? 1 : -1);
            int f = 0, nf = (int)(nv_rng_uniform(&st) * 12);
            for (int j = 0; j < nf; j++) {
                f += 1 + (int)(nv_rng_uniform(&st) * 30);
                len += (size_t)snprintf(text + len, sizeof text - len, " %d:%.6g", f, nv_rng_uniform(&st) - 0.5);
            }
            len += (size_t)snprintf(text + len, sizeof text - len, u < 0.15 ? "\r\n" : "\n");
        }
        nlines++;
    }
    const char *path = write_file("ranges.txt", text, len);
    nesvm_read_options o;
    nesvm_read_options_init(&o);
    o.storage = NESVM_STORAGE_CSR;
    nesvm_dataset *whole = NULL;
    CHECK(nesvm_dataset_read(path, &o, &whole, NULL) == NESVM_OK);
    uint64_t rs = 5;
    for (int trial = 0; trial < 14; trial++) {
        int P = trial < 7 ? trial + 1 : 2 + (int)(nv_rng_uniform(&rs) * 6);
        int64_t cut[9];
        cut[0] = 0;
        cut[P] = (int64_t)len;
        for (int k = 1; k < P; k++)
            cut[k] = trial < 7 ? (int64_t)len * k / P : cut[k - 1] + (int64_t)(nv_rng_uniform(&rs) * (double)(len - (size_t)cut[k - 1]) / 2);
        int64_t first = 1, row = 0, bad = 0;
        for (int k = 0; k < P; k++) {
            int64_t lines = 0;
            nesvm_dataset *ds = NULL;
            nesvm_error err = {0};
            nesvm_status s2 = nv_dataset_read_range(path, &o, cut[k], cut[k + 1], first, &lines, &ds, &err);
            first += lines;
            if (s2 == NESVM_ERR_DATA) continue; /* no row starts there */
            CHECK_MSG(s2 == NESVM_OK, "%s", err.message);
            if (!ds) continue;
            for (int64_t i = 0; i < ds->n; i++, row++) {
                if (row >= whole->n) {
                    bad++;
                    continue;
                }
                int64_t a = ds->indptr[i], b = ds->indptr[i + 1], wa = whole->indptr[row], wb = whole->indptr[row + 1];
                bad += ds->labels[i] != whole->labels[row] || b - a != wb - wa;
                for (int64_t q = 0; q < b - a && b - a == wb - wa; q++)
                    bad += ds->indices[a + q] != whole->indices[wa + q] ||
                           ((const double *)ds->values)[a + q] != ((const double *)whole->values)[wa + q];
            }
            nesvm_dataset_destroy(ds);
        }
        CHECK_MSG(row == whole->n && bad == 0, "trial %d (%d ranges): %lld of %lld rows, %lld differences", trial, P,
                  (long long)row, (long long)whole->n, (long long)bad);
        CHECK_MSG(first - 1 == nlines, "trial %d: %lld lines counted, the file has %lld", trial, (long long)first - 1,
                  (long long)nlines);
    }
    nesvm_dataset_destroy(whole);
    /* a compressed file has no ranges; a bad range is refused */
    nesvm_error err = {0};
    nesvm_dataset *ds = NULL;
    const char gz[] = "\x1f\x8b\x08\x00";
    path = write_file("r.gz", gz, 4);
    CHECK(nv_dataset_read_range(path, &o, 0, 4, 1, NULL, &ds, &err) == NESVM_ERR_UNSUPPORTED);
    CHECK_CONTAINS(err.message, "a compressed file has no byte ranges of its lines");
    CHECK(nv_dataset_read_range(path, &o, 5, 4, 1, NULL, &ds, &err) == NESVM_ERR_ARG);
    CHECK_CONTAINS(err.message, "bad byte range [5, 4) from line 1");
    CHECK(nv_dataset_read_range("-", &o, 0, 4, 1, NULL, &ds, &err) == NESVM_ERR_ARG);
    CHECK_CONTAINS(err.message, "a byte range of standard input");
}

int main(void)
{
    if (!mkdtemp(dir)) return 2;
    nesvm_error err = {0};
    nesvm_dataset *ds = NULL;

    /* tabs, spaces, CRLF, comments, a row without features, blank lines */
    const char *good = "# header comment\n"
                       "+1 1:0.5 3:-2\r\n"
                       "\n"
                       "-1\t2:1e-3\t\t4:7 # trailing comment\n"
                       "2.5\n"
                       "   -1 1:1 2:2 3:3 4:4   \r\n";
    CHECK(read_text(good, NESVM_STORAGE_CSR, &ds, &err) == NESVM_OK);
    CHECK(nesvm_dataset_rows(ds) == 4);
    CHECK(nesvm_dataset_features(ds) == 4);
    CHECK(nesvm_dataset_nnz(ds) == 8);
    const double *y = nesvm_dataset_labels(ds);
    CHECK(y[0] == 1 && y[1] == -1 && y[2] == 2.5 && y[3] == -1);
    CHECK(ds->indptr[0] == 0 && ds->indptr[1] == 2 && ds->indptr[2] == 4 && ds->indptr[3] == 4);
    CHECK(ds->indices[0] == 0 && ds->indices[1] == 2 && ds->indices[2] == 1 && ds->indices[3] == 3);
    CHECK(nv_val(ds, 1) == -2 && nv_val(ds, 2) == 1e-3 && nv_val(ds, 3) == 7);
    nesvm_dataset_destroy(ds);

    /* dense storage holds the same matrix; auto picks dense at >= 50% fill */
    CHECK(read_text(good, NESVM_STORAGE_AUTO, &ds, &err) == NESVM_OK);
    CHECK(nesvm_dataset_storage(ds) == NESVM_STORAGE_DENSE);
    CHECK(nv_val(ds, 0) == 0.5 && nv_val(ds, 1) == 0 && nv_val(ds, 2) == -2);
    CHECK(nv_val(ds, 4 + 1) == 1e-3 && nv_val(ds, 8) == 0 && nv_val(ds, 15) == 4);
    nesvm_dataset_destroy(ds);
    CHECK(read_text("1 1:1\n-1 100:1\n", NESVM_STORAGE_AUTO, &ds, &err) == NESVM_OK);
    CHECK(nesvm_dataset_storage(ds) == NESVM_STORAGE_CSR);
    nesvm_dataset_destroy(ds);

    /* float storage */
    {
        nesvm_read_options o;
        nesvm_read_options_init(&o);
        o.precision = NESVM_FLOAT;
        o.storage = NESVM_STORAGE_CSR;
        const char *p = write_file("f.txt", "1 1:0.1 2:3\n", 12);
        CHECK(nesvm_dataset_read(p, &o, &ds, &err) == NESVM_OK);
        CHECK(nesvm_dataset_precision(ds) == NESVM_FLOAT);
        CHECK(nv_val(ds, 0) == (double)0.1f && nv_val(ds, 1) == 3);
        nesvm_dataset_destroy(ds);
        o.min_features = 10;
        CHECK(nesvm_dataset_read(p, &o, &ds, &err) == NESVM_OK);
        CHECK(nesvm_dataset_features(ds) == 10);
        nesvm_dataset_destroy(ds);
    }

    /* gzip input equals plain input; a truncated gzip is an error */
    {
        char path[256];
        snprintf(path, sizeof path, "%s/g.gz", dir);
        gzFile gz = gzopen(path, "wb");
        for (int i = 0; i < 20000; i++) gzprintf(gz, "%d 1:%d 5:0.25\n", i % 2 ? 1 : -1, i);
        gzclose(gz);
        CHECK(nesvm_dataset_read(path, NULL, &ds, &err) == NESVM_OK);
        CHECK(nesvm_dataset_rows(ds) == 20000);
        CHECK(nesvm_dataset_features(ds) == 5);
        CHECK(nesvm_dataset_storage(ds) == NESVM_STORAGE_CSR);
        CHECK(nv_val(ds, ds->indptr[19999]) == 19999 && nv_val(ds, ds->indptr[19999] + 1) == 0.25);
        nesvm_dataset_destroy(ds);
        FILE *f = fopen(path, "rb");
        char buf[1 << 16];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        const char *cut = write_file("cut.gz", buf, len / 2);
        CHECK(nesvm_dataset_read(cut, NULL, &ds, &err) == NESVM_ERR_IO);
        CHECK_CONTAINS(err.message, "truncated or corrupt gzip");
        CHECK(ds == NULL);
    }

    /* bzip2 and xz (compressed with Debian's bzip2 and xz tools): the plain file's
     * dataset, over several 1 MB read chunks (3.2 MB of text); two streams one
     * after another (as `cat a.bz2 b.bz2`) read as one; truncated streams and
     * trailing bytes are errors */
    {
        char plain[256], cmd[1024];
        snprintf(plain, sizeof plain, "%s/c.txt", dir);
        FILE *f = fopen(plain, "w");
        for (int i = 0; i < 150000; i++) fprintf(f, "%d 1:%d 3:0.5 7:%d\n", i % 3 - 1, i, i % 11);
        fclose(f);
        nesvm_dataset *ref = NULL;
        CHECK(nesvm_dataset_read(plain, NULL, &ref, &err) == NESVM_OK);
        const char *tools[2][2] = {{"bzip2", "bz2"}, {"xz", "xz"}};
        for (int t = 0; t < 2; t++) {
            char comp[300], two[300], cut[300], junk[300];
            snprintf(comp, sizeof comp, "%s.%s", plain, tools[t][1]);
            snprintf(cmd, sizeof cmd, "%s -kfc '%s' > '%s'", tools[t][0], plain, comp);
            CHECK_MSG(system(cmd) == 0, "%s", cmd);
            CHECK_MSG(nesvm_dataset_read(comp, NULL, &ds, &err) == NESVM_OK, "%s: %s", comp, err.message);
            int same = ds && ds->n == ref->n && ds->nnz == ref->nnz && ds->d == ref->d &&
                       memcmp(ds->labels, ref->labels, sizeof(double) * (size_t)ref->n) == 0 &&
                       memcmp(ds->values, ref->values, sizeof(double) * (size_t)ref->nnz) == 0 &&
                       memcmp(ds->indices, ref->indices, sizeof(int32_t) * (size_t)ref->nnz) == 0;
            CHECK_MSG(same, "%s: not the plain file's dataset", tools[t][0]);
            nesvm_dataset_destroy(ds);
            snprintf(two, sizeof two, "%s.two.%s", plain, tools[t][1]);
            snprintf(cmd, sizeof cmd, "cat '%s' '%s' > '%s'", comp, comp, two);
            CHECK(system(cmd) == 0);
            CHECK_MSG(nesvm_dataset_read(two, NULL, &ds, &err) == NESVM_OK, "%s", err.message);
            CHECK(ds && ds->n == 2 * ref->n && ds->labels[ref->n] == ref->labels[0]);
            nesvm_dataset_destroy(ds);
            snprintf(cut, sizeof cut, "%s.cut.%s", plain, tools[t][1]);
            snprintf(cmd, sizeof cmd, "head -c 20000 '%s' > '%s'", comp, cut);
            CHECK(system(cmd) == 0);
            CHECK(nesvm_dataset_read(cut, NULL, &ds, &err) == NESVM_ERR_IO && ds == NULL);
            CHECK_CONTAINS(err.message, t == 0 ? "truncated or corrupt bzip2 data" : "truncated or corrupt xz data");
            snprintf(junk, sizeof junk, "%s.junk.%s", plain, tools[t][1]);
            snprintf(cmd, sizeof cmd, "(cat '%s'; echo junk) > '%s'", comp, junk);
            CHECK(system(cmd) == 0);
            CHECK(nesvm_dataset_read(junk, NULL, &ds, &err) != NESVM_OK && ds == NULL);
            CHECK_CONTAINS(err.message, t == 0 ? "data after the end of the bzip2 stream" : "xz data");
            remove(comp);
            remove(two);
            remove(cut);
            remove(junk);
        }
        nesvm_dataset_destroy(ref);
        remove(plain);
    }

    /* a long line spanning several read chunks is read whole */
    {
        size_t n = 600000;
        char *big = malloc(n * 16 + 16);
        size_t len = (size_t)sprintf(big, "1");
        for (size_t j = 1; j <= n; j++) len += (size_t)sprintf(big + len, " %zu:1", j);
        len += (size_t)sprintf(big + len, "\n-1 1:2\n");
        const char *p = write_file("long.txt", big, len);
        free(big);
        CHECK(nesvm_dataset_read(p, NULL, &ds, &err) == NESVM_OK);
        CHECK(nesvm_dataset_features(ds) == (int32_t)n && nesvm_dataset_rows(ds) == 2);
        nesvm_dataset_destroy(ds);
        nesvm_read_options o;
        nesvm_read_options_init(&o);
        o.max_line_bytes = 1000;
        CHECK(nesvm_dataset_read(p, &o, &ds, &err) == NESVM_ERR_PARSE);
        CHECK_CONTAINS(err.message, ":1: line is longer than 1000 bytes");
    }

    /* bad inputs: status, line:column and what was expected */
    expect_error("1 1:2\n1 1:abc\n", NESVM_ERR_PARSE, ":2:5: non-numeric value 'abc'");
    expect_error("1 0:2\n", NESVM_ERR_PARSE, ":1:3: index 0 is not allowed");
    expect_error("1 3:2 2:1\n", NESVM_ERR_PARSE, ":1:7: index 2 is below the previous index 3");
    expect_error("1 3:2 3:1\n", NESVM_ERR_PARSE, "index 3 is equal to the previous index 3");
    expect_error("1 3 4:1\n", NESVM_ERR_PARSE, ":1:3: missing colon in '3'");
    expect_error("1 3:\n", NESVM_ERR_PARSE, ":1:5: missing value after ':'");
    expect_error("1 :3\n", NESVM_ERR_PARSE, ":1:3: missing index before ':'");
    expect_error("1 2:nan\n", NESVM_ERR_PARSE, ":1:5: value 'nan' is not a finite number");
    expect_error("1 2:inf\n", NESVM_ERR_PARSE, "not a finite number");
    expect_error("1:0.5 2:1\n", NESVM_ERR_PARSE, ":1:1: label missing");
    expect_error("abc 1:1\n", NESVM_ERR_PARSE, ":1:1: non-numeric label 'abc'");
    expect_error("nan 1:1\n", NESVM_ERR_PARSE, "label 'nan' is not a finite number");
    expect_error("1 2147483648:1\n", NESVM_ERR_PARSE, ":1:3: index 2147483648 exceeds the maximum 2147483647");
    expect_error("1 99999999999999999999999:1\n", NESVM_ERR_PARSE, "exceeds the maximum");
    expect_error("1 2:1x\n", NESVM_ERR_PARSE, ":1:5: non-numeric value '1x'");
    expect_error("1 2:1.5.3\n", NESVM_ERR_PARSE, "non-numeric value '1.5.3'");
    expect_error("1 x2:1\n", NESVM_ERR_PARSE, ":1:3: expected a feature index");
    expect_error("1 2;1\n", NESVM_ERR_PARSE, ":1:4: expected ':' after the feature index, found ';1'");
    expect_error("", NESVM_ERR_DATA, "no data");
    expect_error("# only a comment\n\n", NESVM_ERR_DATA, "no data");
    {
        const char nul[] = "1 1:1\n-1 1:\0002\n";
        const char *p = write_file("nul.txt", nul, sizeof nul - 1);
        CHECK(nesvm_dataset_read(p, NULL, &ds, &err) == NESVM_ERR_PARSE);
        CHECK_CONTAINS(err.message, ":2:6:");
    }
    CHECK(nesvm_dataset_read("/nonexistent/file", NULL, &ds, &err) == NESVM_ERR_IO);
    CHECK_CONTAINS(err.message, "cannot open '/nonexistent/file'");

    /* allocation failure at every allocation of a read: clean error, no leak, no crash */
    {
        const char *p = write_file("small.txt", good, strlen(good));
        int ok = 1;
        for (long k = 0; k < 40; k++) {
            nv_alloc_fail_after(k);
            nesvm_status st = nesvm_dataset_read(p, NULL, &ds, &err);
            nv_alloc_fail_after(-1);
            if (st == NESVM_OK) {
                nesvm_dataset_destroy(ds);
                break;
            }
            if (st != NESVM_ERR_NOMEM || ds != NULL) ok = 0;
        }
        CHECK(ok);
    }
    /* threaded parsing (blocks of >= 1 MiB are split between threads): the
     * same dataset as one thread, and on an error the same message */
    {
        size_t cap = (size_t)6 << 20, len = 0;
        char *big = malloc(cap);
        uint64_t st = 5;
        int64_t rows = 0;
        while (len + 200 < cap) {
            len += (size_t)snprintf(big + len, cap - len, "%s", rows % 97 == 3 ? "# comment\n\n" : "");
            len += (size_t)snprintf(big + len, cap - len, "%d", rows % 3 ? 1 : -1);
            for (int j = 1; j <= 12; j++)
                if (nv_rng_uniform(&st) < 0.5)
                    len += (size_t)snprintf(big + len, cap - len, " %d:%.6g", j * 7,
                                            nv_rng_uniform(&st) * 10 - 5);
            big[len++] = '\n';
            rows++;
        }
        const char *p = write_file("threads.txt", big, len);
        nesvm_read_options o1, o3;
        nesvm_read_options_init(&o1);
        nesvm_read_options_init(&o3);
        o1.storage = o3.storage = NESVM_STORAGE_CSR;
        o3.threads = 3;
        nesvm_dataset *d1 = NULL, *d3 = NULL;
        CHECK(nesvm_dataset_read(p, &o1, &d1, &err) == NESVM_OK);
        CHECK(nesvm_dataset_read(p, &o3, &d3, &err) == NESVM_OK);
        if (d1 && d3) {
            CHECK(d1->n == rows && d3->n == rows && d1->d == d3->d && d1->nnz == d3->nnz);
            CHECK(memcmp(d1->indptr, d3->indptr, (size_t)(rows + 1) * sizeof *d1->indptr) == 0);
            CHECK(memcmp(d1->indices, d3->indices, (size_t)d1->nnz * sizeof *d1->indices) == 0);
            CHECK(memcmp(d1->values, d3->values, (size_t)d1->nnz * sizeof(double)) == 0);
            CHECK(memcmp(d1->labels, d3->labels, (size_t)rows * sizeof(double)) == 0);
        }
        /* float storage is parsed straight to float: each value is the double one rounded */
        nesvm_read_options of = o3;
        of.precision = NESVM_FLOAT;
        nesvm_dataset *df = NULL;
        CHECK(nesvm_dataset_read(p, &of, &df, &err) == NESVM_OK);
        if (d1 && df) {
            CHECK(df->prec == NESVM_FLOAT && df->nnz == d1->nnz && df->storage == NESVM_STORAGE_CSR);
            int same = 1;
            for (int64_t k = 0; k < d1->nnz; k++)
                if (((const float *)df->values)[k] != (float)((const double *)d1->values)[k]) same = 0;
            CHECK(same);
            CHECK(memcmp(d1->indices, df->indices, (size_t)d1->nnz * sizeof *d1->indices) == 0);
        }
        nesvm_dataset_destroy(df);
        /* gzip input: decompressed on one thread, parsed on three: the same dataset */
        {
            char cmd[600];
            snprintf(cmd, sizeof cmd, "gzip -c '%s' > '%s.gz'", p, p);
            CHECK(system(cmd) == 0);
            snprintf(cmd, sizeof cmd, "%s.gz", p);
            nesvm_dataset *dz = NULL;
            CHECK(nesvm_dataset_read(cmd, &o3, &dz, &err) == NESVM_OK);
            if (d1 && dz) {
                CHECK(dz->n == d1->n && dz->nnz == d1->nnz);
                CHECK(memcmp(d1->indptr, dz->indptr, (size_t)(rows + 1) * sizeof *d1->indptr) == 0);
                CHECK(memcmp(d1->indices, dz->indices, (size_t)d1->nnz * sizeof *d1->indices) == 0);
                CHECK(memcmp(d1->values, dz->values, (size_t)d1->nnz * sizeof(double)) == 0);
            }
            nesvm_dataset_destroy(dz);
        }
        nesvm_dataset_destroy(d1);
        nesvm_dataset_destroy(d3);
        /* a bad value in the middle of the file, and one near its end */
        for (int where = 0; where < 2; where++) {
            size_t at = where ? len - 150 : len / 2 + 777;
            while (big[at] != ':') at++;
            char saved = big[at + 1];
            big[at + 1] = 'x';
            p = write_file("threads-bad.txt", big, len);
            nesvm_error e1 = {0}, e3 = {0};
            CHECK(nesvm_dataset_read(p, &o1, &d1, &e1) == NESVM_ERR_PARSE);
            CHECK(nesvm_dataset_read(p, &o3, &d3, &e3) == NESVM_ERR_PARSE);
            CHECK_MSG(strcmp(e1.message, e3.message) == 0 && strstr(e1.message, "non-numeric value"),
                      "1 thread: %s / 3 threads: %s", e1.message, e3.message);
            big[at + 1] = saved;
        }
        free(big);
    }
    test_ranges();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) return 2;
    CHECK_DONE();
}
