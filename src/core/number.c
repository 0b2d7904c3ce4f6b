/*
 * number.c - locale-independent number parsing and formatting.
 *
 * Parsing: a hand-written decimal parser.  When the significand has at most 19
 * digits, fits in 2^53 and the decimal exponent is within [-22, 22], the
 * result m * 10^e is one correctly rounded IEEE operation, hence exact (the
 * Clinger fast path); this covers nearly all numbers in data files.  Other
 * numbers fall back to strtod_l with the "C" locale, which rounds correctly.
 * Formatting: the shortest of %.15g, %.16g, %.17g that reads back to the same
 * double, with any locale decimal separator replaced by '.'.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const double pow10_tab[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* The "C" locale object is created once and never modified afterwards. */
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale = (locale_t)0;
static void make_c_locale(void) { c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0); }

static int lower(int c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

static int match_word(const char *s, const char *end, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(end - s) < n) return 0;
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)s[i]) != word[i]) return 0;
    return 1;
}

static const char *slow_parse(const char *s, const char *end, double *out)
{
    char buf[512];
    size_t n = (size_t)(end - s);
    if (n >= sizeof buf) n = sizeof buf - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    pthread_once(&c_locale_once, make_c_locale);
    char *stop;
    double v = c_locale ? strtod_l(buf, &stop, c_locale) : strtod(buf, &stop);
    if (stop == buf) return NULL;
    *out = v;
    return s + (stop - buf);
}

const char *nv_parse_double(const char *s, const char *end, double *out)
{
    const char *p = s;
    int neg = 0;
    if (p < end && (*p == '+' || *p == '-')) {
        neg = (*p == '-');
        p++;
    }
    if (p < end && (*p == 'i' || *p == 'I' || *p == 'n' || *p == 'N')) {
        if (match_word(p, end, "infinity")) {
            *out = neg ? -HUGE_VAL : HUGE_VAL;
            return p + 8;
        }
        if (match_word(p, end, "inf")) {
            *out = neg ? -HUGE_VAL : HUGE_VAL;
            return p + 3;
        }
        if (match_word(p, end, "nan")) {
            *out = NAN;
            return p + 3;
        }
        return NULL;
    }
    if (p + 1 < end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) return slow_parse(s, end, out);

    uint64_t m = 0;
    int digits = 0;   /* significant digits accumulated into m */
    int dropped = 0;  /* significant digits beyond 19 (integer part) */
    int exp10 = 0;
    int any = 0;
    while (p < end && (unsigned)(*p - '0') < 10) {
        any = 1;
        if (digits < 19) {
            m = m * 10 + (uint64_t)(*p - '0');
            if (m) digits++;
        } else {
            dropped++;
        }
        p++;
    }
    exp10 += dropped;
    int inexact = dropped > 0;
    if (p < end && *p == '.') {
        p++;
        while (p < end && (unsigned)(*p - '0') < 10) {
            any = 1;
            if (digits < 19) {
                m = m * 10 + (uint64_t)(*p - '0');
                if (m) digits++;
                exp10--;
            } else if (*p != '0') {
                inexact = 1;
            }
            p++;
        }
    }
    if (!any) return NULL;
    if (p < end && (*p == 'e' || *p == 'E')) {
        const char *q = p + 1;
        int eneg = 0;
        if (q < end && (*q == '+' || *q == '-')) {
            eneg = (*q == '-');
            q++;
        }
        if (q < end && (unsigned)(*q - '0') < 10) {
            int e = 0;
            while (q < end && (unsigned)(*q - '0') < 10) {
                if (e < 100000) e = e * 10 + (*q - '0');
                q++;
            }
            exp10 += eneg ? -e : e;
            p = q;
        }
    }
    if (!inexact && m <= (UINT64_C(1) << 53) && exp10 >= -22 && exp10 <= 22) {
        double v = (double)m;
        v = exp10 >= 0 ? v * pow10_tab[exp10] : v / pow10_tab[-exp10];
        *out = neg ? -v : v;
        return p;
    }
    if (m == 0 && !inexact) {
        *out = neg ? -0.0 : 0.0;
        return p;
    }
    const char *r = slow_parse(s, p, out);
    return r ? p : NULL;
}

int nv_format_double(double x, char *buf)
{
    if (isnan(x)) {
        strcpy(buf, "nan");
        return 3;
    }
    if (isinf(x)) {
        strcpy(buf, x < 0 ? "-inf" : "inf");
        return x < 0 ? 4 : 3;
    }
    int n = 0;
    for (int prec = 15; prec <= 17; prec++) {
        n = snprintf(buf, 32, "%.*g", prec, x);
        for (int i = 0; i < n; i++) {
            char c = buf[i];
            if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e')) buf[i] = '.';
        }
        double back;
        if (nv_parse_double(buf, buf + n, &back) && back == x) break;
    }
    return n;
}
