// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QRandomGenerator>

namespace lockscope::test {

// minLength to maxLength bytes (inclusive), each drawn from `alphabet`: keys and globs made of the
// bytes that make matching hard, for checks against Redis's own matcher.
QByteArray randomText(QRandomGenerator& random, QByteArrayView alphabet, int minLength, int maxLength);

} // namespace lockscope::test
