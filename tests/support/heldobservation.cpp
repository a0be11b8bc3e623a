// SPDX-License-Identifier: Apache-2.0
#include "support/heldobservation.h"

namespace lockscope::test {

MasterObservation heldObservation(const QByteArray& token, qint64 pttlMs, qint64 readAtMs,
                                  const QList<LockHolder>& holders, const QByteArray& type, bool truncated)
{
    KeyObservation key;
    key.present = true;
    key.truncated = truncated;
    key.type = type;
    key.value = token;
    key.pttlMs = pttlMs;
    key.readAtMs = readAtMs;
    RecognizedLock lock;
    lock.format = LockFormat::PlainToken;
    lock.token = token;
    lock.setListedHolders(holders);
    return MasterObservation(key, lock);
}

} // namespace lockscope::test
