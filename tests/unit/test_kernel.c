/* test_kernel.c - kernel blocks (BLAS and sparse paths, float and double,
 * row subsets, mismatched widths) against a naive evaluation, and kernel
 * features: Phi Phi^T = K for the full kernel, the Nystrom identity on the
 * basis for a reduced one, and the expansion coefficients; the kernel
 * matrix operator, stored (double or single-precision products) and on the
 * fly. */
#include "../../src/kernel/kernel.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

#define NX 37
#define NZ 23
#define DX 9
#define DZ 7

static double XV[NX * DX], ZV[NZ * DZ], LAB[NX + NZ];
static float XF[NX * DX];

/* naive kernel on dense rows (columns past a row's width are zero) */
static double naive(const nv_kernel *k, const double *a, int da, const double *b, int db)
{
    double dot = 0, sa = 0, sb = 0;
    for (int j = 0; j < da; j++) sa += a[j] * a[j];
    for (int j = 0; j < db; j++) sb += b[j] * b[j];
    for (int j = 0; j < (da < db ? da : db); j++) dot += a[j] * b[j];
    switch (k->type) {
    case NV_KERNEL_POLY: return pow(k->gamma * dot + k->coef0, k->degree);
    case NV_KERNEL_RBF: {
        double d2 = 0;
        for (int j = 0; j < (da > db ? da : db); j++) {
            double x = j < da ? a[j] : 0, z = j < db ? b[j] : 0;
            d2 += (x - z) * (x - z);
        }
        return exp(-k->gamma * d2);
    }
    case NV_KERNEL_SIGMOID: return tanh(k->gamma * dot + k->coef0);
    default: return dot;
    }
}

/* CSR copy of a dense matrix (zeros dropped) */
static nesvm_dataset *to_csr(const double *v, int n, int d, int64_t *ip, int32_t *ix, double *vx)
{
    int64_t nnz = 0;
    ip[0] = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < d; j++)
            if (v[i * d + j] != 0) {
                ix[nnz] = j;
                vx[nnz++] = v[i * d + j];
            }
        ip[i + 1] = nnz;
    }
    nesvm_dataset *ds;
    nesvm_dataset_wrap_csr(n, d, ip, ix, vx, LAB, &ds, NULL);
    return ds;
}

/* nv_kmat_init_fast: the stored values from single-precision products
 * against the naive kernel, within a bound of the float product's error
 * (Higham's gamma_{d+2} on sum |x_k z_k|, the rows rounded to float
 * included), carried through each kernel's function, plus the value's own
 * rounding to float; symmetric, the diagonal the double path's, and some
 * value unlike the double products' (the fast path was taken).  Dense and
 * CSR rows; CSR rows too sparse for a dense product keep double products
 * (equal to nv_kmat_init's); a value beyond float is refused. */
static void check_kmat_fast(void)
{
    enum { N = 160, D = 120 };
    static double V[N * D], L[N], vx[N * D];
    static int64_t ip[N + 1];
    static int32_t ix[N * D];
    uint64_t st = 99;
    for (int i = 0; i < N * D; i++) V[i] = nv_rng_uniform(&st) < 0.4 ? 0 : nv_rng_uniform(&st);
    for (int i = 0; i < N; i++) L[i] = i % 2 ? 1 : -1;
    nesvm_dataset *dd, *dc;
    nesvm_dataset_wrap_dense(N, D, V, L, &dd, NULL);
    int64_t nnz = 0;
    ip[0] = 0;
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < D; j++)
            if (V[i * D + j] != 0) ix[nnz] = j, vx[nnz++] = V[i * D + j];
        ip[i + 1] = nnz;
    }
    nesvm_dataset_wrap_csr(N, D, ip, ix, vx, L, &dc, NULL);
    const double u = ldexp(1.0, -24), gd = (D + 2) * u / (1 - (D + 2) * u);
    const nv_kernel ks[] = {{NV_KERNEL_RBF, 0.05, 0, 3}, {NV_KERNEL_POLY, 0.02, 0.5, 3}, {NV_KERNEL_LINEAR, 1, 0, 1},
                            {NV_KERNEL_SIGMOID, 0.01, -0.3, 3}};
    for (int kt = 0; kt < 4; kt++)
        for (int a = 0; a < 2; a++) {
            const nv_kernel *k = &ks[kt];
            nesvm_error err = {0};
            nv_kmat kf, kd;
            CHECK(nv_kmat_init_fast(&kf, k, a ? dc : dd, NULL, N, 64, 1, NULL, &err) == NESVM_OK && kf.K);
            CHECK(nv_kmat_init(&kd, k, a ? dc : dd, NULL, N, 64, 1, NULL, &err) == NESVM_OK && kd.K);
            double worst = 0;
            int differ = 0, sym = 1, diag = 1;
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++) {
                    const double *x = V + i * D, *z = V + j * D;
                    double dot = 0, sabs = 0;
                    for (int c = 0; c < D; c++) dot += x[c] * z[c], sabs += fabs(x[c] * z[c]);
                    const double dlt = gd * sabs * (1 + 1e-12), want = naive(k, x, D, z, D);
                    double bound; /* |K(dot + delta) - K(dot)| for |delta| <= dlt */
                    switch (k->type) {
                    case NV_KERNEL_RBF: bound = fabs(want) * expm1(2 * k->gamma * dlt); break;
                    case NV_KERNEL_POLY:
                        bound = k->degree * k->gamma * dlt *
                                pow(fabs(k->gamma * dot + k->coef0) + k->gamma * dlt, k->degree - 1);
                        break;
                    case NV_KERNEL_SIGMOID: bound = k->gamma * dlt; break;
                    default: bound = dlt;
                    }
                    if (i == j) bound = 0; /* the diagonal from the squared norm */
                    const float got = kf.K[i * N + j];
                    const double err_ = fabs(got - want) / (bound + u * fabs(want) + 1e-12 * fmax(1, fabs(want)));
                    worst = fmax(worst, err_);
                    differ |= got != kd.K[i * N + j];
                    sym &= got == kf.K[j * N + i];
                    if (i == j) diag &= got == kd.K[i * N + i];
                }
            CHECK_MSG(worst <= 1, "kmat fast kernel %d %s: error %g of its bound", kt, a ? "csr" : "dense", worst);
            CHECK_MSG(differ && sym && diag, "kmat fast kernel %d %s: differs from double %d, symmetric %d, "
                      "diagonal %d", kt, a ? "csr" : "dense", differ, sym, diag);
            nv_kmat_free(&kf);
            nv_kmat_free(&kd);
        }
    /* CSR rows too sparse for a dense product: the double path's values */
    {
        static double sv[N], sL[N];
        static int64_t sp[N + 1];
        static int32_t si[N];
        sp[0] = 0;
        for (int i = 0; i < N; i++) si[i] = (i * 7) % D, sv[i] = 0.5 + i * 0.01, sL[i] = L[i], sp[i + 1] = i + 1;
        nesvm_dataset *ds;
        nesvm_dataset_wrap_csr(N, D, sp, si, sv, sL, &ds, NULL);
        nv_kmat kf, kd;
        CHECK(nv_kmat_init_fast(&kf, &ks[0], ds, NULL, N, 64, 1, NULL, NULL) == NESVM_OK && kf.K);
        CHECK(nv_kmat_init(&kd, &ks[0], ds, NULL, N, 64, 1, NULL, NULL) == NESVM_OK && kd.K);
        CHECK(memcmp(kf.K, kd.K, sizeof(float) * N * N) == 0);
        nv_kmat_free(&kf);
        nv_kmat_free(&kd);
        nesvm_dataset_destroy(ds);
    }
    /* a value beyond single precision: refused, nothing kept */
    {
        nv_kernel big = {NV_KERNEL_POLY, 1e30, 0, 2};
        nesvm_error err = {0};
        nv_kmat kf;
        CHECK(nv_kmat_init_fast(&kf, &big, dd, NULL, N, 64, 1, NULL, &err) == NESVM_ERR_NUMERIC);
        CHECK_CONTAINS(err.message, "beyond the 3.4e38 of single precision");
    }
    nesvm_dataset_destroy(dd);
    nesvm_dataset_destroy(dc);
}

int main(void)
{
    uint64_t st = 5;
    for (int i = 0; i < NX * DX; i++) {
        XV[i] = nv_rng_uniform(&st) < 0.3 ? 0 : (float)(nv_rng_uniform(&st) - 0.5) * 2;
        XF[i] = (float)XV[i]; /* exactly representable: the float path must agree */
    }
    for (int i = 0; i < NZ * DZ; i++) ZV[i] = nv_rng_uniform(&st) < 0.3 ? 0 : nv_rng_uniform(&st) - 0.5;
    static int64_t ipx[NX + 1], ipz[NZ + 1];
    static int32_t ixx[NX * DX], ixz[NZ * DZ];
    static double vxx[NX * DX], vxz[NZ * DZ];
    nesvm_dataset *xd, *zd, *xs, *zs, *xf;
    nesvm_dataset_wrap_dense(NX, DX, XV, LAB, &xd, NULL);
    nesvm_dataset_wrap_dense(NZ, DZ, ZV, LAB, &zd, NULL);
    xs = to_csr(XV, NX, DX, ipx, ixx, vxx);
    zs = to_csr(ZV, NZ, DZ, ipz, ixz, vxz);
    /* a float dense copy of X, through the internal converter */
    {
        int64_t *ip = malloc(sizeof(int64_t) * (NX + 1));
        int32_t *ix = malloc(sizeof(int32_t) * NX * DX);
        float *vf = malloc(sizeof(float) * NX * DX);
        double *lb = malloc(sizeof(double) * NX);
        int64_t nnz = 0;
        ip[0] = 0;
        for (int i = 0; i < NX; i++) {
            for (int j = 0; j < DX; j++)
                if (XF[i * DX + j] != 0) {
                    ix[nnz] = j;
                    vf[nnz++] = XF[i * DX + j];
                }
            ip[i + 1] = nnz;
            lb[i] = 1;
        }
        CHECK(nv_dataset_from_csr(NX, DX, ip, ix, vf, NESVM_FLOAT, lb, &xf, NULL) == NESVM_OK);
        CHECK(nv_dataset_convert(xf, NESVM_STORAGE_DENSE, NESVM_FLOAT, 0.5, NULL) == NESVM_OK);
    }
    const nesvm_dataset *xsets[] = {xd, xs, xf}, *zsets[] = {zd, zs};
    int64_t xrows[] = {5, 0, 36, 17, 17, 2}, zrows[] = {22, 3, 9};
    for (int kt = 0; kt < 4; kt++) {
        nv_kernel k = {kt, 0.7, 0.3, 3};
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 2; b++)
                for (int sub = 0; sub < 2; sub++) {
                    const nesvm_dataset *X = xsets[a], *Z = zsets[b];
                    int nx = sub ? 6 : NX, nz = sub ? 3 : NZ;
                    const int64_t *xr = sub ? xrows : NULL, *zr = sub ? zrows : NULL;
                    double xsq[NX], zsq[NZ], out[NX * (NZ + 2)];
                    nv_kernel_sqnorms(NULL, X, xr, nx, xsq);
                    nv_kernel_sqnorms(NULL, Z, zr, nz, zsq);
                    for (int threads = 1; threads <= 2; threads++) {
                        CHECK(nv_kernel_block(&k, X, xr, nx, xsq, Z, zr, nz, zsq, out, NZ + 2,
                                              threads, NULL) == NESVM_OK);
                        double worst = 0;
                        for (int i = 0; i < nx; i++)
                            for (int j = 0; j < nz; j++) {
                                int ri = xr ? (int)xr[i] : i, rj = zr ? (int)zr[j] : j;
                                double want = naive(&k, XV + ri * DX, DX, ZV + rj * DZ, DZ);
                                worst = fmax(worst, fabs(out[i * (NZ + 2) + j] - want) /
                                                        fmax(1, fabs(want)));
                            }
                        CHECK_MSG(worst <= 1e-12, "kernel %d X %d Z %d sub %d threads %d: error %g",
                                  kt, a, b, sub, threads, worst);
                        /* kfast.c's block: the RBF kernel's exp within 1 ulp
                         * (the same dots), the others the same values */
                        double fast[NX * (NZ + 2)];
                        CHECK(nv_kernel_block_fast(&k, X, xr, nx, xsq, Z, zr, nz, zsq, fast, NZ + 2, threads,
                                                   NULL) == NESVM_OK);
                        double far = 0;
                        for (int i = 0; i < nx; i++)
                            for (int j = 0; j < nz; j++) {
                                const double u = out[i * (NZ + 2) + j], v = fast[i * (NZ + 2) + j];
                                far = fmax(far, fabs(u - v) / (fabs(u) > 0 ? fabs(u) : 1.0));
                            }
                        CHECK_MSG(kt == NV_KERNEL_RBF ? far <= 2.3e-16 : far == 0,
                                  "fast kernel %d X %d Z %d sub %d: relative difference %g", kt, a, b, sub, far);
                    }
                }
    }
    /* kfast.c's exp against the C library's: within 1 ulp over [-745, 0]
     * (exactly 1 at 0, 0 below the smallest normal number's logarithm) */
    {
        enum { NE = 200000 };
        static double ex[NE];
        uint64_t se = 17;
        for (int i = 0; i < NE; i++) {
            const double u = nv_rng_uniform(&se);
            ex[i] = i % 4 == 0 ? -745.2 * u : (i % 4 == 1 ? -2.0 * u : (i % 4 == 2 ? -40.0 * u : -1e-8 * u));
        }
        ex[0] = 0;
        ex[1] = -708.39;
        ex[2] = -708.4;
        ex[3] = -5e-324;
        static double ey[NE];
        memcpy(ey, ex, sizeof ex);
        nv_exp_block(ey, NE);
        int64_t bad = 0;
        for (int i = 0; i < NE; i++) {
            const double want = exp(ex[i]);
            if (want < 2.2250738585072014e-308) bad += ey[i] != 0 && fabs(ey[i] - want) > 2.3e-308;
            else bad += fabs(ey[i] - want) > nextafter(want, 2.0) - want; /* 1 ulp */
        }
        CHECK_MSG(bad == 0 && ey[0] == 1.0 && ey[2] == 0.0, "exp: %lld of %d beyond 1 ulp", (long long)bad, NE);
    }
    /* kernel features on X's rows (RBF and poly) */
    for (int kt = 1; kt <= 2; kt++) {
        nv_kernel k = {kt, 0.5, 1.0, 2};
        int64_t rows[30];
        for (int i = 0; i < 30; i++) rows[i] = (i * 7) % NX;
        double K[30][30];
        for (int i = 0; i < 30; i++)
            for (int j = 0; j < 30; j++)
                K[i][j] = naive(&k, XV + rows[i] * DX, DX, XV + rows[j] * DX, DX);
        for (int mode = 0; mode < 3; mode++) { /* full, reduced m = 8, LP (no transform) */
            nv_kfeat f;
            int64_t m = mode == 1 ? 8 : 0;
            CHECK(nv_kfeat_build(&k, xd, rows, 30, m, mode != 2, NV_BASIS_RANDOM, 11, 100, 1, &f, NULL) == NESVM_OK);
            double worst = 0, worst_exp = 0;
            uint64_t s2 = 3;
            double v[30], beta[30];
            for (int a = 0; a < f.r; a++) v[a] = nv_rng_uniform(&s2) - 0.5;
            nv_kfeat_coef(&f, v, beta);
            for (int i = 0; i < 30; i++) {
                /* Phi v equals the expansion sum_k beta_k K(x_i, b_k) */
                double fv = 0, ex = 0;
                for (int a = 0; a < f.r; a++) {
                    fv += f.phi[i * f.r + a] * v[a];
                    ex += beta[a] * K[i][f.basis[a]];
                }
                worst_exp = fmax(worst_exp, fabs(fv - ex) / fmax(1, fabs(ex)));
                for (int j = 0; j < 30; j++) {
                    double pp = 0;
                    for (int a = 0; a < f.r; a++) pp += f.phi[i * f.r + a] * f.phi[j * f.r + a];
                    if (mode == 0) worst = fmax(worst, fabs(pp - K[i][j])); /* Phi Phi^T = K */
                }
            }
            if (mode == 1) { /* Nystrom: exact on the basis rows */
                for (int a = 0; a < f.r; a++)
                    for (int c = 0; c < f.r; c++) {
                        double pp = 0;
                        int64_t i = f.basis[a], j = f.basis[c];
                        for (int e = 0; e < f.r; e++) pp += f.phi[i * f.r + e] * f.phi[j * f.r + e];
                        worst = fmax(worst, fabs(pp - K[i][j]));
                    }
                CHECK(f.r <= 8);
            }
            if (mode == 2) { /* plain: Phi = K_{n,B}, B = all */
                CHECK(f.r == 30 && f.U == NULL);
                for (int i = 0; i < 30; i++)
                    for (int a = 0; a < 30; a++)
                        worst = fmax(worst, fabs(f.phi[i * 30 + a] - K[i][f.basis[a]]));
            }
            CHECK_MSG(worst <= 1e-9, "kernel %d mode %d: Phi error %g (r %lld)", kt, mode, worst,
                      (long long)f.r);
            CHECK_MSG(worst_exp <= 1e-9, "kernel %d mode %d: expansion error %g", kt, mode, worst_exp);
            nv_kfeat_free(&f);
        }
        /* the memory budget is enforced with a clear message */
        nv_kfeat f;
        nesvm_error err = {0};
        CHECK(nv_kfeat_build(&k, xd, rows, 30, 0, 1, NV_BASIS_RANDOM, 1, 1e-6, 1, &f, &err) == NESVM_ERR_NOMEM);
        CHECK_CONTAINS(err.message, "raise --kernel-memory");
    }
    /* the kernel matrix operator: stored (float) and on the fly against the
     * naive kernel, products with ncol = 1..5 on position subsets, blocks */
    for (int kt = 0; kt < 4; kt++) {
        nv_kernel k = {kt, 0.4, 0.5, 2};
        int64_t rows[30];
        for (int i = 0; i < 30; i++) rows[i] = (i * 11) % NX;
        for (int a = 0; a < 3; a++)
            for (int stored = 0; stored < 2; stored++) {
                nv_kmat km;
                CHECK(nv_kmat_init(&km, &k, xsets[a], rows, 30, stored ? 1.0 : 1e-6, 2, NULL, NULL) == NESVM_OK);
                CHECK((km.K != NULL) == stored);
                int64_t ri[] = {29, 3, 3, 0, 17}, ci[] = {4, 28, 0, 12};
                double V[30 * 5], out[30 * 5], blk[5 * 4];
                uint64_t s3 = 17;
                for (int i = 0; i < 30 * 5; i++) V[i] = nv_rng_uniform(&s3) - 0.5;
                /* tolerance: float storage rounds each K entry to 2^-24 relative */
                double tol = stored ? 1e-6 : 1e-12;
                for (int ncol = 1; ncol <= 5; ncol++)
                    for (int sub = 0; sub < 2; sub++) {
                        int nr = sub ? 5 : 30, nc = sub ? 4 : 30;
                        CHECK(nv_kmat_mul(&km, sub ? ri : NULL, nr, sub ? ci : NULL, nc, V, ncol, out,
                                          NULL) == NESVM_OK);
                        double worst = 0;
                        for (int i = 0; i < nr; i++)
                            for (int c = 0; c < ncol; c++) {
                                double want = 0, scale = 0;
                                int64_t pi = sub ? ri[i] : i;
                                for (int j = 0; j < nc; j++) {
                                    int64_t pj = sub ? ci[j] : j;
                                    double kv = naive(&k, XV + rows[pi] * DX, DX, XV + rows[pj] * DX, DX);
                                    want += kv * V[j * ncol + c];
                                    scale += fabs(kv * V[j * ncol + c]);
                                }
                                worst = fmax(worst, fabs(out[i * ncol + c] - want) / fmax(1, scale));
                            }
                        CHECK_MSG(worst <= tol, "kmat kernel %d X %d stored %d ncol %d sub %d: error %g",
                                  kt, a, stored, ncol, sub, worst);
                    }
                CHECK(nv_kmat_block(&km, ri, 5, ci, 4, blk, 4, NULL) == NESVM_OK);
                double worst = 0;
                for (int i = 0; i < 5; i++) {
                    for (int j = 0; j < 4; j++) {
                        double want = naive(&k, XV + rows[ri[i]] * DX, DX, XV + rows[ci[j]] * DX, DX);
                        worst = fmax(worst, fabs(blk[i * 4 + j] - want) / fmax(1, fabs(want)));
                    }
                    double dw = naive(&k, XV + rows[ri[i]] * DX, DX, XV + rows[ri[i]] * DX, DX);
                    worst = fmax(worst, fabs(nv_kmat_diag(&km, ri[i]) - dw) / fmax(1, fabs(dw)));
                }
                CHECK_MSG(worst <= (stored ? 1e-6 : 1e-12), "kmat block kernel %d X %d stored %d: %g",
                          kt, a, stored, worst);
                nv_kmat_free(&km);
            }
    }
    nesvm_dataset_destroy(xd);
    nesvm_dataset_destroy(zd);
    nesvm_dataset_destroy(xs);
    nesvm_dataset_destroy(zs);
    nesvm_dataset_destroy(xf);
    check_kmat_fast();
    CHECK_DONE();
}
