/* test_task.c - the task (issue 30): the svm_type table, the driver's targets
 * stage for each task (classification pairs, regression's real targets,
 * novelty's unlabeled rows), model files and prediction by task, and the
 * metrics (accuracy; LIBSVM's mean squared error and squared correlation
 * coefficient), every value against a hand computation. */
#include "../../src/model/train_targets.h"
#include "../../src/params/param_table.h"
#include "../../src/solvers/solver.h"
#include "../../src/select/metrics.h"
#include "check.h"

#include <stdlib.h>

/* A dense dataset of n rows of d features (x row-major) and labels y. */
static nesvm_dataset *wrap(int64_t n, int32_t d, const double *x, const double *y)
{
    nesvm_dataset *ds = NULL;
    nesvm_error err = {0};
    nesvm_status st = nesvm_dataset_wrap_dense(n, d, x, y, &ds, &err);
    CHECK_MSG(st == NESVM_OK, "%s", err.message);
    return ds;
}

static nesvm_params *params_with(const char *name, const char *value)
{
    nesvm_params *p = NULL;
    nesvm_params_create(&p, NULL);
    if (name) CHECK(nesvm_params_set(p, name, value, NULL) == NESVM_OK);
    return p;
}

/* Sub-problem buffers of n rows (no caps). */
static void sp_alloc(nv_subproblem *sp, int64_t n)
{
    memset(sp, 0, sizeof *sp);
    sp->rows = calloc((size_t)n, sizeof(int64_t));
    sp->y = calloc((size_t)n, sizeof(double));
    sp->cost = calloc((size_t)n, sizeof(double));
}

static void sp_free(nv_subproblem *sp)
{
    free(sp->rows);
    free(sp->y);
    free(sp->cost);
    free(sp->cap);
}

/* The targets stage for task on ds (rows NULL: all n). */
static nesvm_status find(nv_targets *t, nesvm_task task, const nesvm_dataset *ds, const int64_t *rows,
                         int64_t n, const nesvm_params *p, nesvm_error *err)
{
    int shared = 0;
    nesvm_status st = nv_targets_find(t, task, ds, rows, n, n, p, 0, NULL, &shared, err);
    CHECK(shared == 0); /* no communicator, no agreement */
    return st;
}

/* Every svm_type has a row, whose word is the parameter table's; today's are
 * classifications; the tasks' words go both ways. */
static void test_table(void)
{
    const nv_param_def *d = nv_param_find("svm_type");
    int count = 0;
    for (int i = 0; d->words[i]; i++, count++) {
        const nv_svm_type_def *t = nv_svm_type(i);
        CHECK(t != NULL);
        if (!t) continue;
        CHECK_MSG(strcmp(t->word, d->words[i]) == 0, "row %d: %s vs %s", i, t->word, d->words[i]);
        /* c, lp, ls, nu-svc classify; ls-svr, svr and nu-svr regress;
         * one-class is a novelty; each row's loss is a registered one (the
         * tube svr's and nu-svr's) */
        const int regression = i == NV_SVM_LSSVR || i == NV_SVM_SVR || i == NV_SVM_NUSVR;
        CHECK_MSG(t->task == (regression            ? NESVM_TASK_REGRESSION
                              : i == NV_SVM_ONECLASS ? NESVM_TASK_NOVELTY
                                                     : NESVM_TASK_CLASSIFICATION),
                  "row %d", i);
        CHECK(nv_loss_find(t->loss) && nv_loss_find(t->loss)->tube == (i == NV_SVM_SVR || i == NV_SVM_NUSVR));
        CHECK(nv_loss_find(t->loss) != NULL && t->l1 == (i == NV_SVM_LP));
        nesvm_params *p = params_with("svm_type", d->words[i]);
        CHECK(nesvm_params_task(p) == t->task);
        nesvm_params_destroy(p);
    }
    CHECK(count == NV_SVM_TYPES && count == 9);
    CHECK(nv_svm_type(count) == NULL && nv_svm_type(-1) == NULL);
    CHECK(strcmp(nv_svm_type(NV_SVM_LP)->name, "LP-SVM") == 0);
    CHECK(nesvm_params_task(NULL) == NESVM_TASK_CLASSIFICATION);
    CHECK(strcmp(nesvm_task_str(NESVM_TASK_CLASSIFICATION), "classification") == 0);
    CHECK(strcmp(nesvm_task_str(NESVM_TASK_REGRESSION), "regression") == 0);
    CHECK(strcmp(nesvm_task_str(NESVM_TASK_NOVELTY), "novelty") == 0);
    CHECK(strcmp(nesvm_task_str((nesvm_task)7), "unknown") == 0);
    for (int t = 0; t < 3; t++) CHECK(nv_task_parse(nesvm_task_str((nesvm_task)t)) == t);
    CHECK(nv_task_parse("svr") == -1);
}

/* Classification: classes in first-appearance order, each row's class, the
 * one-vs-one and one-vs-rest pairs, targets +1/-1, costs C x class weight x
 * sample weight. */
static void test_classification(void)
{
    const double x[6] = {0, 0, 0, 0, 0, 0};
    const double y[6] = {5, 7, 5, 9, 7, 9};
    nesvm_dataset *ds = wrap(6, 1, x, y);
    nesvm_params *p = params_with("c", "2");
    CHECK(nesvm_params_set_class_weight(p, 9, 3, NULL) == NESVM_OK);
    nesvm_error err = {0};
    nv_targets t;
    CHECK(find(&t, NESVM_TASK_CLASSIFICATION, ds, NULL, 6, p, &err) == NESVM_OK);
    CHECK(t.task == NESVM_TASK_CLASSIFICATION && t.k == 3 && t.nsub == 3 && !t.ovr);
    CHECK(t.classes[0] == 5 && t.classes[1] == 7 && t.classes[2] == 9);
    const int want_class[6] = {0, 1, 0, 2, 1, 2};
    for (int r = 0; r < 6; r++) CHECK(t.row_class[r] == want_class[r]);
    /* one-vs-one: (0,1), (0,2), (1,2) */
    nv_pairs pr;
    nv_pairs_start(&pr, &t);
    int i, j, s = 0;
    const int want_ovo[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    while (nv_pairs_next(&pr, &i, &j)) {
        CHECK(s < 3 && i == want_ovo[s][0] && j == want_ovo[s][1]);
        s++;
    }
    CHECK(s == 3);
    double cw[3];
    CHECK(nv_targets_costs(&t, p, cw, &err) == NESVM_OK);
    CHECK(cw[0] == 2 && cw[1] == 2 && cw[2] == 6);
    /* sub-problem (0, 2), data rows, sample weights: rows 0 2 3 5 */
    const double sw[6] = {1, 1, 0.5, 2, 1, 0.25};
    CHECK(nesvm_dataset_set_weights(ds, sw, NULL) == NESVM_OK);
    nv_subproblem sp;
    sp_alloc(&sp, 6);
    CHECK(nv_sub_build(&sp, 0, 2, &t, 0, p, cw, ds, NULL, 6, NULL, &err) == NESVM_OK);
    CHECK(sp.n == 4);
    const int64_t want_rows[4] = {0, 2, 3, 5};
    const double want_y[4] = {1, 1, -1, -1}, want_cost[4] = {2, 1, 12, 1.5};
    for (int a = 0; a < 4; a++)
        CHECK(sp.rows[a] == want_rows[a] && sp.y[a] == want_y[a] && sp.cost[a] == want_cost[a]);
    nv_targets_free(&t);
    CHECK(t.classes == NULL && t.row_class == NULL);

    /* one-vs-rest: (0,-1), (1,-1), (2,-1); class 1 against the rest, by position
     * among the rows 1 3 4 5 (labels 7 9 7 9: two classes, one sub-model) */
    CHECK(nesvm_params_set(p, "multiclass", "ovr", NULL) == NESVM_OK);
    CHECK(find(&t, NESVM_TASK_CLASSIFICATION, ds, NULL, 6, p, &err) == NESVM_OK);
    CHECK(t.ovr && t.nsub == 3);
    nv_pairs_start(&pr, &t);
    for (s = 0; nv_pairs_next(&pr, &i, &j); s++) CHECK(i == s && j == -1);
    CHECK(s == 3);
    CHECK(nv_targets_costs(&t, p, cw, &err) == NESVM_OK);
    CHECK(nv_sub_build(&sp, 1, -1, &t, 1, p, cw, ds, NULL, 6, NULL, &err) == NESVM_OK);
    CHECK(sp.n == 6);
    for (int a = 0; a < 6; a++) CHECK(sp.rows[a] == a && sp.y[a] == (want_class[a] == 1 ? 1.0 : -1.0));
    nv_targets_free(&t);
    const int64_t sub[4] = {1, 3, 4, 5};
    CHECK(find(&t, NESVM_TASK_CLASSIFICATION, ds, sub, 4, p, &err) == NESVM_OK);
    CHECK(t.k == 2 && t.nsub == 1 && !t.ovr && t.classes[0] == 7 && t.classes[1] == 9);
    nv_pairs_start(&pr, &t);
    CHECK(nv_pairs_next(&pr, &i, &j) && i == 0 && j == 1);
    CHECK(!nv_pairs_next(&pr, &i, &j));
    nv_targets_free(&t);

    /* one class: refused */
    const int64_t one[2] = {0, 2};
    CHECK(find(&t, NESVM_TASK_CLASSIFICATION, ds, one, 2, p, &err) == NESVM_ERR_DATA);
    CHECK_CONTAINS(err.message, "only one class (label 5)");
    nv_targets_free(&t);
    sp_free(&sp);
    nesvm_params_destroy(p);
    nesvm_dataset_destroy(ds);
}

/* Regression: no classes, one sub-model (-1, -1) on every row whose targets
 * are the labels themselves, cost C x sample weight (class weights are for
 * classes), or 1/(lambda n). */
static void test_regression(void)
{
    /* 40 distinct labels, most not integers: classification refuses them */
    double x[40], y[40];
    for (int r = 0; r < 40; r++) {
        x[r] = r;
        y[r] = 0.25 * r - 3.1 * (r % 3);
    }
    y[0] = 1.5;
    y[1] = -2.25;
    nesvm_dataset *ds = wrap(40, 1, x, y);
    nesvm_params *p = params_with("c", "4");
    CHECK(nesvm_params_set_class_weight(p, 1.5, 10, NULL) == NESVM_OK);
    nesvm_error err = {0};
    nv_targets t;
    CHECK(find(&t, NESVM_TASK_CLASSIFICATION, ds, NULL, 40, p, &err) == NESVM_ERR_DATA);
    CHECK_CONTAINS(err.message, "the labels look like regression targets");
    nv_targets_free(&t);
    CHECK(find(&t, NESVM_TASK_REGRESSION, ds, NULL, 40, p, &err) == NESVM_OK);
    CHECK(t.task == NESVM_TASK_REGRESSION && t.k == 0 && t.nsub == 1 && !t.ovr);
    CHECK(t.classes == NULL && t.row_class == NULL);
    nv_pairs pr;
    nv_pairs_start(&pr, &t);
    int i = 0, j = 0;
    CHECK(nv_pairs_next(&pr, &i, &j) && i == -1 && j == -1);
    CHECK(!nv_pairs_next(&pr, &i, &j));
    double cw[1] = {0};
    /* class weights have no class to weigh in a regression: refused, not ignored */
    CHECK(nv_targets_costs(&t, p, cw, &err) == NESVM_ERR_ARG);
    CHECK_CONTAINS(err.message, "class weights (-w1.5) are a classifier's: a regression has no classes");
    nesvm_params_destroy(p);
    p = params_with("c", "4");
    CHECK(nv_targets_costs(&t, p, cw, &err) == NESVM_OK);
    CHECK(cw[0] == 4);
    nv_subproblem sp;
    sp_alloc(&sp, 40);
    CHECK(nv_sub_build(&sp, -1, -1, &t, 0, p, cw, ds, NULL, 40, NULL, &err) == NESVM_OK);
    CHECK(sp.n == 40);
    for (int a = 0; a < 40; a++) CHECK(sp.rows[a] == a && sp.y[a] == y[a] && sp.cost[a] == 4);
    /* a subset by position, with sample weights */
    const int64_t rows[3] = {7, 0, 1};
    const double sw[40] = {[0] = 0.5, [1] = 1, [7] = 2};
    CHECK(nesvm_dataset_set_weights(ds, sw, NULL) == NESVM_OK);
    CHECK(nv_sub_build(&sp, -1, -1, &t, 1, p, cw, ds, rows, 3, NULL, &err) == NESVM_OK);
    CHECK(sp.n == 3);
    CHECK(sp.rows[0] == 0 && sp.rows[1] == 1 && sp.rows[2] == 2);
    CHECK(sp.y[0] == y[7] && sp.y[1] == 1.5 && sp.y[2] == -2.25);
    CHECK(sp.cost[0] == 8 && sp.cost[1] == 2 && sp.cost[2] == 4);
    /* lambda: C = 1/(lambda n) = 1/(0.5 x 3) per row, times its weight */
    CHECK(nesvm_params_set(p, "lambda", "0.5", NULL) == NESVM_OK);
    CHECK(nv_targets_costs(&t, p, cw, &err) == NESVM_OK && cw[0] == 1);
    CHECK(nv_sub_build(&sp, -1, -1, &t, 1, p, cw, ds, rows, 3, NULL, &err) == NESVM_OK);
    CHECK_REL(sp.cost[0], 2.0 / 1.5, 1e-15);
    CHECK_REL(sp.cost[1], 0.5 / 1.5, 1e-15);
    CHECK_REL(sp.cost[2], 1.0 / 1.5, 1e-15);
    CHECK(nesvm_params_set(p, "lambda", "0", NULL) == NESVM_OK);
    /* a cost beyond 1e15 is refused as for classes */
    CHECK(nesvm_params_set(p, "c", "1e16", NULL) == NESVM_OK);
    CHECK(nv_targets_costs(&t, p, cw, &err) == NESVM_ERR_ARG);
    CHECK_CONTAINS(err.message, "the cost C = 1e+16 (-c) is outside [1e-100, 1e15]");
    nv_targets_free(&t);
    /* probability estimates are a classifier's */
    CHECK(nesvm_params_set(p, "probability", "1", NULL) == NESVM_OK);
    CHECK(find(&t, NESVM_TASK_REGRESSION, ds, NULL, 40, p, &err) == NESVM_ERR_UNSUPPORTED);
    CHECK_CONTAINS(err.message,
                   "probability estimates (-b 1) are for classifiers: svm_type c learns a regression");
    nv_targets_free(&t);
    sp_free(&sp);
    nesvm_params_destroy(p);
    nesvm_dataset_destroy(ds);
}

/* Novelty: the labels ignored (one label is no refusal), one sub-model on
 * every row, targets +1. */
static void test_novelty(void)
{
    const double x[4] = {1, 2, 3, 4}, y[4] = {1, 1, 1, 1};
    nesvm_dataset *ds = wrap(4, 1, x, y);
    nesvm_params *p = params_with("c", "0.5");
    nesvm_error err = {0};
    nv_targets t;
    CHECK(find(&t, NESVM_TASK_CLASSIFICATION, ds, NULL, 4, p, &err) == NESVM_ERR_DATA);
    nv_targets_free(&t);
    CHECK(find(&t, NESVM_TASK_NOVELTY, ds, NULL, 4, p, &err) == NESVM_OK);
    CHECK(t.task == NESVM_TASK_NOVELTY && t.k == 0 && t.nsub == 1 && t.row_class == NULL);
    nv_pairs pr;
    nv_pairs_start(&pr, &t);
    int i = 0, j = 0;
    CHECK(nv_pairs_next(&pr, &i, &j) && i == -1 && j == -1);
    CHECK(!nv_pairs_next(&pr, &i, &j));
    /* the one-class SVM has no C (LIBSVM's is 1): its costs are the sample weights */
    double cw[1];
    CHECK(nv_targets_costs(&t, p, cw, &err) == NESVM_OK && cw[0] == 1);
    nv_subproblem sp;
    sp_alloc(&sp, 4);
    sp.cap = calloc(4, sizeof(double));
    CHECK(nv_sub_build(&sp, -1, -1, &t, 1, p, cw, ds, NULL, 4, NULL, &err) == NESVM_OK);
    CHECK(sp.n == 4);
    for (int a = 0; a < 4; a++)
        CHECK(sp.rows[a] == a && sp.y[a] == 1 && sp.cost[a] == 1 && sp.cap[a] == INFINITY);
    nv_targets_free(&t);
    sp_free(&sp);
    nesvm_params_destroy(p);
    nesvm_dataset_destroy(ds);
}

/* A linear model of task with w = (2, -1), b = 0.5: decision 2 x1 - x2 + 0.5. */
static nesvm_model *toy_model(nesvm_task task)
{
    nesvm_model *m = NULL;
    const int cls = task == NESVM_TASK_CLASSIFICATION;
    CHECK(nv_model_alloc(cls ? 2 : 0, 1, 2, 2, &m, NULL) == NESVM_OK);
    m->task = task;
    if (cls) {
        m->labels[0] = 1;
        m->labels[1] = -1;
    }
    snprintf(m->problem, sizeof m->problem, "c_svm_hinge_l2");
    m->params->bias = 1;
    m->sub[0].pos = cls ? 0 : -1;
    m->sub[0].neg = cls ? 1 : -1;
    m->sub[0].w[0] = 2;
    m->sub[0].w[1] = -1;
    m->sub[0].b = 0.5;
    return m;
}

/* The model text with `from` replaced by `to` (first occurrence), loaded. */
static nesvm_status load_edited(const char *text, const char *from, const char *to, nesvm_model **out,
                                nesvm_error *err)
{
    const char *at = strstr(text, from);
    CHECK(at != NULL);
    if (!at) return NESVM_ERR_ARG;
    size_t len = strlen(text) + strlen(to) + 1;
    char *buf = malloc(len);
    size_t pre = (size_t)(at - text);
    memcpy(buf, text, pre);
    strcpy(buf + pre, to);
    strcat(buf, at + strlen(from));
    nesvm_status st = nesvm_model_load_buffer(buf, strlen(buf), out, err);
    free(buf);
    return st;
}

/* Model files record the task (only when it is not classification), and
 * prediction follows it: a regression's decision value, novelty's +1 where
 * the decision value is > 0 (svm-predict's one-class rule: -1 at 0). */
static void test_model_task(void)
{
    /* decisions 1.5, -1.5, 6.5, 0 */
    const double x[8] = {1, 1, 0, 2, 3, 0, 0, 0.5}, y[4] = {1.5, -1, 6, 0};
    nesvm_dataset *ds = wrap(4, 2, x, y);
    const double want_dec[4] = {1.5, -1.5, 6.5, 0};
    const double want[3][4] = {{1, -1, 1, -1}, {1.5, -1.5, 6.5, 0}, {1, -1, 1, -1}};
    for (int task = 0; task < 3; task++) {
        nesvm_model *m = toy_model((nesvm_task)task), *back = NULL;
        char *text = NULL;
        size_t len = 0;
        nesvm_error err = {0};
        CHECK(nesvm_model_save_buffer(m, &text, &len, &err) == NESVM_OK);
        CHECK((strstr(text, "\ntask ") != NULL) == (task != 0));
        if (task == 1) CHECK_CONTAINS(text, "nr_class 0\nlabels\nnr_feature 2\ntask regression\n");
        if (task == 2) CHECK_CONTAINS(text, "\ntask novelty\n");
        if (task) CHECK_CONTAINS(text, "submodel 0 pos -1 neg -1 ");
        CHECK_MSG(nesvm_model_load_buffer(text, len, &back, &err) == NESVM_OK, "%s", err.message);
        CHECK(nesvm_model_task(back) == (nesvm_task)task);
        CHECK(nesvm_model_classes(back) == (task ? 0 : 2));
        double labels[4], dec[4];
        CHECK(nesvm_model_predict(back, ds, 1, labels, dec, &err) == NESVM_OK);
        for (int r = 0; r < 4; r++) {
            CHECK(dec[r] == want_dec[r]);
            CHECK_MSG(labels[r] == want[task][r], "task %d row %d: %g, expected %g", task, r, labels[r],
                      want[task][r]);
        }
        int pos = 0, neg = 0;
        CHECK(nesvm_model_linear(back, 0, NULL, NULL, &pos, &neg, NULL) == NESVM_OK);
        CHECK(task ? pos == -1 && neg == -1 : pos == 0 && neg == 1);
        double proba[8];
        if (task) {
            CHECK(nesvm_model_predict_proba(back, ds, 1, labels, proba, &err) == NESVM_ERR_UNSUPPORTED);
            CHECK_CONTAINS(err.message, "probability estimates are for classifiers");
            /* before the file is touched: a regression that is no SVR, a novelty model
             * (for LIBSVM: one that is no one-class SVM; LIBLINEAR has none) */
            CHECK(nesvm_model_export(back, "liblinear", "/nonexistent/x", &err) == NESVM_ERR_UNSUPPORTED);
            CHECK_CONTAINS(err.message, task == 1 ? "cannot be written for LIBLINEAR (its SVRs"
                                                  : "LIBLINEAR has no one-class SVM");
            CHECK(nesvm_model_export(back, "libsvm", "/nonexistent/x", &err) == NESVM_ERR_UNSUPPORTED);
            CHECK_CONTAINS(err.message, task == 1 ? "cannot be written for LIBSVM (its epsilon_svr"
                                                  : "cannot be written for LIBSVM or LIBLINEAR");
            nesvm_model *bad = NULL;
            /* a task's model file must have no classes and pos = neg = -1 */
            CHECK(load_edited(text, "nr_class 0\nlabels\n", "nr_class 2\nlabels 1 -1\n", &bad, &err) ==
                  NESVM_ERR_MODEL);
            CHECK_CONTAINS(err.message, "nr_class 2 does not fit the task");
            CHECK(load_edited(text, "pos -1 neg -1", "pos 0 neg -1", &bad, &err) == NESVM_ERR_MODEL);
            CHECK_CONTAINS(err.message, "bad class indices");
            CHECK(load_edited(text, task == 1 ? "task regression" : "task novelty", "task svr", &bad, &err) ==
                  NESVM_ERR_MODEL);
            CHECK_CONTAINS(err.message,
                           "unknown task 'svr' (expected classification, regression or novelty)");
            /* without its task line the file claims a classifier with no classes */
            CHECK(load_edited(text, task == 1 ? "task regression\n" : "task novelty\n", "", &bad, &err) ==
                  NESVM_ERR_MODEL);
            CHECK_CONTAINS(err.message, "nr_class 0 does not fit the task classification");
            CHECK(bad == NULL);
        } else {
            /* an explicit "task classification" line is the default */
            nesvm_model *same = NULL;
            CHECK(load_edited(text, "nr_feature 2\n", "nr_feature 2\ntask classification\n", &same, &err) ==
                  NESVM_OK);
            CHECK(nesvm_model_task(same) == NESVM_TASK_CLASSIFICATION);
            nesvm_model_destroy(same);
        }
        nesvm_free(text);
        nesvm_model_destroy(back);
        nesvm_model_destroy(m);
    }
    CHECK(nesvm_model_task(NULL) == NESVM_TASK_CLASSIFICATION);
    nesvm_dataset_destroy(ds);
}

/* The figures against a hand computation: truth 1 2 3 4, predictions
 * 1.5 2 2.5 5: one equal (accuracy 0.25); errors .5 0 -.5 1, MSE 1.5/4;
 * sums p 11, t 10, pp 37.5, tt 30, pt 33: SCC = (4 x 33 - 110)^2 /
 * ((4 x 37.5 - 121)(4 x 30 - 100)) = 484 / 580. */
static void test_metrics(void)
{
    const double t[4] = {1, 2, 3, 4}, p[4] = {1.5, 2, 2.5, 5};
    nesvm_metrics m;
    nesvm_error err = {0};
    CHECK(nesvm_metrics_compute(NESVM_TASK_REGRESSION, t, p, 4, &m, &err) == NESVM_OK);
    CHECK(m.task == NESVM_TASK_REGRESSION && m.rows == 4 && m.correct == 1);
    CHECK(m.accuracy == 0.25);
    CHECK(m.mse == 0.375);
    CHECK_REL(m.scc, 484.0 / 580.0, 1e-15);
    /* the same from two halves' sums (folds, ranks) */
    nv_metric_sums a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    nv_metric_add(&a, t[0], p[0]);
    nv_metric_add(&a, t[1], p[1]);
    nv_metric_add(&b, t[2], p[2]);
    nv_metric_add(&b, t[3], p[3]);
    nv_metric_merge(&a, &b);
    nesvm_metrics h;
    nv_metrics_finish(&a, NESVM_TASK_REGRESSION, &h);
    CHECK(h.rows == 4 && h.correct == 1 && h.mse == m.mse && h.scc == m.scc);
    CHECK(NV_METRIC_SUMS_LEN == 8);
    /* classification and novelty: the accuracy alone */
    CHECK(nesvm_metrics_compute(NESVM_TASK_CLASSIFICATION, t, p, 4, &m, &err) == NESVM_OK);
    CHECK(m.accuracy == 0.25 && isnan(m.mse) && isnan(m.scc));
    const double lt[5] = {1, -1, 1, 1, -1}, lp[5] = {1, 1, 1, -1, -1};
    CHECK(nesvm_metrics_compute(NESVM_TASK_NOVELTY, lt, lp, 5, &m, &err) == NESVM_OK);
    CHECK(m.correct == 3 && m.accuracy == 0.6 && isnan(m.mse));
    /* constant predictions: no correlation (LIBSVM divides by zero) */
    const double c[4] = {2, 2, 2, 2};
    CHECK(nesvm_metrics_compute(NESVM_TASK_REGRESSION, t, c, 4, &m, &err) == NESVM_OK);
    CHECK(m.mse == (1.0 + 0 + 1 + 4) / 4 && isnan(m.scc));
    /* perfect predictions */
    CHECK(nesvm_metrics_compute(NESVM_TASK_REGRESSION, t, t, 4, &m, &err) == NESVM_OK);
    CHECK(m.mse == 0 && m.scc == 1 && m.accuracy == 1);
    CHECK(nesvm_metrics_compute(NESVM_TASK_REGRESSION, NULL, NULL, 0, &m, &err) == NESVM_OK);
    CHECK(m.rows == 0 && isnan(m.accuracy) && isnan(m.mse));
    CHECK(nesvm_metrics_compute(NESVM_TASK_REGRESSION, NULL, p, 4, &m, &err) == NESVM_ERR_ARG);
}

/* The cross-validation calls with figures give a classification the
 * accuracy (and predictions) of the calls without them. */
static void test_cv_metrics(void)
{
    enum { N = 60 };
    double x[2 * N], y[N];
    uint64_t rs = 3;
    for (int r = 0; r < N; r++) {
        y[r] = r % 3 ? 1 : -1;
        x[2 * r] = y[r] + 1.5 * (nv_rng_uniform(&rs) - 0.5);
        x[2 * r + 1] = nv_rng_uniform(&rs);
    }
    nesvm_dataset *ds = wrap(N, 2, x, y);
    nesvm_params *p = params_with("c", "0.5");
    double pred[N], pred2[N], acc = 0;
    nesvm_metrics m;
    nesvm_error err = {0};
    CHECK(nesvm_cross_validate(ds, p, 4, 7, NULL, NULL, pred, &acc, &err) == NESVM_OK);
    CHECK_MSG(nesvm_cross_validate_metrics(ds, p, 4, 7, NULL, NULL, NULL, pred2, &m, &err) == NESVM_OK, "%s",
              err.message);
    CHECK(m.task == NESVM_TASK_CLASSIFICATION && m.rows == N && m.accuracy == acc && isnan(m.mse));
    int64_t correct = 0;
    for (int r = 0; r < N; r++) {
        CHECK(pred[r] == pred2[r]);
        correct += pred[r] == y[r];
    }
    CHECK(m.correct == correct && acc > 0.5);
    const double cs[3] = {0.1, 1, 10};
    double accs[3];
    nesvm_metrics ms[3];
    int64_t it[3], it2[3];
    CHECK(nesvm_cross_validate_path(ds, p, 4, 7, "c", cs, 3, 1, NULL, NULL, accs, it, &err) == NESVM_OK);
    CHECK(nesvm_cross_validate_path_metrics(ds, p, 4, 7, "c", cs, 3, 1, NULL, NULL, NULL, ms, it2, &err) ==
          NESVM_OK);
    for (int c = 0; c < 3; c++) CHECK(ms[c].accuracy == accs[c] && ms[c].rows == N && it[c] == it2[c]);
    /* a build without MPI refuses a communicator; NULL arguments */
    if (!nesvm_have_mpi()) {
        int dummy = 0;
        CHECK(nesvm_cross_validate_metrics(ds, p, 4, 7, &dummy, NULL, NULL, pred2, &m, &err) ==
              NESVM_ERR_UNSUPPORTED);
    }
    CHECK(nesvm_cross_validate_metrics(ds, p, 4, 7, NULL, NULL, NULL, pred2, NULL, &err) == NESVM_ERR_ARG);
    nesvm_params_destroy(p);
    nesvm_dataset_destroy(ds);
}

/* nesvm_roc_auc against the definition counted pair by pair (a positive's
 * score above a negative's: 1, equal: 1/2), with ties; NaN for one or three
 * labels; the cross-validated AUC of a one-class SVM (cv.c keeps every
 * row's decision value): its folds do not depend on the labels, so swapping
 * the labels gives 1 - AUC, and rows apart from the rest give 1. */
static void test_roc_auc(void)
{
    enum { N = 41 };
    double lab[N], sc[N];
    uint64_t rs = 5;
    for (int i = 0; i < N; i++) {
        lab[i] = nv_rng_uniform(&rs) < 0.4 ? 3 : -2;
        sc[i] = floor(8 * nv_rng_uniform(&rs)); /* many ties */
    }
    double wins = 0, pairs = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            if (lab[i] == 3 && lab[j] == -2) {
                wins += sc[i] > sc[j] ? 1 : sc[i] == sc[j] ? 0.5 : 0;
                pairs += 1;
            }
    double auc = 0, pos = 0;
    nesvm_error err = {0};
    CHECK(nesvm_roc_auc(lab, sc, N, &auc, &pos, &err) == NESVM_OK);
    CHECK_REL(auc, wins / pairs, 1e-15);
    CHECK(pos == 3 && pairs > 0 && auc > 0 && auc < 1);
    const double one[3] = {1, 1, 1}, three[3] = {1, 2, 3};
    CHECK(nesvm_roc_auc(one, sc, 3, &auc, NULL, &err) == NESVM_OK && isnan(auc));
    CHECK(nesvm_roc_auc(three, sc, 3, &auc, NULL, &err) == NESVM_OK && isnan(auc));
    CHECK(nesvm_roc_auc(NULL, sc, 3, &auc, NULL, &err) == NESVM_ERR_ARG);

    enum { M = 80 };
    double x[2 * M], y[M], ys[M];
    for (int r = 0; r < M; r++) {
        const int out = r % 5 == 0; /* outliers: far from the rest and from each other */
        y[r] = out ? -1 : 1;
        ys[r] = -y[r];
        x[2 * r] = (out ? 10 + 3 * r : 0) + nv_rng_uniform(&rs);
        x[2 * r + 1] = (out ? -10 - 3 * r : 0) + nv_rng_uniform(&rs);
    }
    nesvm_params *p = params_with("svm_type", "one-class");
    CHECK(nesvm_params_set(p, "kernel", "rbf", &err) == NESVM_OK && nesvm_params_set(p, "gamma", "0.5", &err) ==
          NESVM_OK && nesvm_params_set(p, "svm_nu", "0.3", &err) == NESVM_OK);
    nesvm_metrics m, ms;
    nesvm_dataset *ds = wrap(M, 2, x, y), *dss = wrap(M, 2, x, ys);
    CHECK_MSG(nesvm_cross_validate_metrics(ds, p, 4, 7, NULL, NULL, NULL, NULL, &m, &err) == NESVM_OK, "%s",
              err.message);
    CHECK(nesvm_cross_validate_metrics(dss, p, 4, 7, NULL, NULL, NULL, NULL, &ms, &err) == NESVM_OK);
    CHECK_MSG(m.task == NESVM_TASK_NOVELTY && m.auc == 1.0 && ms.auc == 0.0, "auc %g, swapped %g, acc %g", m.auc, ms.auc, m.accuracy);
    /* some inliers as far out as outliers: an AUC strictly inside */
    for (int r = 0; r < M; r++)
        if (r % 7 == 1) x[2 * r] = 40 + 3 * r;
    nesvm_dataset_destroy(ds);
    nesvm_dataset_destroy(dss);
    ds = wrap(M, 2, x, y);
    dss = wrap(M, 2, x, ys);
    CHECK(nesvm_cross_validate_metrics(ds, p, 4, 7, NULL, NULL, NULL, NULL, &m, &err) == NESVM_OK);
    CHECK(nesvm_cross_validate_metrics(dss, p, 4, 7, NULL, NULL, NULL, NULL, &ms, &err) == NESVM_OK);
    CHECK_MSG(m.auc > 0 && m.auc < 1 && fabs(m.auc + ms.auc - 1) <= 1e-12, "auc %g and swapped %g", m.auc, ms.auc);
    /* a classification has none */
    nesvm_params_destroy(p);
    p = params_with("c", "1");
    CHECK(nesvm_cross_validate_metrics(ds, p, 4, 7, NULL, NULL, NULL, NULL, &m, &err) == NESVM_OK && isnan(m.auc));
    nesvm_params_destroy(p);
    nesvm_dataset_destroy(ds);
    nesvm_dataset_destroy(dss);
}

int main(void)
{
    test_table();
    test_classification();
    test_regression();
    test_novelty();
    test_model_task();
    test_metrics();
    test_cv_metrics();
    test_roc_auc();
    CHECK_DONE();
}
