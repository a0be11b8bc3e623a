// SPDX-License-Identifier: Apache-2.0
#include "record/keyspacenote.h"

#include "base/monotonicclock.h"

#include <QDateTime>

#include <algorithm>

namespace lockscope {

KeyspaceNote::KeyspaceNote(bool expiry, int master, qint64 atMs, qint64 wallMs)
    : m_atMs(atMs), m_wallMs(wallMs), m_master(master), m_expiry(expiry)
{
    if (expiry && master >= 0 && master < 64)
        m_expiredOn = quint64(1) << master;
}

void KeyspaceNote::add(bool expiry, int master, qint64 atMs, qint64 wallMs)
{
    const quint64 bit = master >= 0 && master < 64 ? quint64(1) << master : 0;
    const bool expiryHolds = m_expiry && atMs - m_atMs <= expiryHoldsMs;
    if (!expiry && expiryHolds && (m_expiredOn & bit)) {
        // After the key expired on a master, a delete there is of a key written since: another
        // holder's (a Redlock attempt that missed its quorum undoes its copies at once; the next
        // holder lets go). It says nothing of how the expired holder went, which the recorder may
        // not have judged yet: taken for that holder's release, a lease that ran out under a
        // second holder looked released before the second took the lock. Kept for its writer.
        m_laterDeleteAtMs = atMs;
        m_laterDeleteWallMs = wallMs;
        m_laterDeleteMaster = master;
        return;
    }
    if (!expiry || !expiryHolds) {
        m_expiredOn = 0;
        m_laterDeleteAtMs = -1;
    }
    if (expiry)
        m_expiredOn |= bit;
    m_expiry = expiry;
    m_master = master;
    m_atMs = atMs;
    m_wallMs = wallMs;
}

void KeyspaceNote::tellAgain()
{
    m_atMs = monotonicMs();
    m_wallMs = QDateTime::currentMSecsSinceEpoch();
}

bool KeyspaceNote::mayPredate(const LockView& view) const
{
    const auto sentBefore = [this](const MasterObservation& o) { return o.sentAtMs() <= m_atMs; };
    if (m_master >= 0 && m_master < view.observations.size())
        return sentBefore(view.observations.at(m_master));
    return std::any_of(view.observations.cbegin(), view.observations.cend(), sentBefore);
}

bool KeyspaceNote::from(int master, qint64 atMs, qint64 startMs, quint64 everHolders)
{
    // Since it began, by a master it was seen on (a Redlock's copies on five masters: an older
    // token expiring late on one this one never reached says nothing of it).
    return atMs >= startMs && (master < 0 || master >= 64 || (everHolders & (quint64(1) << master)));
}

KeyspaceNote::End KeyspaceNote::endFor(qint64 startMs, quint64 everHolders, qint64 deadlineMs) const
{
    using How = End::How;
    if (from(m_master, m_atMs, startMs, everHolders)) {
        if (!m_expiry)
            return {How::Released, m_atMs, m_wallMs};
        // Its own expiry when its lease was due then, or when it had held the key for longer than
        // an event can lag behind a read: else the previous holder's, come after a read of this
        // one (taken for this holder's, a fresh Redlock lease looked gone 980 ms early on every
        // master, a proven double grant that never was). A copy that goes early after that is
        // still told: a clock running fast, an eviction.
        const bool due = deadlineMs < 0 || m_atMs + dueToleranceMs >= deadlineMs;
        if (due || m_atMs - startMs > eventLagMs)
            return {How::Expired, m_atMs, m_wallMs};
    }
    if (m_laterDeleteAtMs >= 0 && from(m_laterDeleteMaster, m_laterDeleteAtMs, startMs, everHolders))
        return {How::Released, m_laterDeleteAtMs, m_laterDeleteWallMs};
    return {};
}

} // namespace lockscope
