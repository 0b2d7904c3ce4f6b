/* test_number.c - locale-independent parsing/formatting against strtod. */
#define _GNU_SOURCE
#include "../../src/core/internal.h"
#include "check.h"

#include <locale.h>
#include <stdint.h>
#include <stdlib.h>

static double parse(const char *s)
{
    double v = -12345;
    const char *end = s + strlen(s);
    const char *q = nv_parse_double(s, end, &v);
    return q == end ? v : NAN;
}

int main(void)
{
    /* exact agreement with the C library's correctly rounded strtod */
    const char *cases[] = {"0", "1", "-1", "+1", "0.5", "1e10", "1E-5", "3.14159",
                           "0.1", "0.2", "0.30000000000000004", "123456789012345678901234",
                           "1e-320", "4.9406564584124654e-324", "1.7976931348623157e308",
                           "2.2250738585072014e-308", "0.000000000000000000000000000001234",
                           "9007199254740993", "-0.0", ".5", "5.", "1e22", "1e23", "8.589973e9",
                           "0x1.8p+1", "12345678901234567890e-10", "00000123.4500000"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double want = strtod(cases[i], NULL);
        double got = parse(cases[i]);
        CHECK_MSG(memcmp(&want, &got, sizeof want) == 0, "%s: %.17g vs %.17g", cases[i], got, want);
    }
    CHECK(isinf(parse("inf")) && parse("inf") > 0);
    CHECK(isinf(parse("-Infinity")) && parse("-Infinity") < 0);
    CHECK(isnan(parse("nan")) && isnan(parse("NaN")));
    /* rejects */
    double v;
    const char *bad[] = {"", "-", "e5", ".", "abc", "+-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(nv_parse_double(bad[i], bad[i] + strlen(bad[i]), &v) == NULL, "'%s' accepted", bad[i]);
    /* partial parse stops at the first non-number character */
    const char *s = "1.5:2";
    CHECK(nv_parse_double(s, s + 5, &v) == s + 3 && v == 1.5);

    /* random doubles: format then parse is the identity; text is short */
    uint64_t st = 42;
    char buf[32];
    for (int i = 0; i < 200000; i++) {
        uint64_t bits = nv_rng_next(&st);
        double x;
        memcpy(&x, &bits, sizeof x);
        if (!isfinite(x)) continue;
        if (i % 2) x = (nv_rng_uniform(&st) - 0.5) * pow(10, (double)(i % 40) - 20);
        int n = nv_format_double(x, buf);
        double back = parse(buf);
        if (memcmp(&x, &back, sizeof x) != 0 || n > 24) {
            CHECK_MSG(0, "round trip of %a gave '%s'", x, buf);
            break;
        }
    }
    check_passed++;
    nv_format_double(0.1, buf);
    CHECK(strcmp(buf, "0.1") == 0);
    nv_format_double(-2.5e-300, buf);
    CHECK(strcmp(buf, "-2.5e-300") == 0);

    /* independent of the process locale: a comma-decimal locale if one exists */
    const char *locs[] = {"de_DE.UTF-8", "fr_FR.UTF-8", "de_DE", "C.UTF-8"};
    for (size_t i = 0; i < sizeof locs / sizeof locs[0]; i++) {
        if (!setlocale(LC_ALL, locs[i])) continue;
        CHECK(parse("1.25") == 1.25);
        CHECK(parse("12345678901234567.5") == strtod_l("12345678901234567.5", NULL, newlocale(LC_ALL_MASK, "C", (locale_t)0)));
        nv_format_double(1.25, buf);
        CHECK_MSG(strcmp(buf, "1.25") == 0, "locale %s formatted '%s'", locs[i], buf);
        setlocale(LC_ALL, "C");
    }
    CHECK_DONE();
}
