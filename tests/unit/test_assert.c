/* test_assert.c - NV_ASSERT (src/core/internal.h): on in debug builds (the
 * ASan build of scripts/test.sh), where a false invariant aborts; compiled
 * out in release builds, where its argument is not even evaluated.
 * NESVM_TEST_EXPECT_ASSERTS comes from CMake: 1 for CMAKE_BUILD_TYPE Debug. */
#include "../../src/core/internal.h"
#include "check.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef NESVM_TEST_EXPECT_ASSERTS
#error "tests/CMakeLists.txt defines NESVM_TEST_EXPECT_ASSERTS from the build type"
#endif

/* Run NV_ASSERT(0) in a child process: its wait status, and what it wrote
 * to stderr into msg. */
static int failing_assert_in_child(char *msg, size_t cap)
{
    int fd[2];
    if (pipe(fd) != 0) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        int zero = 0;
        NV_ASSERT(zero == 1);
        _exit(0); /* release builds get here */
    }
    close(fd[1]);
    size_t len = 0;
    ssize_t got;
    while (len + 1 < cap && (got = read(fd[0], msg + len, cap - 1 - len)) > 0) len += (size_t)got;
    msg[len] = '\0';
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

int main(void)
{
    /* the setting of the build type, in the test's compilation and in the library's */
    CHECK(NV_ASSERTS_ON == NESVM_TEST_EXPECT_ASSERTS);
    CHECK(nv_asserts_on() == NESVM_TEST_EXPECT_ASSERTS);

    /* the argument is evaluated exactly once in debug builds, never in release */
    int x = 0;
    NV_ASSERT(++x == 1);
    CHECK(x == NV_ASSERTS_ON);

    /* a true condition passes quietly in both */
    NV_ASSERT(x >= 0);

    /* a false one aborts with a message in debug builds; does nothing in release */
    char msg[1024];
    int status = failing_assert_in_child(msg, sizeof msg);
    CHECK(status != -1);
    if (NESVM_TEST_EXPECT_ASSERTS) {
        CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "wait status %d", status);
        CHECK_MSG(strstr(msg, "assertion 'zero == 1' failed") != NULL, "stderr: %s", msg);
        CHECK_MSG(strstr(msg, "test_assert.c") != NULL, "stderr: %s", msg);
    } else {
        CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "wait status %d", status);
        CHECK_MSG(msg[0] == '\0', "stderr: %s", msg);
    }

    printf("assertions %s\n", NV_ASSERTS_ON ? "on" : "off");
    CHECK_DONE();
}
