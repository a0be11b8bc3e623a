// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/scanpattern.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QRandomGenerator>

namespace lockscope::test {

// minLength to maxLength bytes (inclusive), each drawn from `alphabet`: keys and globs made of the
// bytes that make matching hard, for checks against Redis's own matcher.
QByteArray randomText(QRandomGenerator& random, QByteArrayView alphabet, int minLength, int maxLength);

// Two to four patterns of randomText(): a configuration the scan plan must cover.
QList<ScanPattern> randomPatterns(QRandomGenerator& random, QByteArrayView alphabet, int minLength,
                                  int maxLength);

} // namespace lockscope::test
