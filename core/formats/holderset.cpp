#include "formats/holderset.h"

#include <algorithm>

namespace lockscope::recognition {

QString partialNote(const KeyObservation& o, qsizetype read)
{
    if (!o.truncated)
        return {};
    return QStringLiteral("%1 of %2 entries read").arg(read).arg(std::max<qint64>(o.elementCount, read));
}

void joinDetail(QString& detail, const QString& more)
{
    if (more.isEmpty())
        return;
    detail = detail.isEmpty() ? more : detail + QStringLiteral("; ") + more;
}

void finishHolders(RecognizedLock& lock)
{
    std::sort(lock.listedHolders.begin(), lock.listedHolders.end(),
              [](const LockHolder& a, const LockHolder& b) { return a.id < b.id; });
    QByteArrayList ids;
    ids.reserve(lock.listedHolders.size());
    for (const LockHolder& h : std::as_const(lock.listedHolders))
        ids.append(h.id);
    lock.token = ids.join(',');
    if (lock.listedHolders.size() == 1)
        lock.owner = lock.listedHolders.first().owner;
    else if (lock.listedHolders.size() > 1)
        lock.owner = QStringLiteral("%1 holders").arg(lock.listedHolders.size());
}

RecognizedLock unknownCollection(const KeyObservation& o, QByteArrayList names, const QString& what)
{
    RecognizedLock lock;
    std::sort(names.begin(), names.end());
    lock.token = names.join(',');
    lock.detail = what;
    joinDetail(lock.detail, partialNote(o, names.size()));
    return lock;
}

} // namespace lockscope::recognition
