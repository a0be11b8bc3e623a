// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <optional>

namespace lockscope {

class TeamDatabase;

// Reads the team audit trail (TeamAuditLog) for `lockctl audit` and the window.
namespace TeamAuditReader {

struct Query
{
    QDateTime since;                    // invalid: from the start
    std::optional<QByteArray> resource; // one lock's records only
    int limit = 1000;                   // the newest this many
};

// One row's record: the JSON object the audit log file holds for it, with its "writer".
QJsonObject recordOf(const QString& writer, const QString& recordJson);

// The records, oldest first, each as recordOf() makes it.
Result<QList<QJsonObject>> read(TeamDatabase& db, const Query& query);

struct Verification
{
    qint64 rows = 0;
    int writers = 0;
    QStringList problems; // one sentence per break found; empty: every chain is whole
};

// Walks every writer's chain, oldest first: each row's hash must be that of its record and its
// previous row's hash, and name the previous row of its writer. A problem names the writer and
// the row (its id and time) where the chain breaks, and what broke it.
Result<Verification> verify(TeamDatabase& db);

} // namespace TeamAuditReader

} // namespace lockscope
