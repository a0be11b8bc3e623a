// SPDX-License-Identifier: Apache-2.0
#include "base/hashedkey.h"

#include <QHashFunctions>

namespace lockscope {

quint32 HashedKey::hashOf(QByteArrayView key)
{
    const size_t h = qHash(key, QHashSeed::globalSeed());
    return quint32(h ^ (quint64(h) >> 32));
}

} // namespace lockscope
