// SPDX-License-Identifier: Apache-2.0
#include "support/randomtext.h"

namespace lockscope::test {

QByteArray randomText(QRandomGenerator& random, QByteArrayView alphabet, int minLength, int maxLength)
{
    QByteArray text;
    const int length = minLength + int(random.bounded(maxLength - minLength + 1));
    for (int i = 0; i < length; ++i)
        text += alphabet.at(int(random.bounded(int(alphabet.size()))));
    return text;
}

QList<ScanPattern> randomPatterns(QRandomGenerator& random, QByteArrayView alphabet, int minLength,
                                  int maxLength)
{
    QList<ScanPattern> patterns;
    const int n = 2 + int(random.bounded(3));
    for (int i = 0; i < n; ++i)
        patterns << ScanPattern(randomText(random, alphabet, minLength, maxLength));
    return patterns;
}

} // namespace lockscope::test
