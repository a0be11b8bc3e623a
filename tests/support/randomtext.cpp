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

} // namespace lockscope::test
