// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace lockscope {

// One write attempt as the audit log keeps it: who, what, where, and what each master did.
// Masters are named by RedisUrl::toString(), which never contains a password.
struct AuditRecord
{
    struct MasterResult
    {
        QString master;
        QString result;                        // "locked", "deleted", "spared", "timeout", ...
        std::optional<QByteArray> tokenBefore; // what the master held before, where known
        QString detail;
    };

    QDateTime time = QDateTime::currentDateTimeUtc();
    // Unique per record (a UUID, set by now()): how the flight recorder and a reader of the log name
    // this record ("force-released, audit record 3f2c..."). Empty in records from before it existed.
    QString id;
    QString user;
    QString host;
    qint64 pid = 0;
    QString program; // lockctl, lockscope: with user and host, the writer of a team audit chain
    QString action;  // acquire, extend, release, force-release
    QByteArray resource;
    QStringList masters;
    std::optional<QByteArray> token;         // ours (acquire, extend, release)
    std::optional<QByteArray> tokenBefore;   // what the admin saw before a force-release
    std::optional<QByteArray> expectedToken; // guarded force-release; absent for any-token
    QString mode;                            // force-release: expect-token / any-token
    QString outcome;                         // done, not-done, unavailable, refused, invalid, cancelled
    QString message;
    QList<MasterResult> results;

    // Filled with this process's user, host, pid and program.
    static AuditRecord now(const QString& action, const QByteArray& resource);
    // One line of JSON, without the newline.
    QByteArray toJson() const;
};

} // namespace lockscope
