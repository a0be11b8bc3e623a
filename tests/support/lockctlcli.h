// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/lockctlrun.h"
#include "support/redisservergroup.h"

#include <QJsonObject>
#include <QTemporaryDir>

namespace lockscope::test {

// lockctl against a group of masters, as a user runs it, with an audit log of its own.
class LockctlCli
{
public:
    // `withSecret`: the password reaches lockctl (from the environment when it is the fixture's,
    // in the URLs otherwise); without it lockctl connects with none.
    explicit LockctlCli(RedisServerGroup& group, bool withSecret = true);
    QString auditPath() const { return m_dir.filePath(QStringLiteral("audit.jsonl")); }
    // The -m arguments (and --password-env): for a lockctl started with testPasswordEnvironment().
    const QStringList& masters() const { return m_masters; }

    LockctlRun operator()(const QStringList& args, int timeoutMs = 30000) const;
    QList<QJsonObject> auditLines() const;

private:
    QStringList m_masters;
    QTemporaryDir m_dir;
};

} // namespace lockscope::test
