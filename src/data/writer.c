/* writer.c - write a dataset as LIBSVM text. */
#include "dataset_internal.h"

#include <errno.h>
#include <string.h>

nesvm_status nesvm_dataset_write_stream(const nesvm_dataset *ds, FILE *fp, nesvm_error *err)
{
    if (!ds || !fp) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_dataset_write");
    char num[32];
    for (int64_t i = 0; i < ds->n; i++) {
        nv_format_double(ds->labels[i], num);
        fputs(num, fp);
        if (ds->storage == NESVM_STORAGE_DENSE) {
            for (int32_t j = 0; j < ds->d; j++) {
                double v = nv_val(ds, i * (int64_t)ds->d + j);
                if (v == 0) continue;
                nv_format_double(v, num);
                fprintf(fp, " %d:%s", j + 1, num);
            }
        } else {
            for (int64_t k = ds->indptr[i]; k < ds->indptr[i + 1]; k++) {
                double v = nv_val(ds, k);
                if (v == 0) continue;
                nv_format_double(v, num);
                fprintf(fp, " %lld:%s", (long long)nv_idx(ds, k) + 1, num);
            }
        }
        if (fputc('\n', fp) == EOF || ferror(fp)) /* errno is the first failure's */
            return nv_error(err, NESVM_ERR_IO, "write error: %s", strerror(errno));
    }
    /* the buffered tail too: the caller learns of every failure here */
    errno = 0;
    if (fflush(fp) != 0 || ferror(fp))
        return nv_error(err, NESVM_ERR_IO, "write error: %s", errno ? strerror(errno) : "write error");
    return NESVM_OK;
}

nesvm_status nesvm_dataset_write(const nesvm_dataset *ds, const char *path, nesvm_error *err)
{
    if (!ds || !path) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_dataset_write");
    nv_atomic_file af;
    nesvm_status st = nv_atomic_open(&af, path, err);
    if (st != NESVM_OK) return st;
    st = nesvm_dataset_write_stream(ds, af.fp, err);
    if (st != NESVM_OK) {
        nv_error_prefix(err, "cannot write '%s'", strcmp(path, "-") == 0 ? "standard output" : path);
        nv_atomic_abort(&af);
        return st;
    }
    return nv_atomic_commit(&af, err);
}
