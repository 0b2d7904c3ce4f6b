/* split.c - `nesvm split -n N DATA`: DATA cut into N files of whole lines,
 * DATA.0 ... DATA.N-1, one per process of a distributed training: file k holds
 * the lines that start in bytes [k size / N, (k + 1) size / N), the rows the
 * library's byte-range reader gives range k (nv_line_start). */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fputs("Usage: nesvm split -n N [--out PREFIX] DATA\n"
          "Cut DATA (a LIBSVM file, not compressed) into N files of whole lines,\n"
          "PREFIX.0 ... PREFIX.N-1, of about equal size and in order (concatenated, they\n"
          "are DATA byte for byte): file k holds the lines that start in bytes\n"
          "[k size / N, (k + 1) size / N). Each file is written atomically; if one\n"
          "would be empty (fewer lines than N) nothing is written.\n\n"
          "  -n N                 the number of files (2 to 65536)\n"
          "  --out PREFIX         the files' names before '.k' (default: DATA's file name,\n"
          "                       in the current folder)\n"
          "  -h, --help           this help\n",
          f);
}

/* Bytes [a, b) of fd into path, atomically. */
static int copy_part(const char *cmd, int fd, const char *name, int64_t a, int64_t b, const char *path)
{
    nesvm_error err = {0};
    nv_atomic_file af;
    if (nv_atomic_open(&af, path, &err) != NESVM_OK) return cli_error(cmd, "%s", err.message);
    static char buf[1 << 16];
    for (int64_t at = a; at < b;) {
        size_t want = (size_t)(b - at < (int64_t)sizeof buf ? b - at : (int64_t)sizeof buf);
        ssize_t got;
        do got = pread(fd, buf, want, (off_t)at);
        while (got < 0 && errno == EINTR);
        if (got <= 0) {
            nv_atomic_abort(&af);
            return cli_error(cmd, "%s: read error: %s", name, got < 0 ? strerror(errno) : "the file shrank");
        }
        if (fwrite(buf, 1, (size_t)got, af.fp) != (size_t)got) {
            nv_atomic_abort(&af);
            return cli_error(cmd, "cannot write '%s': %s", path, strerror(errno));
        }
        at += got;
    }
    if (nv_atomic_commit(&af, &err) != NESVM_OK) return cli_error(cmd, "%s", err.message);
    return CLI_OK;
}

int cmd_split(int argc, char **argv)
{
    const char *cmd = "split";
    cli_args a = {argc, 1, argv, cmd, NULL, {0}};
    const char *data = NULL, *prefix = NULL, *p, *v;
    long long parts = 0;
    int r;
    while ((r = cli_next(&a, &p)) >= 0) {
        if (r == 0) {
            if (data) return cli_usage(cmd, "too many arguments ('%s')", p);
            data = p;
        } else if (strcmp(a.name, "h") == 0 || strcmp(a.name, "help") == 0) {
            usage(stdout);
            return CLI_OK;
        } else if (strcmp(a.name, "n") == 0) {
            if (!(v = cli_value(&a))) return CLI_USAGE;
            if (!cli_parse_int(v, &parts) || parts < 2 || parts > 65536)
                return cli_usage(cmd, "bad value '%s' for -n (expected an integer from 2 to 65536)", v);
        } else if (strcmp(a.name, "out") == 0) {
            if (!(prefix = cli_value(&a))) return CLI_USAGE;
        } else {
            return cli_usage(cmd, "unknown option '%s'", argv[a.i - 1]);
        }
    }
    if (!data) return cli_usage(cmd, "missing DATA file");
    if (!parts) return cli_usage(cmd, "-n N is required");
    if (strcmp(data, "-") == 0) return cli_usage(cmd, "DATA must be a file (its size is needed), not standard input");
    if (!prefix) {
        const char *base = strrchr(data, '/');
        prefix = base ? base + 1 : data;
    }
    int fd = open(data, O_RDONLY);
    if (fd < 0) return cli_error(cmd, "cannot open '%s': %s", data, strerror(errno));
    struct stat sb;
    unsigned char magic[6] = {0};
    ssize_t mg = pread(fd, magic, sizeof magic, 0);
    int rc = CLI_OK;
    int64_t *cut = calloc((size_t)parts + 1, sizeof(int64_t));
    char *path = malloc(strlen(prefix) + 16);
    nesvm_error err = {0};
    if (!cut || !path) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    if (fstat(fd, &sb) != 0 || mg < 0 || !S_ISREG(sb.st_mode)) {
        rc = cli_error(cmd, "%s: not a regular file that can be read", data);
        goto done;
    }
    if ((mg >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) || (mg >= 3 && memcmp(magic, "BZh", 3) == 0) ||
        (mg >= 6 && memcmp(magic, "\xFD" "7zXZ", 5) == 0 && magic[5] == 0)) {
        rc = cli_error(cmd, "%s is compressed: decompress it first (its lines have no byte offsets)", data);
        goto done;
    }
    const int64_t size = (int64_t)sb.st_size;
    for (long long k = 0; k <= parts; k++) {
        if (nv_line_start(fd, data, nv_range_cut(size, k, parts), size, &cut[k], &err) != NESVM_OK) {
            rc = cli_error(cmd, "%s", err.message);
            goto done;
        }
        if (k > 0 && cut[k] == cut[k - 1]) {
            rc = cli_error(cmd, "%s: part %lld of %lld would be empty (a line longer than %lld bytes, or fewer "
                                "lines than parts): split it into fewer parts",
                           data, k - 1, parts, (long long)(size / parts));
            goto done;
        }
    }
    for (long long k = 0; k < parts && rc == CLI_OK; k++) {
        sprintf(path, "%s.%lld", prefix, k);
        rc = copy_part(cmd, fd, data, cut[k], cut[k + 1], path);
    }
done:
    close(fd);
    free(cut);
    free(path);
    return rc;
}
