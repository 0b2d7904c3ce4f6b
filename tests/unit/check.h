/* check.h - minimal assertions for the unit tests: count, report, go on. */
#ifndef NESVM_CHECK_H
#define NESVM_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failed = 0, check_passed = 0;

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (cond) check_passed++;                                                              \
        else {                                                                                 \
            check_failed++;                                                                    \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);           \
        }                                                                                      \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                   \
    do {                                                                                       \
        if (cond) check_passed++;                                                              \
        else {                                                                                 \
            check_failed++;                                                                    \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);           \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fputc('\n', stderr);                                                               \
        }                                                                                      \
    } while (0)

/* |a - b| <= tol * max(1, |b|) */
#define CHECK_REL(a, b, tol)                                                                   \
    do {                                                                                       \
        double ca_ = (a), cb_ = (b);                                                           \
        double sc_ = fabs(cb_) > 1 ? fabs(cb_) : 1;                                            \
        CHECK_MSG(fabs(ca_ - cb_) <= (tol) * sc_, "%.17g vs %.17g (tol %g)", ca_, cb_,         \
                  (double)(tol));                                                              \
    } while (0)

#define CHECK_CONTAINS(hay, needle)                                                            \
    CHECK_MSG(strstr((hay), (needle)) != NULL, "'%s' does not contain '%s'", (hay), (needle))

#define CHECK_DONE()                                                                           \
    do {                                                                                       \
        printf("%d passed, %d failed\n", check_passed, check_failed);                          \
        return check_failed ? 1 : 0;                                                           \
    } while (0)

#endif
