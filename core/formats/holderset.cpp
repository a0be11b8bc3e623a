// SPDX-License-Identifier: Apache-2.0
#include "formats/holderset.h"

#include <algorithm>

namespace lockscope::recognition {

QString partialNote(const KeyObservation& o, qsizetype read)
{
    if (!o.truncated)
        return {};
    return QStringLiteral("%1 of %2 entries read").arg(read).arg(std::max<qint64>(o.elementCount, read));
}

void finishHolders(RecognizedLock& lock, QList<LockHolder> holders)
{
    std::sort(holders.begin(), holders.end(),
              [](const LockHolder& a, const LockHolder& b) { return a.id < b.id; });
    QByteArrayList ids;
    ids.reserve(holders.size());
    for (const LockHolder& h : std::as_const(holders))
        ids.append(h.id);
    lock.token = ids.join(',');
    if (holders.size() == 1)
        lock.owner = holders.first().owner;
    else if (holders.size() > 1)
        lock.owner = QStringLiteral("%1 holders").arg(holders.size());
    lock.setListedHolders(std::move(holders));
}

RecognizedLock unknownCollection(const KeyObservation& o, QByteArrayList names, const QString& what)
{
    RecognizedLock lock;
    std::sort(names.begin(), names.end());
    lock.token = names.join(',');
    lock.setDetail(what);
    lock.appendDetail(partialNote(o, names.size()));
    return lock;
}

} // namespace lockscope::recognition
