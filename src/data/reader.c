/*
 * reader.c - LIBSVM/SVMlight text reader.
 *
 * Format, one sample per line:  <label> <index>:<value> <index>:<value> ...
 *   - label: integer or real number (finite);
 *   - index: 1-based integer <= 2^31-1, strictly ascending within a line;
 *   - value: real number (finite);
 *   - separators: any run of spaces or tabs; CRLF line ends accepted;
 *   - '#' starts a comment running to the end of the line;
 *   - a line with a label and no features is a sample with no features;
 *   - blank and comment-only lines are skipped.
 * Input is read in large blocks (input.c: plain, or gzip, bzip2 or xz data
 * decompressed, each recognized by its first bytes; anything after the last
 * member or stream is an error).  A UTF-8 byte-order mark at the start is
 * skipped.  Every malformed line is an error "PATH:LINE:COLUMN: what was
 * found, what was expected"; nothing is skipped.
 *
 * Sections: the row builder (CSR arrays that grow); one line; a region of
 * lines; a block of lines split between threads (parse_block); the steps of
 * reading a file (read_common: the source, the input, the reader, the
 * blocks, the dataset).
 */
#include "dataset_internal.h"
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define CHUNK (16u << 20)      /* input block */
#define PAR_MIN_BYTES (1u << 20) /* blocks smaller than this are parsed by one thread */
#define MAX_READ_THREADS 64

void nesvm_read_options_init(nesvm_read_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->storage = NESVM_STORAGE_AUTO;
    opt->precision = NESVM_DOUBLE;
    opt->dense_threshold = 0.5;
    opt->max_line_bytes = (size_t)64 << 20;
    opt->min_features = 0;
    opt->threads = 1;
    opt->precomputed = NESVM_PRECOMPUTED_NONE;
    opt->kernel_columns = 0;
}

typedef struct builder {
    int64_t n, cap_rows;
    int64_t nnz, cap_nnz;
    double *labels;
    int64_t *indptr;
    int32_t *indices;
    void *values; /* float when fl, else double */
    int fl;
    int32_t d;
    int64_t *rowline; /* precomputed kernels: each row's line (lines set), else NULL */
    int lines;
} builder;

static int grow_rows_to(builder *b, int64_t need)
{
    int64_t cap = b->cap_rows ? b->cap_rows + b->cap_rows / 2 : 1024;
    while (cap < need) cap += cap / 2;
    double *l = nv_realloc_array(b->labels, (size_t)cap, sizeof *l);
    if (!l) return 0;
    b->labels = l;
    int64_t *ip = nv_realloc_array(b->indptr, (size_t)cap + 1, sizeof *ip);
    if (!ip) return 0;
    b->indptr = ip;
    if (b->lines) {
        int64_t *rl = nv_realloc_array(b->rowline, (size_t)cap, sizeof *rl);
        if (!rl) return 0;
        b->rowline = rl;
    }
    b->cap_rows = cap;
    return 1;
}

static int grow_nnz(builder *b, int64_t need)
{
    int64_t cap = b->cap_nnz ? b->cap_nnz : 4096;
    while (cap < need) cap += cap / 2;
    int32_t *ix = nv_realloc_array(b->indices, (size_t)cap, sizeof *ix);
    if (!ix) return 0;
    b->indices = ix;
    void *v = nv_realloc_array(b->values, (size_t)cap, b->fl ? sizeof(float) : sizeof(double));
    if (!v) return 0;
    b->values = v;
    b->cap_nnz = cap;
    return 1;
}

static int grow_rows(builder *b) { return grow_rows_to(b, b->n + 1); }

static void builder_free(builder *b)
{
    nv_free(b->labels);
    nv_free(b->indptr);
    nv_free(b->indices);
    nv_free(b->values);
    nv_free(b->rowline);
}

static inline int is_space(char c) { return c == ' ' || c == '\t'; }

/* Describe the token at p for messages: up to 20 printable characters. */
static const char *token_text(const char *p, const char *end, char *buf)
{
    int k = 0;
    while (p < end && k < 20 && !is_space(*p)) {
        unsigned char c = (unsigned char)*p++;
        buf[k++] = (c >= 32 && c < 127) ? (char)c : '?';
    }
    buf[k] = '\0';
    if (k == 0) return "end of line";
    return buf;
}

typedef struct parse_ctx {
    const char *path;
    int64_t line;
    const char *line_start;
    nesvm_error *err;
    int pc;             /* NESVM_PRECOMPUTED_*: index 0 is the serial number, indices kept as columns */
    int64_t pc_columns; /* NESVM_PRECOMPUTED_TEST: kernel values each row must give */
} parse_ctx;

#define COL(ptr) ((long long)((ptr) - ctx->line_start + 1))

static nesvm_status perr(parse_ctx *ctx, const char *at, const char *fmt, const char *what)
{
    char msg[300];
    snprintf(msg, sizeof msg, fmt, what);
    return nv_error(ctx->err, NESVM_ERR_PARSE, "%s:%lld:%lld: %s", ctx->path,
                    (long long)ctx->line, COL(at), msg);
}

/* Parse one line [p, end) (no newline) into the builder. */
static nesvm_status parse_line(parse_ctx *ctx, builder *b, const char *p, const char *end)
{
    char tok[24];
    /* strip comment and trailing CR/space */
    const char *hash = memchr(p, '#', (size_t)(end - p));
    if (hash) end = hash;
    while (end > p && (end[-1] == '\r' || is_space(end[-1]))) end--;
    while (p < end && is_space(*p)) p++;
    if (p == end) return NESVM_OK; /* blank or comment-only line */

    /* label */
    double label;
    const char *q = nv_parse_double(p, end, &label);
    if (!q || (q < end && !is_space(*q))) {
        const char *colon = memchr(p, ':', (size_t)(end - p));
        const char *sp = p;
        while (sp < end && !is_space(*sp)) sp++;
        if (colon && colon < sp)
            return perr(ctx, p, "label missing: found '%s', expected a numeric label first",
                        token_text(p, end, tok));
        return perr(ctx, p, "non-numeric label '%s'", token_text(p, end, tok));
    }
    if (!isfinite(label)) return perr(ctx, p, "label '%s' is not a finite number",
                                      token_text(p, end, tok));
    if (b->n == b->cap_rows && !grow_rows(b))
        return nv_error(ctx->err, NESVM_ERR_NOMEM, "%s:%lld: out of memory", ctx->path,
                        (long long)ctx->line);
    b->labels[b->n] = label;
    p = q;

    /* a precomputed kernel's row: 0:SERIAL first, then indices 1, 2, ... each
     * kept as its column (prev -1: the serial number is still to come) */
    const int pc = ctx->pc != NESVM_PRECOMPUTED_NONE;
    int64_t prev = pc ? -1 : 0;
    while (1) {
        while (p < end && is_space(*p)) p++;
        if (p == end) break;
        const char *tok_start = p;
        /* index */
        if ((unsigned)(*p - '0') >= 10) {
            if (*p == ':')
                return perr(ctx, p, "missing index before ':' in '%s'",
                            token_text(p, end, tok));
            return perr(ctx, p, "expected a feature index (a positive integer), found '%s'",
                        token_text(p, end, tok));
        }
        uint64_t idx = 0;
        while (p < end && (unsigned)(*p - '0') < 10) {
            if (idx <= UINT64_C(100000000000)) idx = idx * 10 + (uint64_t)(*p - '0');
            p++;
        }
        if (p == end || *p != ':') {
            if (p < end && !is_space(*p))
                return perr(ctx, p, "expected ':' after the feature index, found '%s'",
                            token_text(p, end, tok));
            return perr(ctx, tok_start, "missing colon in '%s' (expected index:value)",
                        token_text(tok_start, end, tok));
        }
        if (pc && prev < 0 && idx != 0)
            return perr(ctx, tok_start,
                        "the serial number is missing: found '%s', expected 0:SERIAL first (a precomputed "
                        "kernel's row is LABEL 0:SERIAL 1:K(x,x_1) 2:K(x,x_2) ...)",
                        token_text(tok_start, end, tok));
        if (idx == 0 && !pc)
            return perr(ctx, tok_start, "%s",
                        "index 0 is not allowed (indices are 1-based; a precomputed kernel's 0:SERIAL "
                        "takes -t precomputed)");
        if (idx > (uint64_t)INT32_MAX) {
            char m[120];
            snprintf(m, sizeof m, "index %s exceeds the maximum 2147483647",
                     token_text(tok_start, p, tok));
            return perr(ctx, tok_start, "%s", m);
        }
        if ((int64_t)idx <= prev) {
            char m[120];
            snprintf(m, sizeof m, "index %llu is %s the previous index %lld (indices must be strictly ascending)",
                     (unsigned long long)idx, (int64_t)idx == prev ? "equal to" : "below",
                     (long long)prev);
            return perr(ctx, tok_start, "%s", m);
        }
        if (pc && prev >= 0 && (int64_t)idx != prev + 1) {
            char m[200];
            snprintf(m, sizeof m,
                     "index %llu follows index %lld: a precomputed kernel's row gives every kernel value in "
                     "order, zeros too (index %lld is missing)",
                     (unsigned long long)idx, (long long)prev, (long long)prev + 1);
            return perr(ctx, tok_start, "%s", m);
        }
        p++; /* ':' */
        double v;
        const char *vstart = p;
        if (p == end || is_space(*p))
            return perr(ctx, vstart, "%s", "missing value after ':'");
        q = nv_parse_double(p, end, &v);
        if (!q || (q < end && !is_space(*q)))
            return perr(ctx, vstart, "non-numeric value '%s'", token_text(vstart, end, tok));
        if (!isfinite(v)) {
            const char *w = vstart + (*vstart == '+' || *vstart == '-');
            if (isinf(v) && *w != 'i' && *w != 'I') /* digits that overflow, not "inf" */
                return perr(ctx, vstart,
                            "value '%s' is beyond double precision (magnitudes up to 1.8e+308)",
                            token_text(vstart, end, tok));
            return perr(ctx, vstart, "value '%s' is not a finite number (NaN or Inf)",
                        token_text(vstart, end, tok));
        }
        if (b->fl && isinf((float)v))
            return perr(ctx, vstart,
                        "value '%s' overflows single precision (--float stores magnitudes up to "
                        "3.4028235e+38; read without --float)",
                        token_text(vstart, end, tok));
        p = q;
        if (b->nnz == b->cap_nnz && !grow_nnz(b, b->nnz + 1))
            return nv_error(ctx->err, NESVM_ERR_NOMEM, "%s:%lld: out of memory", ctx->path,
                            (long long)ctx->line);
        b->indices[b->nnz] = (int32_t)(pc ? idx : idx - 1);
        if (b->fl)
            ((float *)b->values)[b->nnz] = (float)v;
        else
            ((double *)b->values)[b->nnz] = v;
        b->nnz++;
        prev = (int64_t)idx;
        /* (a precomputed row's indices are contiguous: idx + 1 cannot overflow) */
        if ((int32_t)idx + pc > b->d) b->d = (int32_t)idx + pc;
    }
    if (pc && prev < 0)
        return perr(ctx, p,
                    "the serial number is missing: found '%s', expected 0:SERIAL first (a precomputed "
                    "kernel's row is LABEL 0:SERIAL 1:K(x,x_1) 2:K(x,x_2) ...)",
                    "end of line");
    if (ctx->pc == NESVM_PRECOMPUTED_TEST && prev < ctx->pc_columns) {
        char m[240];
        snprintf(m, sizeof m,
                 "the row's kernel values end at index %lld, and the model's support vectors reach serial number %lld: "
                 "a test row gives K(x,x_j) for every training row j up to it",
                 (long long)prev, (long long)ctx->pc_columns);
        return perr(ctx, p, "%s", m);
    }
    if (b->rowline) b->rowline[b->n] = ctx->line;
    b->n++;
    b->indptr[b->n] = b->nnz;
    return NESVM_OK;
}

/* Parse the complete lines in [p, end) (end is just past a newline, or the
 * end of the input) into b; ctx->line counts every line seen. */
static nesvm_status parse_region(parse_ctx *ctx, builder *b, const char *p, const char *end,
                                 size_t max_line)
{
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) nl = end; /* last line without newline */
        if ((size_t)(nl - p) > max_line)
            return nv_error(ctx->err, NESVM_ERR_PARSE,
                            "%s:%lld: line is longer than %zu bytes (absurdly long line)",
                            ctx->path, (long long)ctx->line + 1, max_line);
        ctx->line++;
        ctx->line_start = p;
        nesvm_status st = parse_line(ctx, b, p, nl);
        if (st != NESVM_OK) return st;
        p = nl < end ? nl + 1 : end;
    }
    return NESVM_OK;
}

/* Append the rows of src to dst (src's row lines counted from line_off). */
static int builder_append(builder *dst, const builder *src, int64_t line_off)
{
    NV_ASSERT(dst->fl == src->fl && dst->indptr[dst->n] == dst->nnz && src->indptr[0] == 0 &&
              src->indptr[src->n] == src->nnz);
    if (dst->n + src->n > dst->cap_rows && !grow_rows_to(dst, dst->n + src->n)) return 0;
    if (dst->nnz + src->nnz > dst->cap_nnz && !grow_nnz(dst, dst->nnz + src->nnz)) return 0;
    memcpy(dst->labels + dst->n, src->labels, (size_t)src->n * sizeof *src->labels);
    if (dst->rowline)
        for (int64_t i = 0; i < src->n; i++) dst->rowline[dst->n + i] = src->rowline[i] + line_off;
    for (int64_t i = 0; i < src->n; i++) dst->indptr[dst->n + i + 1] = dst->nnz + src->indptr[i + 1];
    memcpy(dst->indices + dst->nnz, src->indices, (size_t)src->nnz * sizeof *src->indices);
    size_t esz = dst->fl ? sizeof(float) : sizeof(double);
    memcpy((char *)dst->values + (size_t)dst->nnz * esz, src->values, (size_t)src->nnz * esz);
    dst->n += src->n;
    dst->nnz += src->nnz;
    if (src->d > dst->d) dst->d = src->d;
    return 1;
}

typedef struct reader {
    parse_ctx ctx;
    builder main;
    int threads;
    size_t max_line;
    char *buf;                      /* the input block: complete lines and a partial one */
    size_t cap;                     /* its bytes */
    builder part[MAX_READ_THREADS]; /* per-thread rows of one block */
} reader;

/* Parse a block of complete lines, split between threads at line boundaries;
 * the rows are appended to r->main in file order.  Messages are exactly
 * those of a one-thread parse: a failing piece is parsed again by one
 * thread with its true starting line number. */
static nesvm_status parse_block(reader *r, const char *p, const char *end)
{
    size_t len = (size_t)(end - p);
    int T = r->threads;
    if (T <= 1 || len < PAR_MIN_BYTES) return parse_region(&r->ctx, &r->main, p, end, r->max_line);
    const char *cut[MAX_READ_THREADS + 1];
    cut[0] = p;
    cut[T] = end;
    for (int k = 1; k < T; k++) {
        const char *q = p + len / (size_t)T * (size_t)k;
        if (q < cut[k - 1]) q = cut[k - 1];
        const char *nl = q < end ? memchr(q, '\n', (size_t)(end - q)) : NULL;
        cut[k] = nl ? nl + 1 : end;
        NV_ASSERT(cut[k - 1] <= cut[k] && cut[k] <= end); /* pieces in order, at line starts */
    }
    nesvm_status st[MAX_READ_THREADS];
    int64_t lines[MAX_READ_THREADS];
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1) num_threads(T)
#endif
    for (int k = 0; k < T; k++) {
        nesvm_error lerr;
        builder *b = &r->part[k];
        b->n = b->nnz = 0;
        b->d = 0;
        b->fl = r->main.fl;
        b->lines = r->main.lines;
        st[k] = NESVM_OK;
        if (!b->indptr && !grow_rows(b)) {
            st[k] = NESVM_ERR_NOMEM;
        } else {
            b->indptr[0] = 0;
            parse_ctx c = {r->ctx.path, 0, NULL, &lerr, r->ctx.pc, r->ctx.pc_columns};
            st[k] = parse_region(&c, b, cut[k], cut[k + 1], r->max_line);
            lines[k] = c.line;
        }
    }
    for (int k = 0; k < T; k++) {
        if (st[k] != NESVM_OK) {
            /* the rows before piece k are fine: redo piece k alone for the exact message */
            builder *b = &r->part[k];
            b->n = b->nnz = 0;
            nesvm_status s2 = parse_region(&r->ctx, b, cut[k], cut[k + 1], r->max_line);
            if (s2 != NESVM_OK) return s2;
            return nv_error(r->ctx.err, NESVM_ERR_NOMEM, "%s:%lld: out of memory", r->ctx.path,
                            (long long)r->ctx.line);
        }
        if (!builder_append(&r->main, &r->part[k], r->ctx.line))
            return nv_error(r->ctx.err, NESVM_ERR_NOMEM, "%s:%lld: out of memory", r->ctx.path,
                            (long long)r->ctx.line);
        r->ctx.line += lines[k];
    }
    return NESVM_OK;
}

/* A byte range of a plain file (nv_dataset_read_range), or none. */
typedef struct read_range {
    int64_t begin, end, first_line;
    int64_t *lines;
} read_range;

/* ---- reading a file: read_common in five steps */

/* Step 1b: position fd at the first line start of the byte range rg (the
 * lines that start in [begin, end): from the first line start at or after
 * begin to the first at or after end); *limit its bytes.  A compressed file
 * has no such byte offsets: refused. */
static nesvm_status seek_range(int fd, const char *name, const read_range *rg, int64_t *limit, nesvm_error *err)
{
    struct stat sb;
    unsigned char magic[6] = {0};
    ssize_t mg = pread(fd, magic, sizeof magic, 0);
    if (fstat(fd, &sb) != 0 || mg < 0)
        return nv_error(err, NESVM_ERR_IO, "%s: read error: %s", name, strerror(errno));
    if ((mg >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) || (mg >= 3 && memcmp(magic, "BZh", 3) == 0) ||
        (mg >= 6 && memcmp(magic, "\xFD" "7zXZ", 5) == 0 && magic[5] == 0))
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "%s: a compressed file has no byte ranges of its lines: decompress it, or give "
                        "each process its own file", name);
    int64_t size = (int64_t)sb.st_size, a = 0, b = 0;
    nesvm_status e = nv_line_start(fd, name, rg->begin, size, &a, err);
    if (e == NESVM_OK) e = nv_line_start(fd, name, rg->end, size, &b, err);
    if (e == NESVM_OK && lseek(fd, (off_t)a, SEEK_SET) < 0)
        e = nv_error(err, NESVM_ERR_IO, "%s: cannot seek: %s", name, strerror(errno));
    if (e != NESVM_OK) return e;
    NV_ASSERT(0 <= a && a <= b && b <= size); /* nv_line_start is monotone in its offset */
    *limit = b > a ? b - a : 0;
    return NESVM_OK;
}

/* Step 1, the source: the open file (standard input for "-") in *fd_out;
 * for a byte range, positioned at the range's first line with *limit its
 * bytes and *first_line its first line's number (a whole file: -1 and 1).
 * A byte range of standard input is refused. */
static nesvm_status open_source(const char *path, const char *name, const read_range *rg, int *fd_out,
                                int64_t *limit, int64_t *first_line, nesvm_error *err)
{
    int use_stdin = strcmp(path, "-") == 0;
    if (rg && use_stdin) return nv_error(err, NESVM_ERR_ARG, "a byte range of standard input: give a file");
    int fd = use_stdin ? dup(0) : open(path, O_RDONLY);
    if (fd < 0) return nv_error(err, NESVM_ERR_IO, "cannot open '%s': %s", name, strerror(errno));
    *limit = -1;
    *first_line = 1;
    if (rg) {
        nesvm_status e = seek_range(fd, name, rg, limit, err);
        if (e != NESVM_OK) {
            close(fd);
            return e;
        }
        *first_line = rg->first_line;
        if (rg->lines) *rg->lines = 0;
    }
    *fd_out = fd;
    return NESVM_OK;
}

static void reader_destroy(reader *r)
{
    if (!r) return;
    nv_free(r->buf);
    builder_free(&r->main);
    for (int k = 0; k < MAX_READ_THREADS; k++) builder_free(&r->part[k]);
    nv_free(r);
}

/* Step 3, the reader: the input block, the builder of the rows (float
 * values straight away when float storage is asked for: no double copy ever
 * exists, so --float really halves the peak memory) and the threads; NULL
 * when out of memory (err says so). */
static reader *reader_create(const nesvm_read_options *opt, const char *name, int64_t first_line, nesvm_error *err)
{
    char *buf = nv_malloc(CHUNK);
    reader *r = nv_calloc(1, sizeof *r);
    if (!r) nv_free(buf);
    if (r) {
        r->buf = buf;
        r->cap = CHUNK;
        r->main.fl = opt->precision == NESVM_FLOAT;
        r->main.lines = opt->precomputed == NESVM_PRECOMPUTED_TRAIN;
    }
    if (!buf || !r || !grow_rows(&r->main) || !grow_nnz(&r->main, 4096)) {
        nv_error(err, NESVM_ERR_NOMEM, "out of memory reading '%s'", name);
        reader_destroy(r);
        return NULL;
    }
    r->main.indptr[0] = 0;
    r->ctx = (parse_ctx){name, first_line - 1, NULL, err, opt->precomputed, opt->kernel_columns};
    r->threads = nv_threads(opt->threads);
    if (r->threads > MAX_READ_THREADS) r->threads = MAX_READ_THREADS;
    r->max_line = opt->max_line_bytes;
    return r;
}

/* A partial line fills the block (it is at most max_line bytes, or
 * read_blocks would have stopped): grow it to at most one byte beyond the
 * limit, enough to see whether the line ends within it. */
static nesvm_status grow_block(reader *r)
{
    size_t ncap = r->cap * 2;
    if (r->max_line < SIZE_MAX / 2 && ncap > r->max_line + 1) ncap = r->max_line + 1;
    NV_ASSERT(ncap > r->cap);
    char *nb = nv_realloc_array(r->buf, ncap, 1);
    if (!nb) return nv_error(r->ctx.err, NESVM_ERR_NOMEM, "out of memory reading '%s'", r->ctx.path);
    r->buf = nb;
    r->cap = ncap;
    return NESVM_OK;
}

/* Step 4, the blocks: the input read into r->buf, whose complete lines are
 * parsed block by block (parse_block); a partial line is carried over to
 * the next block.  first_line 1: a UTF-8 byte-order mark at the start of the
 * file is skipped (it is not data). */
static nesvm_status read_blocks(reader *r, nv_input *in, int64_t first_line)
{
    size_t have = 0; /* bytes in r->buf not yet consumed */
    int eof = 0;
    int64_t bytes_total = 0;
    nesvm_status st;
    while (!eof || have > 0) {
        if (!eof) {
            if (have == r->cap && (st = grow_block(r)) != NESVM_OK) return st;
            size_t want = r->cap - have;
            if (want > (1u << 30)) want = 1u << 30;
            size_t got = 0;
            st = nv_input_read(in, r->buf + have, want, &got, r->ctx.err);
            if (st != NESVM_OK) return st;
            if (got == 0) eof = 1;
            if (first_line == 1 && bytes_total == 0 && have == 0 && nv_utf8_bom(r->buf, got)) {
                memmove(r->buf, r->buf + 3, got - 3);
                got -= 3;
                bytes_total += 3;
            }
            bytes_total += (int64_t)got;
            have += got;
        }
        NV_ASSERT(have <= r->cap);
        /* parse the complete lines: up to the last newline (all at the end) */
        char *buf = r->buf, *limit = buf + have;
        if (!eof) {
            while (limit > buf && limit[-1] != '\n') limit--;
        }
        if (limit > buf && (st = parse_block(r, buf, limit)) != NESVM_OK) return st;
        size_t used = (size_t)(limit - buf);
        if (used > 0 && used < have) memmove(buf, limit, have - used);
        have -= used;
        if (eof && have == 0) break;
        if (!eof && have > r->max_line)
            return nv_error(r->ctx.err, NESVM_ERR_PARSE, "%s:%lld: line is longer than %zu bytes (absurdly long line)",
                            r->ctx.path, (long long)r->ctx.line + 1, r->max_line);
    }
    return NESVM_OK;
}

/* Step 5, the dataset: the rows read (none is an error) as an owned CSR
 * dataset, which takes the builder's arrays, converted to the storage and
 * precision asked for. */
static nesvm_status build_dataset(reader *r, const nesvm_read_options *opt, const read_range *rg,
                                  nesvm_dataset **out, nesvm_error *err)
{
    builder *b = &r->main;
    const char *name = r->ctx.path;
    if (b->n == 0)
        return rg ? nv_error(err, NESVM_ERR_DATA, "%s: no data in bytes [%lld, %lld) (no line starts there, or only "
                                                  "comments)", name, (long long)rg->begin, (long long)rg->end)
                  : nv_error(err, NESVM_ERR_DATA, "%s: no data (the file is empty or has only comments)", name);
    NV_ASSERT(b->indptr[0] == 0 && b->indptr[b->n] == b->nnz && b->n <= b->cap_rows && b->nnz <= b->cap_nnz);
    if (opt->min_features > b->d) b->d = opt->min_features;
    nesvm_dataset *ds = NULL;
    int64_t *rowline = b->rowline; /* a precomputed kernel's training rows: their lines */
    nesvm_status st = nv_dataset_from_csr(b->n, b->d, b->indptr, b->indices, b->values,
                                          b->fl ? NESVM_FLOAT : NESVM_DOUBLE, b->labels, &ds, err);
    memset(b, 0, sizeof *b); /* the arrays are the dataset's now (or freed) */
    /* serial numbers, a square matrix (parse_line kept each row's entries
     * contiguous from column 0) */
    if (st == NESVM_OK && rowline) st = nv_pc_check_train(ds, NULL, ds->n, name, rowline, err);
    nv_free(rowline);
    if (st != NESVM_OK) {
        nesvm_dataset_destroy(ds);
        return st;
    }
    st = nv_dataset_convert(ds, opt->storage, opt->precision, opt->dense_threshold, err);
    if (st != NESVM_OK) {
        nesvm_dataset_destroy(ds);
        return st;
    }
    *out = ds;
    return NESVM_OK;
}

static nesvm_status read_common(const char *path, const nesvm_read_options *opt_in, const read_range *rg,
                                nesvm_dataset **out, nesvm_error *err)
{
    if (!path || !out) return nv_error(err, NESVM_ERR_ARG, "path and out must not be NULL");
    *out = NULL;
    nesvm_read_options opt;
    if (opt_in)
        opt = *opt_in;
    else
        nesvm_read_options_init(&opt);
    if (opt.max_line_bytes == 0) opt.max_line_bytes = (size_t)64 << 20;
    if (opt.precomputed < NESVM_PRECOMPUTED_NONE || opt.precomputed > NESVM_PRECOMPUTED_TEST || opt.kernel_columns < 0)
        return nv_error(err, NESVM_ERR_ARG, "bad read options: precomputed %d (expected 0, 1 or 2), kernel_columns %d",
                        opt.precomputed, (int)opt.kernel_columns);
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    /* 1. the source: the file, or a byte range of it */
    int fd = -1;
    int64_t limit = -1, first_line = 1;
    nesvm_status st = open_source(path, name, rg, &fd, &limit, &first_line, err);
    if (st != NESVM_OK) return st;
    /* 2. the input: plain or decompressed (it owns fd) */
    nv_input in;
    st = nv_input_open(&in, fd, name, limit, err);
    /* 3. the reader, 4. the blocks, 5. the dataset */
    reader *r = st == NESVM_OK ? reader_create(&opt, name, first_line, err) : NULL;
    if (st == NESVM_OK && !r) st = NESVM_ERR_NOMEM;
    if (st == NESVM_OK) st = read_blocks(r, &in, first_line);
    if (st == NESVM_OK && rg && rg->lines) *rg->lines = r->ctx.line - (first_line - 1);
    if (st == NESVM_OK) st = build_dataset(r, &opt, rg, out, err);
    reader_destroy(r);
    nv_input_close(&in);
    return st;
}

nesvm_status nesvm_dataset_read(const char *path, const nesvm_read_options *opt, nesvm_dataset **out,
                                nesvm_error *err)
{
    return read_common(path, opt, NULL, out, err);
}

nesvm_status nv_dataset_read_range(const char *path, const nesvm_read_options *opt, int64_t begin, int64_t end,
                                   int64_t first_line, int64_t *lines, nesvm_dataset **out, nesvm_error *err)
{
    if (begin < 0 || end < begin || first_line < 1)
        return nv_error(err, NESVM_ERR_ARG, "bad byte range [%lld, %lld) from line %lld", (long long)begin,
                        (long long)end, (long long)first_line);
    read_range rg = {begin, end, first_line, lines};
    return read_common(path, opt, &rg, out, err);
}
