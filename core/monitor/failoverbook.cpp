// SPDX-License-Identifier: Apache-2.0
#include "monitor/failoverbook.h"

#include <algorithm>

namespace lockscope {

QString FailoverBook::begin(int master, const PrimaryChange& change)
{
    Pending& pending = m_pending[master];
    if (pending.report.master < 0) {
        pending.report.master = master;
        pending.report.change.oldPrimary = change.oldPrimary;
    }
    // A second failover before the first was read through: one report, from the first old primary.
    pending.report.change.newPrimary = change.newPrimary;
    pending.newPrimaryUp = false;
    return QStringLiteral("failover %1 → %2")
        .arg(pending.report.change.oldPrimary.toString(), pending.report.change.newPrimary.toString());
}

void FailoverBook::hold(int master, const QByteArray& key, const Held& held)
{
    Pending& pending = m_pending[master];
    if (!pending.held.contains(key))
        pending.held.insert(key, held);
}

int FailoverBook::heldCount(int master) const
{
    const auto it = m_pending.constFind(master);
    return it == m_pending.constEnd() ? 0 : int(it->held.size());
}

const PrimaryChange* FailoverBook::pending(int master) const
{
    const auto it = m_pending.constFind(master);
    return it == m_pending.constEnd() ? nullptr : &it->report.change;
}

void FailoverBook::markNewPrimaryUp(int master)
{
    if (auto it = m_pending.find(master); it != m_pending.end())
        it->newPrimaryUp = true;
}

bool FailoverBook::newPrimaryUp(int master) const
{
    const auto it = m_pending.constFind(master);
    return it != m_pending.constEnd() && it->newPrimaryUp;
}

FailoverReport FailoverBook::finish(int master, const std::function<bool(const QByteArray&, Held*)>& heldNow,
                                    qint64 now)
{
    Pending pending = m_pending.take(master);
    FailoverReport& report = pending.report;
    for (auto it = pending.held.cbegin(); it != pending.held.cend(); ++it) {
        report.atRisk << it.key();
        Held after;
        if (heldNow(it.key(), &after)) {
            if (after.token != it->token)
                report.changedToken << FailoverReport::TokenChange{it.key(), it->token, after.token};
        } else if (it->expiresAtMs < 0 || it->expiresAtMs > now) {
            report.lost << it.key(); // gone although it had not expired
        }
    }
    std::sort(report.atRisk.begin(), report.atRisk.end());
    std::sort(report.lost.begin(), report.lost.end());
    std::sort(report.changedToken.begin(), report.changedToken.end(),
              [](const auto& a, const auto& b) { return a.resource < b.resource; });
    return report;
}

} // namespace lockscope
