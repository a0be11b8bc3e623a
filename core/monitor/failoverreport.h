// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "topology/primarychange.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>

namespace lockscope {

// What a Sentinel failover did to the locks of one master entry: the double-grant hazard, told
// once the new primary has been read. Every lock read from the old primary was marked at risk;
// `lost` are those the new primary does not have although they had not expired (the replica was
// promoted before it received them), `changedToken` those it holds under another token (somebody
// acquired them again on the new primary while the old holder still believes it holds them).
struct FailoverReport
{
    struct TokenChange
    {
        QByteArray resource;
        QByteArray before; // the token read from the old primary
        QByteArray after;  // the token on the new primary

        bool operator==(const TokenChange&) const = default;
    };

    int master = -1;
    PrimaryChange change;
    QList<QByteArray> atRisk; // every resource read from the old primary, sorted
    QList<QByteArray> lost;   // sorted
    QList<TokenChange> changedToken;

    bool hasHazard() const { return !lost.isEmpty() || !changedToken.isEmpty(); }
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::FailoverReport)
