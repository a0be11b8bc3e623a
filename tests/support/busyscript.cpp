// SPDX-License-Identifier: Apache-2.0
#include "support/busyscript.h"

#include <QRegularExpression>

namespace lockscope::test {

QString busyScript(const RedisServer& server, qint64 us)
{
    const auto script = [](qint64 calls) {
        return QStringLiteral("for i = 1, %1 do redis.call('EXISTS', 'busy:probe') end").arg(calls);
    };
    constexpr qint64 probeCalls = 20000;
    server.command({"CONFIG", "RESETSTAT"});
    server.command({"EVAL", script(probeCalls).toUtf8(), "0"});
    const QByteArray info = server.command({"INFO", "commandstats"}).string;
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("cmdstat_eval:calls=1,usec=(\\d+)"))
                                          .match(QString::fromLatin1(info));
    const qint64 probeUs = m.hasMatch() ? m.captured(1).toLongLong() : 0;
    if (probeUs <= 0)
        return {};
    return script(qMax<qint64>(1000, probeCalls * us / probeUs));
}

} // namespace lockscope::test
