// SPDX-License-Identifier: Apache-2.0
#include "support/lockctlrun.h"
#include "support/testpaths.h"

#include "support/redisserver.h"

#include <QJsonDocument>

namespace lockscope::test {

QString lockctlPath()
{
    return buildPath(QStringLiteral("app/lockctl"));
}

QStringList testPasswordArgs()
{
    return {QStringLiteral("--password-env"), QString::fromLatin1(testPasswordVar)};
}

LockctlRun runLockctl(const QStringList& args, int timeoutMs, const QProcessEnvironment& environment)
{
    // The fixture password for `--password-env LOCKSCOPE_TEST_PASSWORD`: a URL with the password in
    // the arguments would show it to every local user.
    return runProcess(lockctlPath(), args, environment.isEmpty() ? testPasswordEnvironment() : environment,
                      QString(), timeoutMs);
}

QJsonObject runLockctlJson(const QStringList& args, int* code, int timeoutMs)
{
    const LockctlRun run = runLockctl(
        QStringList{QStringLiteral("--json"), QStringLiteral("--timeout-ms"), QStringLiteral("1000")} + args,
        timeoutMs);
    *code = run.code;
    const QJsonDocument doc = QJsonDocument::fromJson(run.out);
    if (!doc.isObject())
        qWarning("lockctl printed no JSON: %s", qPrintable(run.describe()));
    return doc.object();
}

} // namespace lockscope::test
