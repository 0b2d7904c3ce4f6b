/*
 * tool.c - no code: the declarations of tool.h next to their modules' own,
 * so that a declaration of tool.h that disagrees with its module's (another
 * return or parameter type) does not compile.
 */
#include "tool.h"

#include "../core/internal.h"
#include "../data/dataset_internal.h"
#include "../solvers/solver.h"
