// SPDX-License-Identifier: Apache-2.0
#include "support/lockctlcli.h"

#include <QFile>
#include <QJsonDocument>

namespace lockscope::test {

LockctlCli::LockctlCli(RedisServerGroup& group, bool withSecret)
{
    // The fixture's password from the environment, not the arguments (every local user reads
    // those); a test about a password in the URL gives the group a password of its own.
    const bool fromEnvironment =
        withSecret && group.size() > 0 && group.at(0).options().password == testPassword();
    if (fromEnvironment)
        m_masters << testPasswordArgs();
    for (int i = 0; i < group.size(); ++i)
        m_masters << QStringLiteral("-m") << group.at(i).url(withSecret && !fromEnvironment);
}

LockctlRun LockctlCli::operator()(const QStringList& args, int timeoutMs) const
{
    return runLockctl(m_masters + QStringList{QStringLiteral("--audit-log"), auditPath()} + args, timeoutMs);
}

QList<QJsonObject> LockctlCli::auditLines() const
{
    QList<QJsonObject> lines;
    QFile file(auditPath());
    if (file.open(QIODevice::ReadOnly))
        while (!file.atEnd()) {
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(file.readLine(), &error);
            if (error.error != QJsonParseError::NoError)
                qFatal("audit line is not JSON");
            lines << doc.object();
        }
    return lines;
}

} // namespace lockscope::test
