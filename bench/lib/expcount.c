/* expcount.c - an LD_PRELOAD library that counts calls to exp().
 *
 * LIBSVM's RBF kernel calls exp() once per kernel value (and nothing else in
 * svm-train calls it without -b 1), so running svm-train with
 *     LD_PRELOAD=expcount.so EXPCOUNT_FILE=out.txt
 * appends the number of kernel evaluations it made to out.txt at exit, one
 * line per process that loaded the library (a launcher such as the harness's
 * spawn adds its own line, 0), so the count is the sum of the lines
 * (lib/kernelcount.py reads it).  The call is forwarded to the C library's
 * exp; the count is a plain 64-bit increment (svm-train is single-threaded).
 * Used by the harness (LIBSVM's RBF rows) and bench/gs_svm.py.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static double (*real_exp)(double);
static unsigned long long calls;

double exp(double x)
{
    if (!real_exp) {
        real_exp = (double (*)(double))dlvsym(RTLD_NEXT, "exp", "GLIBC_2.29");
        if (!real_exp) real_exp = (double (*)(double))dlsym(RTLD_NEXT, "exp");
    }
    calls++;
    return real_exp(x);
}

__attribute__((destructor)) static void expcount_report(void)
{
    const char *path = getenv("EXPCOUNT_FILE");
    if (!path) return;
    FILE *f = fopen(path, "a");
    if (!f) return;
    fprintf(f, "%llu\n", calls);
    fclose(f);
}
