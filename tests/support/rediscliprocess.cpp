// SPDX-License-Identifier: Apache-2.0
#include "support/rediscliprocess.h"

#include "support/redisserver.h"

namespace lockscope::test {

std::unique_ptr<QProcess> startCli(const RedisServer& server, const QStringList& args,
                                   const QByteArray& input)
{
    auto p = std::make_unique<QProcess>();
    p->setProcessEnvironment(server.cliEnvironment());
    p->setStandardOutputFile(QProcess::nullDevice());
    p->start(QStringLiteral("redis-cli"),
             QStringList{QStringLiteral("-p"), QString::number(server.adminPort())} + args);
    p->waitForStarted(5000);
    if (!input.isEmpty()) {
        p->write(input);
        p->waitForBytesWritten(5000);
    }
    return p;
}

void stopCli(std::unique_ptr<QProcess>& p)
{
    if (p && p->state() != QProcess::NotRunning) {
        p->kill();
        p->waitForFinished(5000);
    }
    p.reset();
}

} // namespace lockscope::test
