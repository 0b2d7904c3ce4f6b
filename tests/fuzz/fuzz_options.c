/*
 * fuzz_options.c - nesvm_params_set / nesvm_params_get on arbitrary text.
 *
 * The input is "NAME<sep>VALUE<sep>...", sep the first NUL or newline: NAME
 * is the text before it, VALUE the text after it up to the next NUL or
 * newline (the rest is ignored).  A NAME of at most one byte stands for
 * nv_param_name(byte % count) (so that the fuzzer reaches every name at
 * once); any other NAME is used as it is (unknown names must be refused).
 * The VALUE is then also set on every name of the list, in turn, on a
 * fresh params object.
 *
 * Checks, for each set:
 *   - a refused value returns NESVM_ERR_ARG with a message and leaves every
 *     parameter as it was (all values read through nesvm_params_get);
 *   - an accepted value changes at most that parameter (its aliases aside:
 *     none today);
 *   - then, after an accepted set, for every name: get -> set -> get gives the same text, the set
 *     of a value just read never fails, and get with a buffer of exactly
 *     strlen + 1 bytes works while one byte less is refused;
 *   - nesvm_params_copy gives the same values.
 */
#include "fuzz_common.h"

#include "params/params_internal.h"

#define VAL_SIZE 128

static int n_names(void)
{
    int n = 0;
    while (nv_param_name(n)) n++;
    return n;
}

/* All values of p, as text, into vals[i] (VAL_SIZE bytes each). */
static void snapshot(const nesvm_params *p, char (*vals)[VAL_SIZE])
{
    for (int i = 0; nv_param_name(i); i++) {
        nesvm_error err = {0};
        nesvm_status st = nesvm_params_get(p, nv_param_name(i), vals[i], VAL_SIZE, &err);
        FUZZ_CHECK(st == NESVM_OK, "get %s: %s", nv_param_name(i), err.message);
        FUZZ_CHECK(strlen(vals[i]) < VAL_SIZE - 1 && vals[i][0] != '\0', "get %s gave '%s'",
                   nv_param_name(i), vals[i]);
    }
}

static void round_trip(nesvm_params *p)
{
    int n = n_names();
    char (*before)[VAL_SIZE] = calloc((size_t)n, VAL_SIZE);
    char (*after)[VAL_SIZE] = calloc((size_t)n, VAL_SIZE);
    FUZZ_CHECK(before && after, "out of memory in the fuzz target");
    snapshot(p, before);
    for (int i = 0; i < n; i++) {
        const char *name = nv_param_name(i);
        nesvm_error err = {0};
        nesvm_status st = nesvm_params_set(p, name, before[i], &err);
        FUZZ_CHECK(st == NESVM_OK, "set %s to its own value '%s' fails: %s", name, before[i],
                   err.message);
        char v[VAL_SIZE];
        st = nesvm_params_get(p, name, v, sizeof v, &err);
        FUZZ_CHECK(st == NESVM_OK && strcmp(v, before[i]) == 0,
                   "get -> set -> get of %s: '%s' became '%s'", name, before[i], v);
        size_t len = strlen(v);
        st = nesvm_params_get(p, name, v, len + 1, &err);
        FUZZ_CHECK(st == NESVM_OK && strcmp(v, before[i]) == 0, "get %s into %zu bytes fails: %s",
                   name, len + 1, err.message);
        nesvm_error e2 = {0};
        st = nesvm_params_get(p, name, v, len, &e2);
        FUZZ_CHECK(st == NESVM_ERR_ARG, "get %s into %zu bytes (needs %zu) returns %d", name, len,
                   len + 1, (int)st);
        FUZZ_CHECK_ERROR(st, e2);
    }
    snapshot(p, after);
    for (int i = 0; i < n; i++)
        FUZZ_CHECK(strcmp(before[i], after[i]) == 0, "setting every value to itself changed %s: '%s' -> '%s'",
                   nv_param_name(i), before[i], after[i]);
    nesvm_params *q = NULL;
    nesvm_error err = {0};
    FUZZ_CHECK(nesvm_params_copy(p, &q, &err) == NESVM_OK, "copy: %s", err.message);
    snapshot(q, after);
    for (int i = 0; i < n; i++)
        FUZZ_CHECK(strcmp(before[i], after[i]) == 0, "copy changed %s: '%s' -> '%s'",
                   nv_param_name(i), before[i], after[i]);
    nesvm_params_destroy(q);
    free(before);
    free(after);
}

/* Set name=value on p and check what changed. */
static void set_one(nesvm_params *p, const char *name, const char *value)
{
    int n = n_names();
    char (*before)[VAL_SIZE] = calloc((size_t)n, VAL_SIZE);
    char (*after)[VAL_SIZE] = calloc((size_t)n, VAL_SIZE);
    FUZZ_CHECK(before && after, "out of memory in the fuzz target");
    snapshot(p, before);
    nesvm_error err = {0};
    nesvm_status st = nesvm_params_set(p, name, value, &err);
    snapshot(p, after);
    int known = -1;
    for (int i = 0; i < n; i++)
        if (strcmp(nv_param_name(i), name) == 0) known = i;
    if (st != NESVM_OK) {
        FUZZ_CHECK(st == NESVM_ERR_ARG, "set %s='%s' returns %d", name, value, (int)st);
        FUZZ_CHECK_ERROR(st, err);
        for (int i = 0; i < n; i++)
            FUZZ_CHECK(strcmp(before[i], after[i]) == 0,
                       "a refused set %s='%s' changed %s: '%s' -> '%s'", name, value,
                       nv_param_name(i), before[i], after[i]);
    } else {
        FUZZ_CHECK(known >= 0, "unknown parameter '%s' accepted", name);
        for (int i = 0; i < n; i++)
            if (i != known)
                FUZZ_CHECK(strcmp(before[i], after[i]) == 0, "set %s='%s' changed %s: '%s' -> '%s'",
                           name, value, nv_param_name(i), before[i], after[i]);
        /* the value read back means the same: setting it again changes nothing */
        nesvm_params *q = NULL;
        FUZZ_CHECK(nesvm_params_create(&q, &err) == NESVM_OK, "create: %s", err.message);
        FUZZ_CHECK(nesvm_params_set(q, name, after[known], &err) == NESVM_OK,
                   "'%s' read back from %s='%s' is refused: %s", after[known], name, value,
                   err.message);
        nesvm_params_destroy(q);
        round_trip(p); /* (a refused set left p as it was: nothing new to check) */
    }
    free(before);
    free(after);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;
    char *buf = malloc(size + 1);
    if (!buf) return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    size_t cut = 0;
    while (cut < size && buf[cut] != '\0' && buf[cut] != '\n') cut++;
    const char *value = "";
    if (cut < size) {
        buf[cut] = '\0';
        value = buf + cut + 1;
        size_t e = 0;
        while (value[e] != '\0' && value[e] != '\n') e++;
        buf[cut + 1 + e] = '\0';
    }
    const char *name = buf;
    if (strlen(name) <= 1) name = nv_param_name((int)((unsigned char)name[0] % (unsigned)n_names()));

    nesvm_params *p = NULL;
    nesvm_error err = {0};
    FUZZ_CHECK(nesvm_params_create(&p, &err) == NESVM_OK, "create: %s", err.message);
    round_trip(p); /* the defaults */
    set_one(p, name, value);
    nesvm_params_destroy(p);

    /* the value on every name, each on a fresh object */
    for (int i = 0; nv_param_name(i); i++) {
        FUZZ_CHECK(nesvm_params_create(&p, &err) == NESVM_OK, "create: %s", err.message);
        set_one(p, nv_param_name(i), value);
        nesvm_params_destroy(p);
    }
    free(buf);
    return 0;
}
