/*
 * input.c - the bytes of a data file: plain, or inflated from gzip members
 * (zlib), bzip2 streams (libbz2) or xz streams (liblzma), each recognized by
 * its first bytes; and the line starts that cut a plain file into byte
 * ranges (nv_line_start).
 *
 * A gzip file may hold several members one after another (as gzip -c a b
 * makes); anything else after a member is an error, as are truncated and
 * corrupt members.  Messages name the file, not a descriptor.
 */
#include "input.h"

#include "dataset_internal.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

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

nesvm_status nv_input_open(nv_input *in, int fd, const char *name, int64_t limit, nesvm_error *err)
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

void nv_input_close(nv_input *in)
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
nesvm_status nv_input_read(nv_input *in, char *buf, size_t want, size_t *got, nesvm_error *err)
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
