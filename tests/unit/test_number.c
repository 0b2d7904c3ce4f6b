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
    /* 17 to 19 significant digits with exponents near 0 (the 128-bit path,
     * number.c's wide()): ties, ties to even, values just off them, and a
     * deterministic random sample of %.17g-like and longer forms */
    const char *wide_cases[] = {"9007199254740993", "9007199254740995", "9007199254740993.0000000001",
                                "18014398509481986", "18014398509481990", "9007199254740993e-3",
                                "9007199254740993e3", "1234567890123456789e-19", "9999999999999999999e19",
                                "0.10000000000000001", "0.99999999999999999", "12345678901234567.5",
                                "1000000000000000000.1", "4.5035996273704965e15", "2.2250738585072014e-1"};
    for (size_t i = 0; i < sizeof wide_cases / sizeof wide_cases[0]; i++) {
        double want = strtod(wide_cases[i], NULL), got = parse(wide_cases[i]);
        CHECK_MSG(memcmp(&want, &got, sizeof want) == 0, "%s: %.17g vs %.17g", wide_cases[i], got, want);
    }
    uint64_t rs = 88172645463325252ULL;
    int wrong = 0;
    for (int i = 0; i < 200000; i++) {
        char digs[24], t[64];
        rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
        const int nd = 17 + (int)(rs % 3), e = (int)(rs >> 8) % 45 - 22, form = (int)(rs >> 20) % 3;
        for (int k = 0; k < nd; k++) {
            rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
            digs[k] = (char)((k ? '0' : '1') + rs % (k ? 10 : 9));
        }
        digs[nd] = '\0';
        if (form == 0) snprintf(t, sizeof t, "%c.%se%d", digs[0], digs + 1, e);
        else if (form == 1) snprintf(t, sizeof t, "%se%d", digs, e);
        else snprintf(t, sizeof t, "%.*s.%s", 1 + i % (nd - 1), digs, digs + 1 + i % (nd - 1));
        double want = strtod(t, NULL), got = parse(t);
        if (memcmp(&want, &got, sizeof want) != 0 && wrong++ < 3) CHECK_MSG(0, "%s: %.17g vs %.17g", t, got, want);
    }
    CHECK_MSG(wrong == 0, "%d of 200000 long significands read wrong", wrong);
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

    /* numbers longer than any buffer read exactly (issue 16 #3: 1. + 600 zeros
     * + e5 was read as 1); strtod on the whole NUL-terminated text is the truth */
    {
        const char *shapes[][3] = {
            /* prefix, repeated digit run, suffix */
            {"1.", "0", "e5"},       {"0.", "0", "1e700"},      {"1", "0", "e-600"},
            {"-0.", "0", "12345e650"}, {"9.", "9", "e-5"},      {"1.", "0", "1"},
            {"2.4703282292062327", "0", "1e-324"},  /* just above half the least subnormal */
            {"2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125", "0", "1e-324"},
            {"0x1.", "0", "1p3"},    {"0x", "0", "1p-1080"},    {"-0x1", "0", ".8p-4000"},
        };
        int reps[] = {1, 100, 511, 512, 600, 5000};
        for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++)
            for (size_t r = 0; r < sizeof reps / sizeof reps[0]; r++) {
                size_t lp = strlen(shapes[c][0]), ls = strlen(shapes[c][2]);
                size_t len = lp + (size_t)reps[r] + ls;
                char *t = malloc(len + 1);
                memcpy(t, shapes[c][0], lp);
                memset(t + lp, shapes[c][1][0], (size_t)reps[r]);
                memcpy(t + lp + reps[r], shapes[c][2], ls + 1);
                char *stop;
                double want = strtod(t, &stop);
                double got = -12345;
                const char *q = nv_parse_double(t, t + len, &got);
                CHECK_MSG(q == t + len && stop == t + len, "%.20s... (%zu chars) not read whole", t, len);
                CHECK_MSG(memcmp(&want, &got, sizeof want) == 0, "%.20s... (%zu chars): %.17g vs %.17g",
                          t, len, got, want);
                free(t);
            }
        /* the 600-zero case of the issue: exactly 1e5 */
        char t[700] = "1.";
        memset(t + 2, '0', 600);
        strcpy(t + 602, "e5");
        CHECK(parse(t) == 1e5);
        /* a number inside a longer buffer stops where strtod stops */
        const char *s2 = "0x1p3 4";
        CHECK(nv_parse_double(s2, s2 + 7, &v) == s2 + 5 && v == 8);
        const char *s3 = "0xg";
        CHECK(nv_parse_double(s3, s3 + 3, &v) == s3 + 1 && v == 0);
        const char *s4 = "1e+:";
        CHECK(nv_parse_double(s4, s4 + 4, &v) == s4 + 1 && v == 1);
    }

    /* one integer syntax for the library and the CLI (issue 16 #8) */
    {
        int64_t iv = 0;
        CHECK(nv_parse_int64("0", &iv) && iv == 0);
        CHECK(nv_parse_int64("+42", &iv) && iv == 42);
        CHECK(nv_parse_int64("-7", &iv) && iv == -7);
        CHECK(nv_parse_int64("9223372036854775807", &iv) && iv == INT64_MAX);
        CHECK(nv_parse_int64("-9223372036854775808", &iv) && iv == INT64_MIN);
        const char *badi[] = {"", " 1", "1 ", "1e3", "0x3e8", "1.0", "+", "9223372036854775808",
                              "-9223372036854775809", "12a", "--1"};
        for (size_t i = 0; i < sizeof badi / sizeof badi[0]; i++)
            CHECK_MSG(!nv_parse_int64(badi[i], &iv), "'%s' accepted as an integer", badi[i]);
        double dv;
        CHECK(nv_parse_finite("1e3", &dv) && dv == 1000);
        CHECK(!nv_parse_finite(" 1", &dv) && !nv_parse_finite("1 ", &dv) && !nv_parse_finite("inf", &dv) &&
              !nv_parse_finite("nan", &dv) && !nv_parse_finite("1e400", &dv));
    }

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
