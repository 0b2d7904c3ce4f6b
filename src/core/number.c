/*
 * number.c - locale-independent number parsing and formatting.
 *
 * Parsing: a hand-written decimal parser.  When the significand has at most 19
 * digits, fits in 2^53 and the decimal exponent is within [-22, 22], the
 * result m * 10^e is one correctly rounded IEEE operation, hence exact (the
 * Clinger fast path); this covers nearly all numbers in data files.  A
 * significand of 17 to 19 digits (repr() and %.17g write 17) with an
 * exponent within [-19, 19] is exact in 128-bit integers: m 10^e, or
 * m 2^s / 10^-e with its remainder, rounded to 53 bits by hand (wide()).
 * Other numbers fall back to strtod_l with the "C" locale, which rounds correctly,
 * on a bounded canonical copy (canonical()), so numbers of any length read
 * exactly.
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

__extension__ typedef unsigned __int128 nv_u128;

static const uint64_t pow10_u64[20] = {1ULL,
                                       10ULL,
                                       100ULL,
                                       1000ULL,
                                       10000ULL,
                                       100000ULL,
                                       1000000ULL,
                                       10000000ULL,
                                       100000000ULL,
                                       1000000000ULL,
                                       10000000000ULL,
                                       100000000000ULL,
                                       1000000000000ULL,
                                       10000000000000ULL,
                                       100000000000000ULL,
                                       1000000000000000ULL,
                                       10000000000000000ULL,
                                       100000000000000000ULL,
                                       1000000000000000000ULL,
                                       10000000000000000000ULL};

static int bits128(nv_u128 x)
{
    const uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
    return hi ? 128 - __builtin_clzll(hi) : lo ? 64 - __builtin_clzll(lo) : 0;
}

/* x 2^-s (x > 0 an integer of at most 128 bits; `sticky`: a non-zero part
 * below x's last bit) rounded to the nearest double, ties to even.  The
 * callers' values lie between 1e-3 and 1e38: no subnormal, no overflow. */
static double round_bits(nv_u128 x, int s, int sticky)
{
    const int len = bits128(x);
    if (len <= 53) return ldexp((double)(uint64_t)x, -s); /* exact (sticky: then len > 53) */
    const int cut = len - 53;
    uint64_t mant = (uint64_t)(x >> cut);
    const nv_u128 rest = x & (((nv_u128)1 << cut) - 1), half = (nv_u128)1 << (cut - 1);
    if (rest > half || (rest == half && (sticky || (mant & 1)))) mant++; /* 2^53 is exact too */
    return ldexp((double)mant, cut - s);
}

/* m 10^e exactly rounded, for 2^53 < m < 10^19 and -19 <= e <= 19. */
static double wide(uint64_t m, int e)
{
    if (e >= 0) return round_bits((nv_u128)m * pow10_u64[e], 0, 0);
    const uint64_t d = pow10_u64[-e];
    /* a quotient of at least 55 bits: m 2^s / d >= 2^55 (m / d alone may have them) */
    int s = 56 + (64 - __builtin_clzll(d)) - (64 - __builtin_clzll(m));
    if (s < 0) s = 0;
    const nv_u128 num = (nv_u128)m << s;
    return round_bits(num / d, s, num % d != 0);
}

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int lower(int c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

static int match_word(const char *s, const char *end, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(end - s) < n) return 0;
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)s[i]) != word[i]) return 0;
    return 1;
}

/* Copy the number at s (at most up to end) into buf (NV_CANON_MAX bytes) in a
 * form strtod_l reads to the same double, whatever the number's length: the
 * sign, at most KEEP significant digits, a sticky '1' standing for any
 * non-zero digits dropped beyond them, and the exponent adjusted for the
 * dropped and fractional digits.  Halfway points between doubles have at
 * most 767 significant decimal digits (hex: 14), so rounding is unchanged.
 * *stop is set past the number as strtod would read it.  Returns the length
 * written, or 0 when there are no digits. */
#define NV_CANON_MAX 1024
static size_t canonical(const char *s, const char *end, int hex, char *buf, const char **stop)
{
    const size_t keep = hex ? 40 : 800;
    const int64_t shift = hex ? 4 : 1; /* exponent units per digit: binary for hex */
    const char *p = s;
    size_t n = 0;
    if (p < end && (*p == '+' || *p == '-')) buf[n++] = *p++;
    const char *zero = p; /* a bare "0x" reads as the number 0 */
    if (hex) {
        buf[n++] = '0';
        buf[n++] = 'x';
        p += 2;
    }
    size_t kept = 0;
    int sticky = 0, any = 0;
    int64_t adj = 0; /* exponent adjustment, in the exponent's units */
    for (int frac = 0; frac < 2; frac++) {
        if (frac) {
            if (!(p < end && *p == '.')) break;
            p++;
        }
        while (p < end && (hex ? is_hex(*p) : (unsigned)(*p - '0') < 10)) {
            any = 1;
            if (kept == 0 && *p == '0') { /* a leading zero */
                if (frac) adj -= shift;
            } else if (kept < keep) {
                buf[n++] = *p;
                kept++;
                if (frac) adj -= shift;
            } else {
                if (*p != '0') sticky = 1;
                if (!frac) adj += shift;
            }
            p++;
        }
    }
    if (!any) {
        if (!hex) return 0;
        /* "0x" without digits: strtod reads the "0" alone */
        n = 0;
        if (zero > s) buf[n++] = *s;
        buf[n++] = '0';
        buf[n] = '\0';
        *stop = zero + 1;
        return n;
    }
    if (kept == 0) buf[n++] = '0';
    if (sticky) {
        buf[n++] = '1';
        adj -= shift;
    }
    int64_t e = 0;
    const char echar = hex ? 'p' : 'e';
    if (p < end && (*p == echar || *p == echar - 32)) {
        const char *q = p + 1;
        int eneg = 0;
        if (q < end && (*q == '+' || *q == '-')) eneg = *q++ == '-';
        if (q < end && (unsigned)(*q - '0') < 10) {
            while (q < end && (unsigned)(*q - '0') < 10) {
                if (e < 1000000000) e = e * 10 + (*q - '0');
                q++;
            }
            if (eneg) e = -e;
            p = q;
        }
    }
    e += adj;
    if (e > 2000000000) e = 2000000000;
    if (e < -2000000000) e = -2000000000;
    /* the exponent, by hand (snprintf took a tenth of reading 17-digit values) */
    buf[n++] = echar;
    if (e < 0) buf[n++] = '-';
    char digits[12];
    int nd = 0;
    for (uint64_t u = (uint64_t)(e < 0 ? -e : e); nd == 0 || u; u /= 10) digits[nd++] = (char)('0' + u % 10);
    while (nd) buf[n++] = digits[--nd];
    buf[n] = '\0';
    *stop = p;
    return n;
}

/* Numbers the fast path cannot round exactly go to strtod_l in the "C"
 * locale, on the canonical copy above (any length reads correctly). */
static const char *slow_parse(const char *s, const char *end, int hex, double *out)
{
    char buf[NV_CANON_MAX];
    const char *stop;
    size_t n = canonical(s, end, hex, buf, &stop);
    if (n == 0) return NULL;
    pthread_once(&c_locale_once, make_c_locale);
    char *q;
    double v = c_locale ? strtod_l(buf, &q, c_locale) : strtod(buf, &q);
    if (q != buf + n) return NULL;
    *out = v;
    return stop;
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
    if (p + 1 < end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) return slow_parse(s, end, 1, out);

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
    if (!inexact && m > (UINT64_C(1) << 53) && exp10 >= -19 && exp10 <= 19) {
        const double v = wide(m, exp10);
        *out = neg ? -v : v;
        return p;
    }
    return slow_parse(s, p, 0, out);
}

int nv_parse_int64(const char *s, int64_t *out)
{
    const char *p = s;
    int neg = 0;
    if (*p == '+' || *p == '-') neg = *p++ == '-';
    if ((unsigned)(*p - '0') >= 10) return 0;
    uint64_t v = 0;
    const uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; (unsigned)(*p - '0') < 10; p++) {
        unsigned dgt = (unsigned)(*p - '0');
        if (v > (limit - dgt) / 10) return 0;
        v = v * 10 + dgt;
    }
    if (*p != '\0') return 0;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 1;
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
    if (x == 0) { /* the commonest value of a sparse weight vector */
        strcpy(buf, signbit(x) ? "-0" : "0");
        return signbit(x) ? 2 : 1;
    }
    int n = 0, exact = 0;
    for (int prec = 15; prec <= 17 && !exact; prec++) {
        n = snprintf(buf, 32, "%.*g", prec, x);
        for (int i = 0; i < n; i++) {
            char c = buf[i];
            if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e')) buf[i] = '.';
        }
        double back;
        exact = nv_parse_double(buf, buf + n, &back) && back == x;
    }
    NV_ASSERT(exact && n > 0 && n < 32); /* 17 digits give every double back exactly */
    return n;
}

int nv_parse_finite(const char *s, double *out)
{
    const char *end = s + strlen(s);
    double v;
    const char *q = nv_parse_double(s, end, &v);
    if (!q || q != end || !isfinite(v)) return 0;
    *out = v;
    return 1;
}
