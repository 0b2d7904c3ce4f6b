/* spawn RESULT_FILE PROGRAM [ARGS...]
 *
 * Runs PROGRAM as a child, waits for it with wait4() and writes to
 * RESULT_FILE one line:  status=S wall=SECONDS maxrss_kb=K utime=U stime=S
 * (S = the raw wait status).  Exits with the child's exit code (128 + signal
 * if it was killed).
 *
 * Why this exists: on Linux a child's ru_maxrss includes the resident size of
 * the process it was forked from (the copied address space counts until
 * exec), so a child forked straight from the Python harness, which holds
 * data sets in memory, would report the harness's size.  This launcher is a
 * few hundred kilobytes, so the tool's own peak dominates what wait4 reports.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: spawn RESULT_FILE PROGRAM [ARGS...]\n");
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid < 0) {
    perror("spawn: fork");
    return 125;
  }
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    fprintf(stderr, "spawn: cannot run %s: %s\n", argv[2], strerror(errno));
    _exit(127);
  }
  int status = 0;
  struct rusage ru;
  while (wait4(pid, &status, 0, &ru) < 0) {
    if (errno != EINTR) {
      perror("spawn: wait4");
      return 125;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  FILE *f = fopen(argv[1], "w");
  if (!f) {
    perror("spawn: result file");
    return 125;
  }
  fprintf(f, "status=%d wall=%.9f maxrss_kb=%ld utime=%.6f stime=%.6f\n", status, wall,
          ru.ru_maxrss, (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec,
          (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec);
  if (fclose(f) != 0) return 125;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 125;
}
