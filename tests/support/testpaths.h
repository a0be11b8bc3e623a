// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope::test {

// Paths into the checkout the tests were built from and into its build tree (LOCKSCOPE_BINARY_DIR
// from the environment wins: ctest sets it). Only testpaths.cpp sees the absolute paths, so the
// compile of every other test file is the same in any clone, and ccache serves it to a fresh one.
QString sourcePath(const QString& relative = {});
QString buildPath(const QString& relative = {});

} // namespace lockscope::test
