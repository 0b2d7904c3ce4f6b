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
 * Input is read in large chunks; gzip data (one or more members) are
 * inflated through zlib, bzip2 data (one or more streams) through libbz2 and
 * xz data (one or more streams) through liblzma, each recognized by its
 * first bytes; anything after the last member or stream is an error.
 * A UTF-8 byte-order mark at the start is skipped.  Every malformed line is an error
 * "PATH:LINE:COLUMN: what was found, what was expected"; nothing is skipped.
 */
#include "dataset_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
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

    int64_t prev = 0;
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
        if (idx == 0)
            return perr(ctx, tok_start, "%s",
                        "index 0 is not allowed (indices are 1-based)");
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
        b->indices[b->nnz] = (int32_t)(idx - 1);
        if (b->fl)
            ((float *)b->values)[b->nnz] = (float)v;
        else
            ((double *)b->values)[b->nnz] = v;
        b->nnz++;
        prev = (int64_t)idx;
        if ((int32_t)idx > b->d) b->d = (int32_t)idx;
    }
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

/* Append the rows of src to dst. */
static int builder_append(builder *dst, const builder *src)
{
    if (dst->n + src->n > dst->cap_rows && !grow_rows_to(dst, dst->n + src->n)) return 0;
    if (dst->nnz + src->nnz > dst->cap_nnz && !grow_nnz(dst, dst->nnz + src->nnz)) return 0;
    memcpy(dst->labels + dst->n, src->labels, (size_t)src->n * sizeof *src->labels);
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
        st[k] = NESVM_OK;
        if (!b->indptr && !grow_rows(b)) {
            st[k] = NESVM_ERR_NOMEM;
        } else {
            b->indptr[0] = 0;
            parse_ctx c = {r->ctx.path, 0, NULL, &lerr};
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
        if (!builder_append(&r->main, &r->part[k]))
            return nv_error(r->ctx.err, NESVM_ERR_NOMEM, "%s:%lld: out of memory", r->ctx.path,
                            (long long)r->ctx.line);
        r->ctx.line += lines[k];
    }
    return NESVM_OK;
}

/* ---- input: plain bytes or gzip members, through zlib's inflate
 * A gzip file may hold several members one after another (as gzip -c a b
 * makes); anything else after a member is an error, as are truncated and
 * corrupt members.  Messages name the file, not a descriptor. */
#define RAW_CHUNK (1u << 20)
enum { NV_IN_PLAIN = 0, NV_IN_GZIP = 1, NV_IN_BZIP2 = 2, NV_IN_XZ = 3 };
typedef struct nv_input {
    int fd;
    const char *name;
    int gz;             /* the input starts with the gzip magic */
    int kind;           /* NV_IN_*: by the first bytes (gzip, bzip2 "BZh", xz FD 37 7A 58 5A 00) */
    int zinit;
    z_stream zs;
    bz_stream bz;       /* bzip2 (libbz2) */
    int bzinit;
    lzma_stream xz;     /* xz (liblzma; concatenated streams decoded as one) */
    int xzinit;
    unsigned char *raw; /* RAW_CHUNK bytes of compressed input */
    size_t raw_len;     /* bytes in raw (plain mode: not yet handed out) */
    size_t raw_pos;
    int raw_eof;
    int done;
    int64_t raw_total;  /* compressed bytes read */
    int64_t limit;      /* plain bytes left to read (a byte range), or -1: to the end */
} nv_input;

static nesvm_status input_fill(nv_input *in, nesvm_error *err)
{
    if (in->raw_eof) return NESVM_OK;
    size_t want = RAW_CHUNK;
    if (in->limit >= 0 && (int64_t)want > in->limit) want = (size_t)in->limit;
    ssize_t got = 0;
    if (want > 0) {
        do got = read(in->fd, in->raw, want);
        while (got < 0 && errno == EINTR);
    }
    if (got > 0 && in->limit >= 0) in->limit -= got;
    if (got < 0) return nv_error(err, NESVM_ERR_IO, "%s: read error: %s", in->name, strerror(errno));
    if (got == 0) in->raw_eof = 1;
    in->raw_len = (size_t)got;
    in->raw_pos = 0;
    in->raw_total += got;
    return NESVM_OK;
}

static nesvm_status input_open(nv_input *in, int fd, const char *name, int64_t limit, nesvm_error *err)
{
    memset(in, 0, sizeof *in);
    in->fd = fd;
    in->name = name;
    in->limit = limit;
    in->raw = nv_malloc(RAW_CHUNK + 8); /* + 8: bytes carried over a read (magics, input_read) */
    if (!in->raw) return nv_error(err, NESVM_ERR_NOMEM, "out of memory reading '%s'", name);
    nesvm_status st = input_fill(in, err);
    if (st != NESVM_OK) return st;
    /* a one-byte first read cannot show the magic: read on until two bytes */
    while (in->raw_len == 1 && !in->raw_eof) {
        unsigned char c = in->raw[0];
        st = input_fill(in, err);
        if (st != NESVM_OK) return st;
        memmove(in->raw + 1, in->raw, in->raw_len);
        in->raw[0] = c;
        in->raw_len++;
    }
    /* the longest magic is xz's six bytes: read on until six, or the end */
    while (in->raw_len < 6 && !in->raw_eof) {
        unsigned char keep[6];
        size_t kl = in->raw_len;
        memcpy(keep, in->raw, kl);
        st = input_fill(in, err);
        if (st != NESVM_OK) return st;
        memmove(in->raw + kl, in->raw, in->raw_len);
        memcpy(in->raw, keep, kl);
        in->raw_len += kl;
    }
    /* a byte range of a plain file: its lines, whatever its first bytes look like */
    if (limit >= 0) return NESVM_OK;
    static const unsigned char xz_magic[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
    in->gz = in->raw_len >= 2 && in->raw[0] == 0x1f && in->raw[1] == 0x8b;
    if (in->raw_len >= 3 && in->raw[0] == 'B' && in->raw[1] == 'Z' && in->raw[2] == 'h') {
        in->kind = NV_IN_BZIP2;
        if (BZ2_bzDecompressInit(&in->bz, 0, 0) != BZ_OK)
            return nv_error(err, NESVM_ERR_NOMEM, "out of memory reading '%s'", name);
        in->bzinit = 1;
        in->bz.next_in = (char *)in->raw;
        in->bz.avail_in = (unsigned)in->raw_len;
        return NESVM_OK;
    }
    if (in->raw_len >= 6 && memcmp(in->raw, xz_magic, 6) == 0) {
        in->kind = NV_IN_XZ;
        lzma_stream init = LZMA_STREAM_INIT;
        in->xz = init;
        /* a memory limit: xz -9's data need 65 MB to decode; a header asking for
         * gigabytes is refused, not obeyed */
        if (lzma_stream_decoder(&in->xz, (uint64_t)512 << 20, LZMA_CONCATENATED) != LZMA_OK)
            return nv_error(err, NESVM_ERR_NOMEM, "out of memory reading '%s'", name);
        in->xzinit = 1;
        in->xz.next_in = in->raw;
        in->xz.avail_in = in->raw_len;
        return NESVM_OK;
    }
    if (in->gz) {
        in->kind = NV_IN_GZIP;
        if (inflateInit2(&in->zs, 15 + 16) != Z_OK)
            return nv_error(err, NESVM_ERR_NOMEM, "out of memory reading '%s'", name);
        in->zinit = 1;
        in->zs.next_in = in->raw;
        in->zs.avail_in = (uInt)in->raw_len;
    }
    return NESVM_OK;
}

static void input_close(nv_input *in)
{
    if (in->zinit) inflateEnd(&in->zs);
    if (in->bzinit) BZ2_bzDecompressEnd(&in->bz);
    if (in->xzinit) lzma_end(&in->xz);
    nv_free(in->raw);
    if (in->fd >= 0) close(in->fd);
}

/* N in the message: the compressed bytes consumed when zlib stopped (the
 * position of the damage, not of the block read last) */
static nesvm_status gz_error(nv_input *in, const char *what, nesvm_error *err)
{
    return nv_error(err, NESVM_ERR_IO, "%s: %s (truncated or corrupt gzip data after %lld bytes)",
                    in->name, what, (long long)(in->raw_total - in->zs.avail_in));
}

/* bzip2: streams one after another (as pbzip2 and `cat a.bz2 b.bz2` make),
 * anything else after a stream is an error. */
static nesvm_status bz_read(nv_input *in, char *buf, size_t want, size_t *got, nesvm_error *err)
{
    bz_stream *bz = &in->bz;
    nesvm_status st;
    if (want > (1u << 30)) want = 1u << 30;
    bz->next_out = buf;
    bz->avail_out = (unsigned)want;
    while (bz->avail_out > 0) {
        if (bz->avail_in == 0 && !in->raw_eof) {
            if ((st = input_fill(in, err)) != NESVM_OK) return st;
            bz->next_in = (char *)in->raw;
            bz->avail_in = (unsigned)in->raw_len;
        }
        if (bz->avail_in == 0 && in->raw_eof) {
            *got = want - bz->avail_out;
            if (*got > 0) return NESVM_OK;
            return nv_error(err, NESVM_ERR_IO,
                            "%s: unexpected end of file (truncated or corrupt bzip2 data after %lld bytes)",
                            in->name, (long long)(in->raw_total - bz->avail_in));
        }
        int rc = BZ2_bzDecompress(bz);
        if (rc == BZ_STREAM_END) {
            if (bz->avail_in == 0 && !in->raw_eof) {
                if ((st = input_fill(in, err)) != NESVM_OK) return st;
                bz->next_in = (char *)in->raw;
                bz->avail_in = (unsigned)in->raw_len;
            }
            if (bz->avail_in == 0) {
                in->done = 1;
                break;
            }
            while (bz->avail_in < 3 && !in->raw_eof) {
                /* a partial magic at the end of the block: join the next block */
                unsigned char keep[3];
                size_t kl = bz->avail_in;
                memcpy(keep, bz->next_in, kl);
                if ((st = input_fill(in, err)) != NESVM_OK) return st;
                memmove(in->raw + kl, in->raw, in->raw_len);
                memcpy(in->raw, keep, kl);
                in->raw_len += kl;
                bz->next_in = (char *)in->raw;
                bz->avail_in = (unsigned)in->raw_len;
            }
            if (bz->avail_in < 3 || memcmp(bz->next_in, "BZh", 3) != 0)
                return nv_error(err, NESVM_ERR_PARSE,
                                "%s: data after the end of the bzip2 stream (byte %lld of the file is not the "
                                "start of another bzip2 stream)",
                                in->name, (long long)(in->raw_total - bz->avail_in));
            char *ni = bz->next_in;
            unsigned ai = bz->avail_in;
            size_t done_out = want - (size_t)bz->avail_out;
            BZ2_bzDecompressEnd(bz);
            memset(bz, 0, sizeof *bz);
            if (BZ2_bzDecompressInit(bz, 0, 0) != BZ_OK) {
                in->bzinit = 0;
                return nv_error(err, NESVM_ERR_NOMEM, "out of memory reading '%s'", in->name);
            }
            bz->next_in = ni;
            bz->avail_in = ai;
            bz->next_out = buf + done_out;
            bz->avail_out = (unsigned)(want - done_out);
            continue;
        }
        if (rc == BZ_MEM_ERROR) return nv_error(err, NESVM_ERR_NOMEM, "out of memory reading '%s'", in->name);
        if (rc != BZ_OK)
            return nv_error(err, NESVM_ERR_IO, "%s: invalid bzip2 data (truncated or corrupt after %lld bytes)",
                            in->name, (long long)(in->raw_total - bz->avail_in));
    }
    *got = want - bz->avail_out;
    return NESVM_OK;
}

/* xz: liblzma with LZMA_CONCATENATED decodes streams one after another (and
 * their padding); anything else is an error. */
static nesvm_status xz_read(nv_input *in, char *buf, size_t want, size_t *got, nesvm_error *err)
{
    lzma_stream *xz = &in->xz;
    nesvm_status st;
    xz->next_out = (uint8_t *)buf;
    xz->avail_out = want;
    while (xz->avail_out > 0) {
        if (xz->avail_in == 0 && !in->raw_eof) {
            if ((st = input_fill(in, err)) != NESVM_OK) return st;
            xz->next_in = in->raw;
            xz->avail_in = in->raw_len;
        }
        lzma_ret rc = lzma_code(xz, xz->avail_in == 0 && in->raw_eof ? LZMA_FINISH : LZMA_RUN);
        if (rc == LZMA_STREAM_END) {
            in->done = 1;
            break;
        }
        if (rc == LZMA_MEM_ERROR) return nv_error(err, NESVM_ERR_NOMEM, "out of memory reading '%s'", in->name);
        if (rc == LZMA_MEMLIMIT_ERROR)
            return nv_error(err, NESVM_ERR_IO,
                            "%s: the xz data need more than 512 MB of memory to decode (a larger dictionary "
                            "than xz -9 uses; recompress with xz -9 or less)",
                            in->name);
        if (rc == LZMA_BUF_ERROR && xz->avail_in == 0 && in->raw_eof) {
            *got = want - xz->avail_out;
            if (*got > 0) return NESVM_OK;
            return nv_error(err, NESVM_ERR_IO,
                            "%s: unexpected end of file (truncated or corrupt xz data after %lld bytes)",
                            in->name, (long long)in->raw_total);
        }
        if (rc != LZMA_OK)
            return nv_error(err, NESVM_ERR_IO, "%s: invalid xz data (%s after %lld bytes)", in->name,
                            rc == LZMA_DATA_ERROR ? "corrupt data" : rc == LZMA_FORMAT_ERROR ? "not xz data"
                            : rc == LZMA_OPTIONS_ERROR ? "unsupported options" : "truncated or corrupt",
                            (long long)(in->raw_total - (int64_t)xz->avail_in));
    }
    *got = want - xz->avail_out;
    return NESVM_OK;
}

/* Up to want bytes of (decompressed) data into buf; *got = 0 at the end. */
static nesvm_status input_read(nv_input *in, char *buf, size_t want, size_t *got, nesvm_error *err)
{
    *got = 0;
    if (in->done) return NESVM_OK;
    nesvm_status st;
    if (in->kind == NV_IN_BZIP2) return bz_read(in, buf, want, got, err);
    if (in->kind == NV_IN_XZ) return xz_read(in, buf, want, got, err);
    if (!in->gz) {
        if (in->raw_pos == in->raw_len) {
            /* plain data go straight into the caller's buffer (a byte range: up
             * to its end) */
            if (want > (1u << 30)) want = 1u << 30;
            if (in->limit >= 0 && (int64_t)want > in->limit) want = (size_t)in->limit;
            ssize_t n = 0;
            if (want > 0) {
                do n = read(in->fd, buf, want);
                while (n < 0 && errno == EINTR);
            }
            if (n < 0) return nv_error(err, NESVM_ERR_IO, "%s: read error: %s", in->name, strerror(errno));
            if (in->limit >= 0) in->limit -= n;
            in->done = n == 0;
            *got = (size_t)n;
            return NESVM_OK;
        }
        size_t n = in->raw_len - in->raw_pos;
        if (n > want) n = want;
        memcpy(buf, in->raw + in->raw_pos, n);
        in->raw_pos += n;
        *got = n;
        return NESVM_OK;
    }
    z_stream *zs = &in->zs;
    if (want > (1u << 30)) want = 1u << 30;
    zs->next_out = (Bytef *)buf;
    zs->avail_out = (uInt)want;
    while (zs->avail_out > 0) {
        if (zs->avail_in == 0 && !in->raw_eof) {
            if ((st = input_fill(in, err)) != NESVM_OK) return st;
            zs->next_in = in->raw;
            zs->avail_in = (uInt)in->raw_len;
        }
        if (zs->avail_in == 0 && in->raw_eof) {
            *got = want - zs->avail_out;
            if (*got > 0) return NESVM_OK;
            return gz_error(in, "unexpected end of file", err);
        }
        int rc = inflate(zs, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            /* another member, the end of the file, or trailing bytes */
            if (zs->avail_in == 0 && !in->raw_eof) {
                if ((st = input_fill(in, err)) != NESVM_OK) return st;
                zs->next_in = in->raw;
                zs->avail_in = (uInt)in->raw_len;
            }
            if (zs->avail_in == 0) {
                in->done = 1;
                break;
            }
            if (zs->avail_in == 1 && !in->raw_eof) {
                /* one byte left in the block: join it to the next block */
                unsigned char c = zs->next_in[0];
                if ((st = input_fill(in, err)) != NESVM_OK) return st;
                memmove(in->raw + 1, in->raw, in->raw_len);
                in->raw[0] = c;
                in->raw_len++;
                zs->next_in = in->raw;
                zs->avail_in = (uInt)in->raw_len;
            }
            if (zs->avail_in < 2 || zs->next_in[0] != 0x1f || zs->next_in[1] != 0x8b)
                return nv_error(err, NESVM_ERR_PARSE,
                                "%s: data after the end of the gzip stream (byte %lld of the file is "
                                "not the start of another gzip member)",
                                in->name, (long long)(in->raw_total - zs->avail_in));
            inflateReset(zs);
            continue;
        }
        if (rc == Z_MEM_ERROR) return nv_error(err, NESVM_ERR_NOMEM, "out of memory reading '%s'", in->name);
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            return gz_error(in, zs->msg ? zs->msg : "invalid gzip data", err);
    }
    *got = want - zs->avail_out;
    return NESVM_OK;
}

/* A byte range of a plain file (nv_dataset_read_range), or none. */
typedef struct read_range {
    int64_t begin, end, first_line;
    int64_t *lines;
} read_range;

nesvm_status nv_line_start(int fd, const char *name, int64_t at, int64_t size, int64_t *out, nesvm_error *err)
{
    if (at <= 0) {
        *out = 0;
        return NESVM_OK;
    }
    if (at >= size) {
        *out = size;
        return NESVM_OK;
    }
    char buf[65536];
    int64_t pos = at - 1;
    while (pos < size) {
        ssize_t got;
        do got = pread(fd, buf, sizeof buf, (off_t)pos);
        while (got < 0 && errno == EINTR);
        if (got < 0) return nv_error(err, NESVM_ERR_IO, "%s: read error: %s", name, strerror(errno));
        if (got == 0) break;
        const char *nl = memchr(buf, '\n', (size_t)got);
        if (nl) {
            *out = pos + (nl - buf) + 1;
            return NESVM_OK;
        }
        pos += got;
    }
    *out = size;
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
    int use_stdin = strcmp(path, "-") == 0;
    const char *name = use_stdin ? "<stdin>" : path;

    if (rg && use_stdin)
        return nv_error(err, NESVM_ERR_ARG, "a byte range of standard input: give a file");
    int fd = use_stdin ? dup(0) : open(path, O_RDONLY);
    if (fd < 0)
        return nv_error(err, NESVM_ERR_IO, "cannot open '%s': %s", name, strerror(errno));
    int64_t in_limit = -1, first_line = 1;
    if (rg) {
        /* the lines that start in [begin, end): from the first line start at or
         * after begin to the first at or after end; a compressed file has no
         * such byte offsets */
        struct stat sb;
        unsigned char magic[6] = {0};
        ssize_t mg = pread(fd, magic, sizeof magic, 0);
        if (fstat(fd, &sb) != 0 || mg < 0) {
            nesvm_status e = nv_error(err, NESVM_ERR_IO, "%s: read error: %s", name, strerror(errno));
            close(fd);
            return e;
        }
        if ((mg >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) || (mg >= 3 && memcmp(magic, "BZh", 3) == 0) ||
            (mg >= 6 && memcmp(magic, "\xFD" "7zXZ", 5) == 0 && magic[5] == 0)) {
            close(fd);
            return nv_error(err, NESVM_ERR_UNSUPPORTED,
                            "%s: a compressed file has no byte ranges of its lines: decompress it, or give "
                            "each process its own file", name);
        }
        int64_t size = (int64_t)sb.st_size, a = 0, b = 0;
        nesvm_status e = nv_line_start(fd, name, rg->begin, size, &a, err);
        if (e == NESVM_OK) e = nv_line_start(fd, name, rg->end, size, &b, err);
        if (e == NESVM_OK && lseek(fd, (off_t)a, SEEK_SET) < 0)
            e = nv_error(err, NESVM_ERR_IO, "%s: cannot seek: %s", name, strerror(errno));
        if (e != NESVM_OK) {
            close(fd);
            return e;
        }
        in_limit = b > a ? b - a : 0;
        first_line = rg->first_line;
        if (rg->lines) *rg->lines = 0;
    }
    nv_input in;
    nesvm_status ist = input_open(&in, fd, name, in_limit, err);
    if (ist != NESVM_OK) {
        input_close(&in);
        return ist;
    }

    nesvm_status st = NESVM_OK;
    size_t cap = CHUNK;
    char *buf = nv_malloc(cap);
    reader *r = nv_calloc(1, sizeof *r);
    /* values go straight to float when float storage is asked for: no
     * double copy ever exists, so --float really halves the peak memory */
    if (r) r->main.fl = opt.precision == NESVM_FLOAT;
    if (!buf || !r || !grow_rows(&r->main) || !grow_nnz(&r->main, 4096)) {
        st = nv_error(err, NESVM_ERR_NOMEM, "out of memory reading '%s'", name);
        goto done;
    }
    builder *b = &r->main;
    b->indptr[0] = 0;
    r->ctx = (parse_ctx){name, first_line - 1, NULL, err};
    r->threads = nv_threads(opt.threads);
    if (r->threads > MAX_READ_THREADS) r->threads = MAX_READ_THREADS;
    r->max_line = opt.max_line_bytes;
    parse_ctx *ctxp = &r->ctx;
    size_t have = 0; /* bytes in buf not yet consumed */
    int eof = 0;
    int64_t bytes_total = 0;
    while (!eof || have > 0) {
        if (!eof) {
            if (have == cap) {
                /* a partial line fills the buffer (have <= max_line_bytes, or the
                 * check below would have stopped): grow to at most one byte beyond
                 * the limit, enough to see whether the line ends within it */
                size_t ncap = cap * 2;
                if (opt.max_line_bytes < SIZE_MAX / 2 && ncap > opt.max_line_bytes + 1)
                    ncap = opt.max_line_bytes + 1;
                char *nb = nv_realloc_array(buf, ncap, 1);
                if (!nb) {
                    st = nv_error(err, NESVM_ERR_NOMEM, "out of memory reading '%s'", name);
                    goto done;
                }
                buf = nb;
                cap = ncap;
            }
            size_t want = cap - have;
            if (want > (1u << 30)) want = 1u << 30;
            size_t got = 0;
            st = input_read(&in, buf + have, want, &got, err);
            if (st != NESVM_OK) goto done;
            if (got == 0) eof = 1;
            /* a UTF-8 byte-order mark opens some files: it is not data */
            if (first_line == 1 && bytes_total == 0 && have == 0 && nv_utf8_bom(buf, got)) {
                memmove(buf, buf + 3, got - 3);
                got -= 3;
                bytes_total += 3;
            }
            bytes_total += (int64_t)got;
            have += got;
        }
        /* parse the complete lines: up to the last newline (all at the end) */
        char *limit = buf + have;
        if (!eof) {
            while (limit > buf && limit[-1] != '\n') limit--;
        }
        char *p = limit;
        if (limit > buf) {
            st = parse_block(r, buf, limit);
            if (st != NESVM_OK) goto done;
        }
        size_t used = (size_t)(p - buf);
        if (used > 0 && used < have) memmove(buf, p, have - used);
        have -= used;
        if (eof && have == 0) break;
        if (!eof && have > opt.max_line_bytes) {
            st = nv_error(err, NESVM_ERR_PARSE,
                          "%s:%lld: line is longer than %zu bytes (absurdly long line)", name,
                          (long long)ctxp->line + 1, opt.max_line_bytes);
            goto done;
        }
    }
    if (rg && rg->lines) *rg->lines = ctxp->line - (first_line - 1);
    if (b->n == 0) {
        st = rg ? nv_error(err, NESVM_ERR_DATA, "%s: no data in bytes [%lld, %lld) (no line starts there, or only "
                                                "comments)", name, (long long)rg->begin, (long long)rg->end)
                : nv_error(err, NESVM_ERR_DATA, "%s: no data (the file is empty or has only comments)", name);
        goto done;
    }
    if (opt.min_features > b->d) b->d = opt.min_features;
    {
        nesvm_dataset *ds = NULL;
        int64_t n = b->n;
        int32_t d = b->d;
        st = nv_dataset_from_csr(n, d, b->indptr, b->indices, b->values,
                                 b->fl ? NESVM_FLOAT : NESVM_DOUBLE, b->labels, &ds, err);
        memset(b, 0, sizeof *b);
        if (st != NESVM_OK) goto done;
        st = nv_dataset_convert(ds, opt.storage, opt.precision, opt.dense_threshold, err);
        if (st != NESVM_OK) {
            nesvm_dataset_destroy(ds);
            goto done;
        }
        *out = ds;
    }
done:
    nv_free(buf);
    if (r) {
        builder_free(&r->main);
        for (int k = 0; k < MAX_READ_THREADS; k++) builder_free(&r->part[k]);
        nv_free(r);
    }
    input_close(&in);
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
