// SPDX-License-Identifier: Apache-2.0
#include "support/promtool.h"

#include <QProcess>
#include <QStandardPaths>

namespace lockscope::test {

QString promtoolPath()
{
    return QStandardPaths::findExecutable(QStringLiteral("promtool"));
}

QString prometheusPath()
{
    return QStandardPaths::findExecutable(QStringLiteral("prometheus"));
}

PromtoolRun runPromtool(const QStringList& args, const QByteArray& input, int timeoutMs)
{
    PromtoolRun run;
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(promtoolPath(), args);
    if (!p.waitForStarted())
        return run;
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return run;
    }
    run.output = p.readAll();
    run.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return run;
}

} // namespace lockscope::test
