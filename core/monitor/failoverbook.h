// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/failoverreport.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <functional>

namespace lockscope {

// The failovers of master entries (a Sentinel entry's primary, a cluster shard's) not yet reported:
// which locks each old primary held, with their tokens and expiries, until the new primary has been
// read through and the report can say which of them it lost or holds under another token. The
// monitor decides when; this keeps the books and writes the report.
class FailoverBook
{
public:
    struct Held
    {
        QByteArray token;
        qint64 expiresAtMs = -1; // monotonic; -1: no expiry
    };

    // `master`'s primary changed: a failover starts, or one not yet reported takes the new primary
    // (one report, from the first old primary). Returns the reason to show on the locks at risk.
    QString begin(int master, const PrimaryChange& change);
    // `key` was held on the old primary as `held`; the first failover's holding is the one kept.
    void hold(int master, const QByteArray& key, const Held& held);
    int heldCount(int master) const;
    // The change under way for `master` (from the first old primary to the latest new one); null if none.
    const PrimaryChange* pending(int master) const;
    // The entry came up after the change: its next finished pass reads the new primary.
    void markNewPrimaryUp(int master);
    bool newPrimaryUp(int master) const;
    // The report of `master`'s failover, which is then forgotten. `heldNow(key, &held)` says whether
    // the new primary holds `key` now, and how; `now` is monotonic ms.
    FailoverReport finish(int master, const std::function<bool(const QByteArray&, Held*)>& heldNow,
                          qint64 now);

private:
    struct Pending
    {
        FailoverReport report;
        QHash<QByteArray, Held> held;
        bool newPrimaryUp = false; // the next finished pass after this read the new primary
    };
    QHash<int, Pending> m_pending;
};

} // namespace lockscope
