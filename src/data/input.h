/*
 * input.h - the bytes of a data file (input.c): plain, or decompressed from
 * gzip, bzip2 or xz, recognized by the first bytes.  Used by the reader
 * (reader.c) only.
 */
#ifndef NESVM_DATA_INPUT_H
#define NESVM_DATA_INPUT_H

#include "../core/internal.h"

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>

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

/* Open the input of the open file fd (named `name` in messages; the input
 * owns fd from now on, and closes it in nv_input_close): reads the first
 * bytes and chooses plain, gzip, bzip2 or xz by them.  limit >= 0: read that
 * many plain bytes from fd's offset, whatever they look like (a byte range
 * of a plain file); -1: to the end.  Call nv_input_close on success and on
 * failure. */
nesvm_status nv_input_open(nv_input *in, int fd, const char *name, int64_t limit, nesvm_error *err);
/* Up to want bytes of (decompressed) data into buf; *got = 0 at the end.
 * Truncated, corrupt or trailing data are errors naming the file and the
 * compressed byte where the damage was found. */
nesvm_status nv_input_read(nv_input *in, char *buf, size_t want, size_t *got, nesvm_error *err);
/* Release the decoder, the buffer and the file descriptor. */
void nv_input_close(nv_input *in);

#endif
