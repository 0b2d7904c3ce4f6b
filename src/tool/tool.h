/*
 * tool.h - what the command-line tool (cli/) may use beyond nesvm.h (not
 * installed).  The CLI includes nesvm.h and this header only
 * (scripts/check_layers.py refuses any other header of src/ in cli/), so
 * that everything it reaches past the public API is listed here:
 *
 *   - atomic output files (core/atomic.h): models, traces, predictions,
 *     the grid's CSV and split's parts are written whole or not at all;
 *   - the parameter table (params/param_table.h): option names, help,
 *     defaults and where each parameter applies, for --help, `nesvm params`
 *     and the ignored-option warnings;
 *   - the communicator (comm/comm.h): `--distributed`'s agreement on
 *     failures, sums and broadcasts between the ranks;
 *   - the number parser and formatter, so that the CLI reads and writes
 *     numbers exactly as the library does;
 *   - and the few calls below: the solvers that read a parameter (for the
 *     warnings), a clock, a data fingerprint (grid's CSV), the byte ranges
 *     of a distributed read (`nesvm split`).
 *
 * The functions declared here are declared again, not included, from their
 * modules' headers; tool.c includes both, so that the compiler checks that
 * the declarations agree.
 */
#ifndef NESVM_TOOL_H
#define NESVM_TOOL_H

#include "nesvm.h"
#include "../comm/comm.h"
#include "../core/atomic.h"
#include "../params/param_table.h"

#include <stddef.h>
#include <stdint.h>

/* ---- numbers (core/number.c): locale-independent, exact round trip */
/* A whole string as a decimal integer within int64 (no spaces, exponent or
 * hex): 1 on success. */
int nv_parse_int64(const char *s, int64_t *out);
/* A whole string as a finite number (decimal or hex): 1 on success. */
int nv_parse_finite(const char *s, double *out);
/* Shortest text that reads back to exactly x; buf needs 32 bytes. */
int nv_format_double(double x, char *buf);

/* ---- time and text files (core/util.c) */
double nv_now(void); /* monotonic seconds */
/* 3 when buf[0..len) opens with a UTF-8 byte-order mark, else 0. */
size_t nv_utf8_bom(const void *buf, size_t len);

/* ---- data (data/) */
/* FNV-1a fingerprint of rows[0..n) of ds (rows NULL: the first n rows). */
uint64_t nv_dataset_hash(const nesvm_dataset *ds, const int64_t *rows, int64_t n);
/* The k-th of parts equal cut points of a file of `size` bytes, and the line
 * start at or after a byte: the ranges of a distributed read. */
int64_t nv_range_cut(int64_t size, int64_t k, int64_t parts);
nesvm_status nv_line_start(int fd, const char *name, int64_t at, int64_t size, int64_t *out, nesvm_error *err);

/* ---- the solver registry (solvers/registry.c), beyond nesvm_solver_describe */
struct nv_solver;
/* The registry entry of a solver name (NULL if none). */
const struct nv_solver *nv_solver_find(const char *name);
/* Does solver s read parameter `name` (given p's warm start)? */
int nv_solver_uses(const struct nv_solver *s, const char *name, const nesvm_params *p);
/* The solvers that read `name`, in words (into buf). */
const char *nv_solver_users(const char *name, char *buf, size_t size);

#endif
