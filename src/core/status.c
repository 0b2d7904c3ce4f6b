/* status.c - the status table, error objects, version and the debug
 * builds' assertion failures. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define NV_STR2(x) #x
#define NV_STR(x) NV_STR2(x)

const char *nesvm_version(void)
{
    return NV_STR(NESVM_VERSION_MAJOR) "." NV_STR(NESVM_VERSION_MINOR) "." NV_STR(
        NESVM_VERSION_PATCH);
}

const char *nesvm_status_str(nesvm_status s)
{
    switch (s) {
    case NESVM_OK: return "success";
    case NESVM_ERR_NOMEM: return "out of memory";
    case NESVM_ERR_IO: return "input/output error";
    case NESVM_ERR_PARSE: return "malformed data";
    case NESVM_ERR_ARG: return "invalid argument";
    case NESVM_ERR_DATA: return "unusable data";
    case NESVM_ERR_MODEL: return "malformed model";
    case NESVM_ERR_NUMERIC: return "numerical failure";
    case NESVM_ERR_CANCELLED: return "cancelled";
    case NESVM_ERR_UNSUPPORTED: return "unsupported";
    }
    return "unknown status";
}

const char *nesvm_exit_str(nesvm_exit e)
{
    switch (e) {
    case NESVM_EXIT_CONVERGED: return "converged";
    case NESVM_EXIT_MAX_ITER: return "max-iter";
    case NESVM_EXIT_TIME_LIMIT: return "time-limit";
    case NESVM_EXIT_CANCELLED: return "cancelled";
    case NESVM_EXIT_NUMERIC: return "numeric";
    case NESVM_EXIT_NO_MEMORY: return "no-memory";
    case NESVM_EXIT_STALLED: return "stalled";
    case NESVM_EXIT_EPS_ABS: return "eps-abs";
    }
    return "unknown";
}

void nesvm_error_clear(nesvm_error *err)
{
    if (!err) return;
    err->status = NESVM_OK;
    err->message[0] = '\0';
}

nesvm_status nv_error(nesvm_error *err, nesvm_status s, const char *fmt, ...)
{
    NV_ASSERT(s != NESVM_OK); /* an error is never recorded as a success */
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->status = s;
    }
    return s;
}

nesvm_status nv_error_prefix(nesvm_error *err, const char *fmt, ...)
{
    if (!err) return NESVM_OK;
    NV_ASSERT(err->status != NESVM_OK); /* it prefixes an error recorded before */
    char prefix[NESVM_ERROR_MESSAGE_SIZE];
    char old[NESVM_ERROR_MESSAGE_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->message, sizeof old);
    old[sizeof old - 1] = '\0';
    size_t pl = strlen(prefix);
    if (pl > sizeof err->message - 3) pl = sizeof err->message - 3;
    memcpy(err->message, prefix, pl);
    memcpy(err->message + pl, ": ", 2);
    size_t room = sizeof err->message - pl - 2;
    size_t ol = strlen(old);
    if (ol >= room) ol = room - 1;
    memcpy(err->message + pl + 2, old, ol);
    NV_ASSERT(pl + 2 + ol < sizeof err->message);
    err->message[pl + 2 + ol] = '\0';
    return err->status;
}

/* A failed NV_ASSERT: a bug in nesvm, in a debug build (a release build
 * has no such function, so its library has no call of abort).  The one
 * place where the library prints and aborts: see internal.h. */
#ifndef NDEBUG
void nv_assert_fail(const char *cond, const char *file, int line, const char *func)
{
    fprintf(stderr, "nesvm: internal error (a bug in nesvm, please report it): %s:%d: %s: assertion '%s' failed\n",
            file, line, func, cond);
    fflush(stderr);
    abort();
}
#endif

int nv_asserts_on(void) { return NV_ASSERTS_ON; }
