/* interop.c - models to and from LIBSVM (svm-predict, svm-train) and
 * LIBLINEAR (predict, train) model files: the public calls, which choose the
 * format and hold the file.
 *
 * Export writes a nesvm model as the other tool's file, where the model is
 * representable there; import reads the other tool's file into a nesvm
 * model file's text, which the one loader then checks.  Each format's
 * mapping is in its own file: interop_libsvm.c and interop_liblinear.c;
 * interop_text.c reads the lines and writes the text (interop_internal.h).
 */
#include "interop_internal.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

nesvm_status nesvm_model_export(const nesvm_model *m, const char *format, const char *path, nesvm_error *err)
{
    if (!m || !format || !path) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_model_export");
    const int libsvm = strcmp(format, "libsvm") == 0;
    if (!libsvm && strcmp(format, "liblinear") != 0)
        return nv_error(err, NESVM_ERR_ARG, "unknown model format '%s' (expected libsvm or liblinear)", format);
    /* the regressions each format has (checked before the file is touched):
     * LIBSVM's epsilon_svr is the tube, LIBLINEAR's SVRs the tube and its square */
    const char *problem = m->task == NESVM_TASK_REGRESSION ? nesvm_model_problem(m) : NULL;
    const int tube = problem && nv_svr_problem(problem) == 1;
    const int squared = problem && nv_svr_problem(problem) == 2;
    const int nusvr = problem && strcmp(problem, "nu_svr_epsilon_insensitive_l2") == 0; /* LIBSVM's nu_svr */
    if (libsvm && squared)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "LIBSVM has no squared epsilon-insensitive loss (L2-loss SVR, problem %s): LIBLINEAR's "
                        "-s 11 has it, for linear models (--format liblinear)",
                        problem);
    if (libsvm && problem && !tube && !nusvr)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "a regression of problem %s cannot be written for LIBSVM (its epsilon_svr: "
                        "svr_epsilon_insensitive_l2, with or without _regularized_bias) or nu_svr (nu-SVR's "
                        "nu_svr_epsilon_insensitive_l2)",
                        problem);
    if (!libsvm && problem && !tube && !squared)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "a regression of problem %s cannot be written for LIBLINEAR (its SVRs: "
                        "svr_epsilon_insensitive_l2, svr_squared_epsilon_insensitive_l2, with or without "
                        "_regularized_bias)",
                        problem);
    if (m->task == NESVM_TASK_NOVELTY && !libsvm)
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "LIBLINEAR has no one-class SVM: a novelty model is written for LIBSVM (--format libsvm, "
                        "its one_class)");
    if (m->task != NESVM_TASK_CLASSIFICATION && m->task != NESVM_TASK_REGRESSION &&
        (m->task != NESVM_TASK_NOVELTY || strcmp(nesvm_model_problem(m), "one_class_svm_hinge_l2") != 0))
        return nv_error(err, NESVM_ERR_UNSUPPORTED,
                        "a %s model cannot be written for LIBSVM or LIBLINEAR: "
                        "nesvm exports classifiers, regressions and one-class SVMs",
                        nesvm_task_str(m->task));
    nv_atomic_file af;
    nesvm_status st = nv_atomic_open(&af, path, err);
    if (st != NESVM_OK) return st;
    st = libsvm ? nv_libsvm_export(m, af.fp, err) : nv_liblinear_export(m, af.fp, err);
    if (st == NESVM_OK) st = nv_atomic_commit(&af, err);
    else nv_atomic_abort(&af);
    return st;
}

nesvm_status nesvm_model_import(const char *path, const char *format, nesvm_model **out, nesvm_error *err)
{
    if (!path || !out) return nv_error(err, NESVM_ERR_ARG, "NULL argument to nesvm_model_import");
    *out = NULL;
    if (format && strcmp(format, "libsvm") != 0 && strcmp(format, "liblinear") != 0)
        return nv_error(err, NESVM_ERR_ARG, "unknown model format '%s' (expected libsvm or liblinear)", format);
    imp_reader rd;
    memset(&rd, 0, sizeof rd);
    imp_reader *r = &rd;
    r->path = path;
    r->f = fopen(path, "r");
    if (!r->f) return nv_error(err, NESVM_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    struct stat fst;
    r->size = fstat(fileno(r->f), &fst) == 0 && S_ISREG(fst.st_mode) ? (double)fst.st_size : INFINITY;
    imp_text t;
    memset(&t, 0, sizeof t);
    nesvm_status st = NESVM_OK;
    /* the format: the first line's key (read again by the parser) */
    int libsvm = -1, got;
    while ((got = nv_imp_next(r)) > 0 && r->ntok == 0) {
    }
    if (got < 0) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (r->ntok > 0) libsvm = strcmp(r->tok[0], "svm_type") == 0 ? 1 : strcmp(r->tok[0], "solver_type") == 0 ? 0 : -1;
    r->pending = r->ntok > 0;
    if (st == NESVM_OK && format) {
        int want = strcmp(format, "libsvm") == 0;
        if (libsvm != want)
            st = nv_error(err, NESVM_ERR_MODEL, "%s: not a %s model file (its first line is not '%s ...')", path,
                          format, want ? "svm_type" : "solver_type");
    } else if (st == NESVM_OK && libsvm < 0) {
        st = nv_error(err, NESVM_ERR_MODEL,
                      "%s: neither a LIBSVM model (first line 'svm_type ...') nor a LIBLINEAR model (first line "
                      "'solver_type ...')", path);
    }
    if (st == NESVM_OK) st = libsvm ? nv_libsvm_import(r, &t, err) : nv_liblinear_import(r, &t, err);
    if (st == NESVM_OK && ferror(r->f)) st = nv_error(err, NESVM_ERR_IO, "cannot read '%s'", path);
    if (st == NESVM_OK && t.oom) st = nv_error(err, NESVM_ERR_NOMEM, "out of memory");
    if (st == NESVM_OK) {
        st = nv_model_parse_owned(t.s, t.len, out, err);
        t.s = NULL;
        if (st != NESVM_OK) nv_error_prefix(err, "%s: the model read from it", path);
    }
    fclose(r->f);
    nv_free(r->line);
    nv_free(r->tok);
    nv_free(t.s);
    return st;
}
