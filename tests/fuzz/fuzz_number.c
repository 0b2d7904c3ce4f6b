/*
 * fuzz_number.c - nv_parse_double against glibc's strtod_l in the "C" locale.
 *
 * The input is the text (any bytes).  nv_parse_double(s, s + len) is
 * compared with strtod_l on a NUL-terminated copy.  What number.c intends
 * (its header comment and nv_parse_double's contract in internal.h): a
 * decimal or hex floating number, "inf"/"infinity"/"nan" in any case, read
 * exactly as strtod_l reads it, the value correctly rounded whatever the
 * number's length.  Deliberate differences, asserted as such:
 *   - no leading white space: strtod skips it, nv_parse_double returns NULL
 *     (the readers split fields themselves); after the white space, the two
 *     must agree again;
 *   - "nan(chars)": strtod reads the parenthesised payload, nv_parse_double
 *     reads "nan" only (the readers then refuse the '(' as a bad field);
 *   - the sign and payload of a NaN are not kept (every NaN is equal here).
 * Everywhere else: the same acceptance, the same consumed length and the
 * same value, bitwise (so -0 is -0).
 * Also: nv_format_double of every parsed value reads back (by both parsers)
 * to the same double, and nv_parse_int64 / nv_parse_finite agree with
 * their definitions (strtoll on plain decimal digits; nv_parse_double over
 * the whole string, finite).
 */
#include "fuzz_common.h"

#include "core/internal.h"

#include <ctype.h>
#include <locale.h>

static locale_t c_loc;

static int is_c_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static int ieq(const char *s, const char *word, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)s[i]) != word[i]) return 0;
    return 1;
}

/* Compare nv_parse_double and strtod_l at s (NUL at s[len]). */
static void compare(const char *s, size_t len, int depth)
{
    double x = 0, y;
    const char *q = nv_parse_double(s, s + len, &x);
    char *e;
    errno = 0;
    y = strtod_l(s, &e, c_loc);
    size_t ny = (size_t)(e - s);

    if (q) {
        size_t nx = (size_t)(q - s);
        FUZZ_CHECK(nx > 0 && nx <= len, "nv_parse_double consumed %zu of %zu bytes", nx, len);
        FUZZ_CHECK(ny > 0, "nv_parse_double reads '%.*s' (%zu bytes) as %a; strtod_l reads nothing",
                   (int)(nx > 80 ? 80 : nx), s, nx, x);
        if (nx != ny) {
            /* only "nan(...)": strtod reads the payload, nv_parse_double stops after "nan" */
            size_t sign = (s[0] == '+' || s[0] == '-') ? 1 : 0;
            int nan_payload = isnan(x) && isnan(y) && nx == sign + 3 && ieq(s + sign, "nan", 3) &&
                              s[nx] == '(' && ny > nx && s[ny - 1] == ')';
            FUZZ_CHECK(nan_payload,
                       "consumed length differs: nv_parse_double %zu, strtod_l %zu, on '%.*s' "
                       "(values %a, %a)",
                       nx, ny, (int)(len > 80 ? 80 : len), s, x, y);
        }
        FUZZ_CHECK(fuzz_same_double(x, y),
                   "value differs on '%.*s'%s (%zu bytes): nv_parse_double %a (%.17g), strtod_l "
                   "%a (%.17g)",
                   (int)(nx > 120 ? 120 : nx), s, nx > 120 ? "..." : "", nx, x, x, y, y);

        /* formatting reads back exactly, by both parsers */
        char buf[32];
        int n = nv_format_double(x, buf);
        FUZZ_CHECK(n > 0 && n < 32 && (size_t)n == strlen(buf), "nv_format_double gave %d bytes", n);
        double back = 0;
        const char *qb = nv_parse_double(buf, buf + n, &back);
        FUZZ_CHECK(qb == buf + n && fuzz_same_double(back, x),
                   "nv_format_double(%a) = '%s' reads back as %a", x, buf, back);
        back = strtod_l(buf, &e, c_loc);
        FUZZ_CHECK(e == buf + n && fuzz_same_double(back, x),
                   "nv_format_double(%a) = '%s' reads back by strtod_l as %a", x, buf, back);

        /* nv_parse_finite: the whole string, finite */
        double f = 0;
        int fin = nv_parse_finite(s, &f);
        int want = nx == len && isfinite(x);
        FUZZ_CHECK(fin == want, "nv_parse_finite('%.*s') = %d, expected %d",
                   (int)(len > 80 ? 80 : len), s, fin, want);
        if (fin) FUZZ_CHECK(fuzz_same_double(f, x), "nv_parse_finite value %a, expected %a", f, x);
    } else {
        /* nv_parse_double refuses: strtod_l may only accept after leading white space */
        if (ny > 0) {
            FUZZ_CHECK(is_c_space(s[0]),
                       "strtod_l reads '%.*s' (%zu bytes) as %a; nv_parse_double refuses it",
                       (int)(ny > 80 ? 80 : ny), s, ny, y);
        }
        double f;
        FUZZ_CHECK(!nv_parse_finite(s, &f), "nv_parse_finite accepts what nv_parse_double refuses");
    }
    if (depth == 0 && len > 0 && is_c_space(s[0])) {
        size_t w = 0;
        while (w < len && is_c_space(s[w])) w++;
        compare(s + w, len - w, 1);
    }
}

/* nv_parse_int64: [+-]?[0-9]+ within int64, nothing else. */
static void check_int(const char *s, size_t len)
{
    int64_t v = 0;
    int got = nv_parse_int64(s, &v);
    size_t i = 0;
    if (i < len && (s[i] == '+' || s[i] == '-')) i++;
    size_t digits = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9') i++, digits++;
    int syntax = digits > 0 && i == len; /* len stops at the first NUL */
    long long w = 0;
    int want = 0;
    if (syntax) {
        char *e;
        errno = 0;
        w = strtoll(s, &e, 10);
        want = errno == 0 && (size_t)(e - s) == len;
    }
    FUZZ_CHECK(got == want, "nv_parse_int64('%.*s') = %d, expected %d", (int)(len > 80 ? 80 : len),
               s, got, want);
    if (got) FUZZ_CHECK(v == w, "nv_parse_int64('%s') = %lld, strtoll %lld", s, (long long)v, w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!c_loc) {
        c_loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
        if (!c_loc) abort();
    }
    char *s = malloc(size + 1);
    if (!s) return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    /* the text up to the first NUL: what both parsers see (strtod cannot see past it) */
    size_t len = strlen(s);
    compare(s, len, 0);
    check_int(s, len);
    /* the whole buffer, NULs included, as nv_parse_double gets it from a file */
    if (len < size) {
        double x = 0, y = 0;
        const char *q1 = nv_parse_double(s, s + size, &x);
        const char *q2 = nv_parse_double(s, s + len, &y);
        FUZZ_CHECK(q1 == q2 && (!q1 || fuzz_same_double(x, y)),
                   "nv_parse_double reads past a NUL byte");
    }
    free(s);
    return 0;
}
