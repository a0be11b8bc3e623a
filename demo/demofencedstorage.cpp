// SPDX-License-Identifier: Apache-2.0
#include "demo/demofencedstorage.h"

#include "base/monotonicclock.h"

namespace lockscope {

DemoFencedStorage::DemoFencedStorage(QObject* parent) : QObject(parent) {}

void DemoFencedStorage::setFencing(bool on)
{
    if (m_fencing == on)
        return;
    m_fencing = on;
    emit fencingChanged(on);
}

DemoWrite DemoFencedStorage::write(const QByteArray& resource, const QString& client, qint64 fencing)
{
    DemoWrite w;
    w.resource = resource;
    w.client = client;
    w.fencing = fencing;
    w.highestSeen = highestSeen(resource);
    w.stale = fencing < w.highestSeen;
    w.accepted = !w.stale || !m_fencing;
    w.atMs = monotonicMs();
    if (w.accepted) {
        ++m_accepted;
        m_highest[resource] = qMax(w.highestSeen, fencing);
    } else {
        ++m_rejected;
    }
    if (w.isViolation())
        ++m_violations;
    emit written(w);
    return w;
}

} // namespace lockscope
