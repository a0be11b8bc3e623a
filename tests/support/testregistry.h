// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/scaledtry.h" // every test file includes this header: the suite's rule for QTRY waits comes with it

#include <QStringList>
#include <QTest>

namespace lockscope::test {

// The suite's test files are linked into a few programs (tests/CMakeLists.txt: one with the window's
// library, one without), not one program each: a hundred-odd links and automoc runs were a large
// part of every build. Each file registers its entry point under its own name (tst_hostport for
// tst_hostport.cpp), and a program runs the one its first argument names:
//   build/tests/lockscope_coretests tst_hostport [Qt Test's options]
// Each test still runs in a process of its own, as argv[0] "…/tst_hostport", so nothing a test
// sees (its application name, its arguments) tells it apart from a program of its own.
using TestEntry = int (*)(int argc, char** argv);

// Called by the macros below, once per test file, before main().
bool registerTest(const char* sourceFile, TestEntry entry);
// The program's main(): runs the test named by argv[1] with the arguments after it.
int runRegisteredTest(int argc, char** argv);
// The arguments that start this same test again in a child process of
// QCoreApplication::applicationFilePath() (a test that re-runs itself in another role).
QStringList selfArguments();

} // namespace lockscope::test

// A test file's own entry point, `int entry(int argc, char** argv)`, in place of main().
#define LOCKSCOPE_TEST_ENTRY(entry)                                                                          \
    namespace {                                                                                              \
    [[maybe_unused]] const bool lockscopeTestRegistered = ::lockscope::test::registerTest(__FILE__, entry);  \
    }

#define LOCKSCOPE_TEST_MAIN_WITH(TestObject, ...)                                                            \
    namespace {                                                                                              \
    int lockscopeTestMain(int argc, char** argv)                                                             \
    {                                                                                                        \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                                   \
        __VA_ARGS__                                                                                          \
        TestObject tc;                                                                                       \
        QTEST_SET_MAIN_SOURCE_PATH                                                                           \
        return QTest::qExec(&tc, argc, argv);                                                                \
    }                                                                                                        \
    }                                                                                                        \
    LOCKSCOPE_TEST_ENTRY(lockscopeTestMain)

// What QTEST_MAIN and QTEST_GUILESS_MAIN do, registered instead of defining main().
#define LOCKSCOPE_TEST_MAIN(TestObject) LOCKSCOPE_TEST_MAIN_WITH(TestObject, QTEST_MAIN_SETUP())
#define LOCKSCOPE_TEST_GUILESS_MAIN(TestObject)                                                              \
    LOCKSCOPE_TEST_MAIN_WITH(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
