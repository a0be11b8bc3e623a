// SPDX-License-Identifier: Apache-2.0
#include "support/heldobservation.h"

namespace lockscope::test {

MasterObservation heldObservation(const QByteArray& token, qint64 pttlMs, qint64 readAtMs,
                                  const QList<LockHolder>& holders, const QByteArray& type, bool truncated)
{
    // Every member named: GCC 12 warns about a designated initialiser that leaves one out.
    const KeyObservation key{.present = true,
                             .truncated = truncated,
                             .type = type,
                             .value = token,
                             .valueSize = 0,
                             .fields = {},
                             .members = {},
                             .elementCount = 0,
                             .pttlMs = pttlMs,
                             .readAtMs = readAtMs,
                             .error = {}};
    RecognizedLock lock;
    lock.format = LockFormat::PlainToken;
    lock.token = token;
    lock.setListedHolders(holders);
    return MasterObservation(key, lock);
}

} // namespace lockscope::test
