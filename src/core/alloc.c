/* alloc.c - the one checked allocator of the library, with a failure hook. */
#include "internal.h"

#include <stdlib.h>

/* Thread-local so that failure injection in one thread cannot affect a
 * training running in another: this is test state, not shared state. */
static _Thread_local long fail_countdown = -1;

void nv_alloc_fail_after(long n)
{
    fail_countdown = n;
}

static int should_fail(void)
{
    if (fail_countdown < 0) return 0;
    if (fail_countdown == 0) {
        fail_countdown = -1;
        return 1;
    }
    fail_countdown--;
    return 0;
}

void *nv_malloc(size_t size)
{
    if (should_fail()) return NULL;
    return malloc(size ? size : 1);
}

void *nv_calloc(size_t n, size_t size)
{
    if (should_fail()) return NULL;
    if (n == 0 || size == 0) return calloc(1, 1);
    return calloc(n, size);
}

void *nv_malloc_array(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    return nv_malloc(n * size);
}

void *nv_realloc_array(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    if (should_fail()) return NULL;
    size_t bytes = n * size;
    return realloc(p, bytes ? bytes : 1);
}

void nv_free(void *p) { free(p); }
