/*
 * replay_main.c - a main() for the fuzz targets without libFuzzer: runs
 * LLVMFuzzerTestOneInput once on every file named on the command line (and
 * on every file of every folder named), README files skipped.  The corpora
 * and regressions become plain tests of every build (gcc, ASan), not only of
 * the clang fuzz build.  A failed check aborts (fuzz_common.h), naming the
 * input on stderr first.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open '%s'\n", path);
        return 1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) break;
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0) break;
        n += got;
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        fprintf(stderr, "replay: cannot read '%s'\n", path);
        free(buf);
        return 1;
    }
    fprintf(stderr, "Running: %s\n", path);
    /* the exact size, as libFuzzer gives it (ASan sees reads past the end) */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return 1;
    }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int files = 0, errors = 0;
    for (int a = 1; a < argc; a++) {
        struct stat st;
        if (stat(argv[a], &st) != 0) {
            fprintf(stderr, "replay: no such file or folder '%s'\n", argv[a]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            errors += run_file(argv[a]);
            files++;
            continue;
        }
        DIR *d = opendir(argv[a]);
        if (!d) {
            fprintf(stderr, "replay: cannot open folder '%s'\n", argv[a]);
            return 1;
        }
        char **names = NULL;
        size_t nn = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.' || strncmp(e->d_name, "README", 6) == 0) continue;
            char **nb = realloc(names, (nn + 1) * sizeof *names);
            if (!nb) return 1;
            names = nb;
            size_t len = strlen(argv[a]) + strlen(e->d_name) + 2;
            names[nn] = malloc(len);
            if (!names[nn]) return 1;
            snprintf(names[nn], len, "%s/%s", argv[a], e->d_name);
            nn++;
        }
        closedir(d);
        qsort(names, nn, sizeof *names, by_name);
        for (size_t i = 0; i < nn; i++) {
            errors += run_file(names[i]);
            files++;
            free(names[i]);
        }
        free(names);
    }
    if (files == 0) {
        fprintf(stderr, "replay: no inputs\n");
        return 1;
    }
    printf("replay: %d inputs, %d unreadable\n", files, errors);
    return errors ? 1 : 0;
}
