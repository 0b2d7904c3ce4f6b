/* test_linalg.c - X*w and X^T*a against naive dense loops, all storages, threads. */
#include "../../src/linalg/linalg.h"
#include "../../src/linalg/cg.h"
#include "../../src/linalg/fmat.h"
#include "check.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

#define N 3000
#define D 37

static double Xd[N][D];
static double labels[N];

/* Build a random sparse matrix as an owned CSR dataset (about 30% fill). */
static nesvm_dataset *make(uint64_t *st)
{
    int64_t *indptr = malloc((N + 1) * sizeof *indptr);
    int32_t *idx = malloc((size_t)N * D * sizeof *idx);
    double *val = malloc((size_t)N * D * sizeof *val);
    double *lab = malloc(N * sizeof *lab);
    int64_t nnz = 0;
    indptr[0] = 0;
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < D; j++) {
            Xd[i][j] = 0;
            if (nv_rng_uniform(st) < 0.3) {
                double v = (double)(float)(nv_rng_uniform(st) * 4 - 2); /* exact in float */
                Xd[i][j] = v;
                idx[nnz] = j;
                val[nnz++] = v;
            }
        }
        indptr[i + 1] = nnz;
        lab[i] = labels[i] = i % 3 ? 1 : -1;
    }
    nesvm_dataset *ds = NULL;
    nv_dataset_from_csr(N, D, indptr, idx, val, NESVM_DOUBLE, lab, &ds, NULL);
    return ds;
}

/* A few of k vectors at once (nv_row_dot_cols, nv_row_axpy_cols) against the
 * naive loops on Xd: vectors ld apart (ld > D), column sets of every size
 * from 0 to KV, odd and even (the pairs and the single vector's sums). */
static void check_cols(const nesvm_dataset *ds, const char *what)
{
    enum { KV = 5, LD = D + 3 };
    static double W[KV * LD], W2[KV * LD];
    const int cl[KV] = {3, 0, 4, 1, 2};
    double out[KV], a[KV];
    uint64_t st = 5;
    for (int j = 0; j < KV * LD; j++) W[j] = nv_rng_uniform(&st) - 0.5;
    for (int c = 0; c < KV; c++) a[c] = nv_rng_uniform(&st) - 0.5;
    double maxerr = 0;
    for (int i = 0; i < N; i += 7)
        for (int na = 0; na <= KV; na++) {
            nv_row_dot_cols(ds, i, W, LD, cl, na, out);
            for (int c = 0; c < na; c++) {
                double sx = 0;
                for (int j = 0; j < D; j++) sx += Xd[i][j] * W[cl[c] * LD + j];
                maxerr = fmax(maxerr, fabs(out[c] - sx));
            }
            memcpy(W2, W, sizeof W);
            nv_row_axpy_cols(ds, i, a, cl, na, W2, LD);
            for (int m = 0; m < KV; m++) {
                int c = 0;
                while (c < na && cl[c] != m) c++;
                for (int j = 0; j < LD; j++) {
                    const double want = W[m * LD + j] + (c < na && j < D ? a[c] * Xd[i][j] : 0.0);
                    maxerr = fmax(maxerr, fabs(W2[m * LD + j] - want));
                }
            }
        }
    CHECK_MSG(maxerr < 1e-13, "row_dot_cols / row_axpy_cols %s: err %g", what, maxerr);
}

/* The float copy (fmat.h) of the rows idx-mapped through rows: products
 * against the naive loops on Xd (the values are exact in float), the same
 * copy from every storage (ref: the first one built), the thread counts. */
static void check_fmat(const nesvm_dataset *ds, size_t kind, const int64_t *rows, int64_t nr)
{
    static int64_t refs_ptr[2][N + 1];
    static float refs_val[2][N * D];
    static uint16_t refs_col[2][N * D];
    /* kinds 0-3: the storages' copies of rows; 4-7: of all rows */
    int64_t *ref_ptr = refs_ptr[kind / 4];
    float *ref_val = refs_val[kind / 4];
    uint16_t *ref_col = refs_col[kind / 4];
    static double hw[N], t1[N], t2[N];
    static int64_t idx[N];
    nv_fmat F;
    CHECK(nv_fmat_build(&F, ds, rows, nr, NULL) == NESVM_OK);
    CHECK(F.n == nr && F.d == D && F.col);
    const int64_t nnz = F.ptr[nr];
    CHECK_MSG(nv_fmat_bytes(ds, rows, nr) >= (double)nnz * 6.0 + 8.0 * (double)(nr + 1),
              "fmat_bytes below the copy's size (kind %zu)", kind);
    if (kind % 4 == 0) {
        memcpy(ref_ptr, F.ptr, (size_t)(nr + 1) * sizeof *ref_ptr);
        memcpy(ref_val, F.val, (size_t)nnz * sizeof *ref_val);
        memcpy(ref_col, F.col, (size_t)nnz * sizeof *ref_col);
    }
    CHECK_MSG(memcmp(ref_ptr, F.ptr, (size_t)(nr + 1) * sizeof *ref_ptr) == 0 &&
                  memcmp(ref_val, F.val, (size_t)nnz * sizeof *ref_val) == 0 &&
                  memcmp(ref_col, F.col, (size_t)nnz * sizeof *ref_col) == 0,
              "fmat of storage kind %zu differs from kind %zu's", kind, kind / 4 * 4);
    uint64_t st = 13;
    double v[D], o1[D], o2[D];
    for (int j = 0; j < D; j++) v[j] = nv_rng_uniform(&st) - 0.5;
    const int64_t m = nr - 3; /* a permuted subset of the copy's rows */
    for (int64_t k = 0; k < m; k++) {
        idx[k] = (k * 7 + 2) % nr;
        hw[k] = k % 5 == 0 ? 0.0 : nv_rng_uniform(&st);
    }
    double maxerr = 0;
    for (int threads = 1; threads <= 3; threads++) {
        nv_linalg_ws ws;
        CHECK(nv_linalg_ws_init(&ws, threads, D, NULL) == NESVM_OK);
        ws.min_work = 0;
        nv_fmat_xtdx(&F, idx, m, hw, v, -0.25, t1, o1, &ws);
        nv_fmat_xtdx(&F, idx, m, hw, v, -0.25, t2, o2, &ws);
        CHECK_MSG(memcmp(t1, t2, (size_t)m * sizeof *t1) == 0 && memcmp(o1, o2, sizeof o1) == 0,
                  "fmat_xtdx threads %d: two calls differ", threads);
        for (int64_t k = 0; k < m; k++) {
            const double *x = Xd[rows ? rows[idx[k]] : idx[k]];
            double s = -0.25;
            for (int j = 0; j < D; j++) s += x[j] * v[j];
            maxerr = fmax(maxerr, fabs(t1[k] - hw[k] * s));
        }
        for (int j = 0; j < D; j++) {
            double sx = 0;
            for (int64_t k = 0; k < m; k++) sx += t1[k] * Xd[rows ? rows[idx[k]] : idx[k]][j];
            maxerr = fmax(maxerr, fabs(o1[j] - sx));
        }
        nv_linalg_ws_free(&ws);
    }
    nv_fmat_col_sq(&F, idx, m, hw, o1);
    for (int j = 0; j < D; j++) {
        double sx = 0;
        for (int64_t k = 0; k < m; k++) {
            const double x = Xd[rows ? rows[idx[k]] : idx[k]][j];
            sx += hw[k] * x * x;
        }
        maxerr = fmax(maxerr, fabs(o1[j] - sx));
    }
    CHECK_MSG(maxerr < 1e-9, "fmat xtdx / col_sq kind %zu err %g", kind, maxerr);
    int row_ok = 1;
    float a[D];
    for (int64_t i = 0; i < nr; i += 11) {
        nv_fmat_row(&F, i, 0.5f, a);
        for (int j = 0; j < D; j++) row_ok &= a[j] == 0.5f * (float)Xd[rows ? rows[i] : i][j];
    }
    CHECK_MSG(row_ok, "fmat_row kind %zu", kind);
    nv_fmat_free(&F);
    CHECK(F.ptr == NULL && F.n == 0);
}

/* The float copy at its widest (NV_FMAT_D_MAX columns: the last one is
 * 65535 in 16 bits), with an explicit zero (dropped) and an empty row. */
static void check_fmat_wide(void)
{
    enum { WN = 4, WD = NV_FMAT_D_MAX };
    int64_t *ip = malloc((WN + 1) * sizeof *ip);
    int32_t *ix = malloc(6 * sizeof *ix);
    double *vx = malloc(6 * sizeof *vx);
    double *lab = malloc(WN * sizeof *lab);
    const int64_t ptr[WN + 1] = {0, 3, 3, 5, 6};
    const int32_t col[6] = {1, 40000, WD - 1, 0, WD - 2, WD - 1};
    const double val[6] = {1.5, -2.0, 0.0, 4.0, 0.25, -1.0};
    memcpy(ip, ptr, sizeof ptr);
    memcpy(ix, col, sizeof col);
    memcpy(vx, val, sizeof val);
    for (int i = 0; i < WN; i++) lab[i] = i % 2 ? 1 : -1;
    nesvm_dataset *ds = NULL;
    CHECK(nv_dataset_from_csr(WN, WD, ip, ix, vx, NESVM_DOUBLE, lab, &ds, NULL) == NESVM_OK);
    nv_fmat F;
    CHECK(nv_fmat_build(&F, ds, NULL, WN, NULL) == NESVM_OK);
    CHECK(F.col && F.ptr[WN] == 5); /* the explicit zero dropped */
    double *v = calloc(WD, sizeof *v), *o = calloc(WD, sizeof *o), h[WN] = {1, 2, 0.5, 3}, t[WN];
    for (int j = 0; j < WD; j++) v[j] = (double)(j % 13) - 6;
    nv_linalg_ws ws;
    CHECK(nv_linalg_ws_init(&ws, 1, WD, NULL) == NESVM_OK);
    nv_fmat_xtdx(&F, NULL, WN, h, v, 1.0, t, o, &ws);
    double maxerr = 0;
    for (int i = 0; i < WN; i++) {
        double s = 1.0;
        for (int64_t p = ptr[i]; p < ptr[i + 1]; p++) s += val[p] * v[col[p]];
        maxerr = fmax(maxerr, fabs(t[i] - h[i] * s));
    }
    double want[6] = {0};
    for (int i = 0; i < WN; i++)
        for (int64_t p = ptr[i]; p < ptr[i + 1]; p++) want[p] = t[i] * val[p];
    for (int p = 0; p < 6; p++)
        if (val[p] != 0.0) maxerr = fmax(maxerr, fabs(o[col[p]] - want[p]));
    CHECK_MSG(maxerr < 1e-12, "fmat wide err %g", maxerr);
    float *a = malloc(WD * sizeof *a);
    nv_fmat_row(&F, 2, 2.0f, a);
    CHECK(a[0] == 8.0f && a[WD - 2] == 0.5f && a[1] == 0.0f);
    nv_fmat_row(&F, 1, 2.0f, a);
    int zero = 1;
    for (int j = 0; j < WD; j++) zero &= a[j] == 0.0f;
    CHECK(zero);
    nv_linalg_ws_free(&ws);
    nv_fmat_free(&F);
    /* a value beyond float's range: refused, nothing kept */
    ((double *)ds->values)[4] = 1e39;
    nesvm_error e;
    CHECK(nv_fmat_build(&F, ds, NULL, WN, &e) == NESVM_ERR_NUMERIC && F.ptr == NULL && F.val == NULL &&
          F.col == NULL && strstr(e.message, "row 2"));
    free(v);
    free(o);
    free(a);
    nesvm_dataset_destroy(ds);
}

/* nv_cg on a small SPD system against Gaussian elimination */
#define CN 6
static double cgA[CN][CN];

static nesvm_status cg_apply(void *ctx, const double *p, double *ap)
{
    int ncol = *(int *)ctx;
    for (int c = 0; c < ncol; c++)
        for (int i = 0; i < CN; i++) {
            double s = 0;
            for (int j = 0; j < CN; j++) s += cgA[i][j] * p[j * ncol + c];
            ap[i * ncol + c] = s;
        }
    return NESVM_OK;
}

static void cg_jacobi(void *ctx, const double *r, double *z, int c)
{
    int ncol = *(int *)ctx;
    for (int i = 0; i < CN; i++) z[i * ncol + c] = r[i * ncol + c] / cgA[i][i];
}

/* x = A^-1 b by Gaussian elimination (A SPD: no pivoting needed) */
static void solve_direct(const double *b, double *x)
{
    double M[CN][CN + 1];
    for (int i = 0; i < CN; i++) {
        for (int j = 0; j < CN; j++) M[i][j] = cgA[i][j];
        M[i][CN] = b[i];
    }
    for (int k = 0; k < CN; k++)
        for (int i = k + 1; i < CN; i++) {
            double f = M[i][k] / M[k][k];
            for (int j = k; j <= CN; j++) M[i][j] -= f * M[k][j];
        }
    for (int i = CN - 1; i >= 0; i--) {
        double s = M[i][CN];
        for (int j = i + 1; j < CN; j++) s -= M[i][j] * x[j];
        x[i] = s / M[i][i];
    }
}

static void test_cg(void)
{
    /* A = B^T B + I, SPD */
    uint64_t st = 99;
    double B[CN][CN];
    for (int i = 0; i < CN; i++)
        for (int j = 0; j < CN; j++) {
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            B[i][j] = (double)(st >> 11) / 9007199254740992.0 - 0.5;
        }
    for (int i = 0; i < CN; i++)
        for (int j = 0; j < CN; j++) {
            double s = i == j ? 1.0 : 0.0;
            for (int k = 0; k < CN; k++) s += B[k][i] * B[k][j];
            cgA[i][j] = s;
        }
    double b1[CN], b2[CN], want1[CN], want2[CN];
    for (int i = 0; i < CN; i++) {
        b1[i] = (double)(i + 1);
        b2[i] = i % 2 ? -1.0 : 2.0;
    }
    solve_direct(b1, want1);
    solve_direct(b2, want2);
    for (int pre = 0; pre < 2; pre++)
        for (int ncol = 1; ncol <= 2; ncol++) {
            double x[2 * CN], r[2 * CN], z[2 * CN], p[2 * CN], ap[2 * CN];
            for (int i = 0; i < CN; i++) {
                r[i * ncol] = b1[i];
                if (ncol == 2) r[i * ncol + 1] = b2[i];
            }
            nv_cg_ops ops = {&ncol, CN, ncol, cg_apply, NULL, pre ? cg_jacobi : NULL, 100, 1e-24,
                             NV_CG_SQUARED};
            nv_cg_result res;
            CHECK(nv_cg(&ops, x, r, pre ? z : r, p, ap, &res) == NESVM_OK);
            double err1 = 0, err2 = 0;
            for (int i = 0; i < CN; i++) {
                err1 = fmax(err1, fabs(x[i * ncol] - want1[i]));
                if (ncol == 2) err2 = fmax(err2, fabs(x[i * ncol + 1] - want2[i]));
            }
            CHECK_MSG(err1 < 1e-9 && err2 < 1e-9, "CG (precond %d, %d columns): error %g, %g", pre, ncol,
                      err1, err2);
            /* exact arithmetic ends in at most CN steps; allow a few more */
            CHECK_MSG(res.applies <= CN + 4 && !res.breakdown[0], "CG took %lld products",
                      (long long)res.applies);
        }
    /* the norm rule stops early at a loose tolerance: fewer products, a residual within it */
    {
        int ncol = 1;
        double x[CN], r[CN], p[CN], ap[CN];
        for (int i = 0; i < CN; i++) r[i] = b1[i];
        nv_cg_ops ops = {&ncol, CN, 1, cg_apply, NULL, NULL, 100, 0.5, NV_CG_NORM};
        nv_cg_result res;
        nv_cg(&ops, x, r, r, p, ap, &res);
        double rr = 0, bb = 0;
        for (int i = 0; i < CN; i++) {
            rr += r[i] * r[i];
            bb += b1[i] * b1[i];
        }
        CHECK(res.applies >= 1 && res.applies < CN && sqrt(rr) <= 0.5 * sqrt(bb));
    }
    /* an indefinite operator breaks down at once; x stays 0 */
    {
        int ncol = 1;
        for (int i = 0; i < CN; i++) cgA[i][i] = -cgA[i][i] - 10.0;
        double x[CN], r[CN], p[CN], ap[CN];
        for (int i = 0; i < CN; i++) r[i] = b1[i];
        nv_cg_ops ops = {&ncol, CN, 1, cg_apply, NULL, NULL, 100, 1e-24, NV_CG_SQUARED};
        nv_cg_result res;
        nv_cg(&ops, x, r, r, p, ap, &res);
        int zero = 1;
        for (int i = 0; i < CN; i++) zero &= x[i] == 0;
        CHECK(res.breakdown[0] && res.completed[0] == 0 && zero);
    }
}

int main(void)
{
    test_cg();
    check_fmat_wide();
    uint64_t st = 7;
    double w[D], a[N], ref_xw[N], ref_p[D], ref_n[D], ref_all[D];
    double out[N], op[D], on[D], op2[D], on2[D];
    int64_t rows[N / 2];
    for (int i = 0; i < N / 2; i++) rows[i] = 2 * i + 1;
    for (int j = 0; j < D; j++) w[j] = nv_rng_uniform(&st) - 0.5;
    for (int i = 0; i < N; i++) a[i] = i % 5 == 0 ? 0.0 : nv_rng_uniform(&st);

    const struct { nesvm_storage s; nesvm_precision p; } kinds[] = {
        {NESVM_STORAGE_CSR, NESVM_DOUBLE}, {NESVM_STORAGE_CSR, NESVM_FLOAT},
        {NESVM_STORAGE_DENSE, NESVM_DOUBLE}, {NESVM_STORAGE_DENSE, NESVM_FLOAT}};
    for (size_t kk = 0; kk < 4; kk++) {
        uint64_t s2 = 11;
        nesvm_dataset *ds = make(&s2);
        CHECK(nv_dataset_convert(ds, kinds[kk].s, kinds[kk].p, 0.5, NULL) == NESVM_OK);
        CHECK(ds->storage == kinds[kk].s && ds->prec == kinds[kk].p);
        for (int threads = 1; threads <= 3; threads++) {
            nv_linalg_ws ws;
            CHECK(nv_linalg_ws_init(&ws, threads, D, NULL) == NESVM_OK);
            ws.min_work = 0; /* thread even these small products */
            /* all rows */
            nv_xw(ds, NULL, N, w, 0.25, out, &ws);
            double maxerr = 0;
            for (int i = 0; i < N; i++) {
                double s = 0.25;
                for (int j = 0; j < D; j++) s += Xd[i][j] * w[j];
                ref_xw[i] = s;
                maxerr = fmax(maxerr, fabs(out[i] - s));
            }
            CHECK_MSG(maxerr < 1e-12, "xw kind %zu threads %d err %g", kk, threads, maxerr);
            nv_xta(ds, NULL, N, a, labels, op, on, &ws);
            nv_xta(ds, NULL, N, a, NULL, op2, NULL, &ws);
            maxerr = 0;
            for (int j = 0; j < D; j++) {
                ref_p[j] = ref_n[j] = ref_all[j] = 0;
                for (int i = 0; i < N; i++) {
                    if (labels[i] > 0) ref_p[j] += a[i] * Xd[i][j];
                    else ref_n[j] += a[i] * Xd[i][j];
                    ref_all[j] += a[i] * Xd[i][j];
                }
                maxerr = fmax(maxerr, fabs(op[j] - ref_p[j]));
                maxerr = fmax(maxerr, fabs(on[j] - ref_n[j]));
                maxerr = fmax(maxerr, fabs(op2[j] - ref_all[j]));
            }
            CHECK_MSG(maxerr < 1e-10, "xta kind %zu threads %d err %g", kk, threads, maxerr);
            /* same thread count twice: bit-identical */
            nv_xta(ds, NULL, N, a, labels, op2, on2, &ws);
            CHECK(memcmp(op, op2, sizeof op) == 0 && memcmp(on, on2, sizeof on) == 0);
            /* row subset */
            nv_xw(ds, rows, N / 2, w, 0.0, out, &ws);
            maxerr = 0;
            for (int i = 0; i < N / 2; i++) maxerr = fmax(maxerr, fabs(out[i] - (ref_xw[rows[i]] - 0.25)));
            CHECK(maxerr < 1e-12);
            nv_xta(ds, rows, N / 2, a, NULL, op, NULL, &ws);
            maxerr = 0;
            for (int j = 0; j < D; j++) {
                double s = 0;
                for (int i = 0; i < N / 2; i++) s += a[i] * Xd[rows[i]][j];
                maxerr = fmax(maxerr, fabs(op[j] - s));
            }
            CHECK(maxerr < 1e-10);
            /* the fused Gram product (nv_xtdx) is nv_xw, the weights and
             * nv_xta's sum bit for bit, and the naive loops' to rounding */
            {
                static double hw[N / 2], t1[N / 2], t2[N / 2];
                double o1[D], o2[D];
                for (int i = 0; i < N / 2; i++) hw[i] = i % 7 == 0 ? 0.0 : nv_rng_uniform(&st);
                nv_xtdx(ds, rows, N / 2, hw, w, 0.125, t1, o1, &ws);
                nv_xw(ds, rows, N / 2, w, 0.125, t2, &ws);
                for (int i = 0; i < N / 2; i++) t2[i] *= hw[i];
                nv_xta(ds, rows, N / 2, t2, NULL, o2, NULL, &ws);
                CHECK_MSG(memcmp(t1, t2, sizeof t1) == 0 && memcmp(o1, o2, sizeof o1) == 0,
                          "xtdx kind %zu threads %d: not nv_xw + nv_xta bit for bit", kk, threads);
                maxerr = 0;
                for (int j = 0; j < D; j++) {
                    double sx = 0;
                    for (int i = 0; i < N / 2; i++) sx += hw[i] * (ref_xw[rows[i]] - 0.25 + 0.125) * Xd[rows[i]][j];
                    maxerr = fmax(maxerr, fabs(o1[j] - sx));
                }
                CHECK_MSG(maxerr < 1e-9, "xtdx kind %zu threads %d err %g", kk, threads, maxerr);
            }
            /* k columns at once (nv_xw_k, nv_xta_k) against the naive loops:
             * the row subset, a bias per column, rows of A all zero, squares */
            {
                enum { KC = 3 };
                static double Wt[D * KC], A[N * KC], o1[N * KC], T[D * KC], part[3 * D * KC];
                double bk[KC] = {0.5, -1, 0};
                for (int j = 0; j < D * KC; j++) Wt[j] = nv_rng_uniform(&st) - 0.5;
                for (int i = 0; i < N * KC; i++) A[i] = (i / KC) % 4 == 0 ? 0.0 : nv_rng_uniform(&st) - 0.3;
                nv_xw_k(ds, rows, N / 2, Wt, KC, bk, o1, &ws);
                maxerr = 0;
                for (int i = 0; i < N / 2; i++)
                    for (int m = 0; m < KC; m++) {
                        double sx = bk[m];
                        for (int j = 0; j < D; j++) sx += Xd[rows[i]][j] * Wt[j * KC + m];
                        maxerr = fmax(maxerr, fabs(o1[i * KC + m] - sx));
                    }
                CHECK_MSG(maxerr < 1e-12, "xw_k kind %zu threads %d err %g", kk, threads, maxerr);
                for (int sq = 0; sq < 2; sq++) {
                    nv_xta_k(ds, rows, N / 2, A, KC, sq, T, threads > 1 ? part : NULL, &ws);
                    maxerr = 0;
                    for (int j = 0; j < D; j++)
                        for (int m = 0; m < KC; m++) {
                            double sx = 0;
                            for (int i = 0; i < N / 2; i++)
                                sx += A[i * KC + m] * (sq ? Xd[rows[i]][j] * Xd[rows[i]][j] : Xd[rows[i]][j]);
                            maxerr = fmax(maxerr, fabs(T[j * KC + m] - sx));
                        }
                    CHECK_MSG(maxerr < 1e-10, "xta_k kind %zu threads %d squares %d err %g", kk, threads, sq, maxerr);
                }
            }
            nv_linalg_ws_free(&ws);
        }
        check_cols(ds, "");
        check_fmat(ds, kk, rows, N / 2);
        check_fmat(ds, kk + 4, NULL, N);
        if (kinds[kk].s == NESVM_STORAGE_DENSE && kinds[kk].p == NESVM_DOUBLE) {
            ds->blas_rows = 1; /* the BLAS path of internal feature matrices */
            check_cols(ds, "blas rows");
            ds->blas_rows = 0;
        }
        if (kinds[kk].s == NESVM_STORAGE_CSR) {
            /* 64-bit column indices (nesvm_dataset_wrap_csr_ex) */
            int64_t *i64 = malloc((size_t)ds->nnz * sizeof *i64);
            for (int64_t p = 0; p < ds->nnz; p++) i64[p] = ds->indices[p];
            nesvm_dataset *w64 = NULL;
            CHECK(nesvm_dataset_wrap_csr_ex(N, D, ds->indptr, 64, i64, 64, ds->values, kinds[kk].p, labels,
                                            &w64, NULL) == NESVM_OK);
            CHECK(w64 && w64->indices64);
            check_cols(w64, "64-bit indices");
            nesvm_dataset_destroy(w64);
            free(i64);
        }
        /* row norms */
        double inf[N], sq[N];
        nv_row_norms(ds, NULL, N, inf, sq);
        int ok = 1;
        for (int i = 0; i < N; i++) {
            double m = 0, s = 0;
            for (int j = 0; j < D; j++) {
                m = fmax(m, fabs(Xd[i][j]));
                s += Xd[i][j] * Xd[i][j];
            }
            if (inf[i] != m || fabs(sq[i] - s) > 1e-12) ok = 0;
        }
        CHECK(ok);
        /* the rows with LIBLINEAR's bias feature (nv_dataset_with_const): the
         * storage and precision kept, row i = [x_{rows[i]}, B], its label;
         * B = 0.1 is not a float: the float copy stores (float)0.1 */
        {
            nesvm_dataset *z = NULL;
            const double B = 0.1, Bs = kinds[kk].p == NESVM_FLOAT ? (double)(float)B : B;
            CHECK(nv_dataset_with_const(ds, rows, N / 2, B, &z, NULL) == NESVM_OK);
            CHECK(z && z->n == N / 2 && z->d == D + 1 && z->storage == ds->storage && z->prec == ds->prec);
            double wz[D + 1], oz[N / 2];
            for (int j = 0; j < D; j++) wz[j] = w[j];
            wz[D] = 3.0;
            nv_linalg_ws ws1;
            CHECK(nv_linalg_ws_init(&ws1, 1, D + 1, NULL) == NESVM_OK);
            nv_xw(z, NULL, N / 2, wz, 0.0, oz, &ws1);
            double maxerr = 0;
            int lab_ok = 1;
            for (int i = 0; i < N / 2; i++) {
                maxerr = fmax(maxerr, fabs(oz[i] - (ref_xw[rows[i]] - 0.25 + 3.0 * Bs)));
                lab_ok &= z->labels[i] == labels[rows[i]] && nv_row_value(z, i, D) == Bs;
            }
            CHECK_MSG(maxerr < 1e-12 && lab_ok, "with_const kind %zu err %g labels %d", kk, maxerr, lab_ok);
            nv_linalg_ws_free(&ws1);
            nesvm_dataset_destroy(z);
        }
        nesvm_dataset_destroy(ds);
    }
    CHECK_DONE();
}
