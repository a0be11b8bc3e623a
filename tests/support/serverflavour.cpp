// SPDX-License-Identifier: Apache-2.0
#include "support/serverflavour.h"

#include <QProcess>
#include <QRegularExpression>
#include <QtGlobal>

namespace lockscope::test {

ServerFlavour serverFlavour()
{
    static const ServerFlavour flavour = [] {
        const QByteArray name = qgetenv("LOCKSCOPE_SERVER");
        if (name.isEmpty() || name == "redis")
            return ServerFlavour::Redis;
        if (name == "valkey")
            return ServerFlavour::Valkey;
        qFatal("LOCKSCOPE_SERVER=%s: the tests know \"redis\" and \"valkey\"", name.constData());
    }();
    return flavour;
}

QString serverProgram()
{
    return serverFlavour() == ServerFlavour::Valkey ? QStringLiteral("valkey-server")
                                                    : QStringLiteral("redis-server");
}

QString ServerIdentity::shown() const
{
    return name.left(1).toUpper() + name.mid(1) + QLatin1Char(' ') + version;
}

ServerIdentity serverIdentity()
{
    static const ServerIdentity identity = [] {
        QProcess p;
        p.start(serverProgram(), {QStringLiteral("--version")});
        p.waitForFinished(10000);
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("^(\\w+) server v=(\\S+)")).match(out);
        if (!m.hasMatch())
            qFatal("%s --version printed no \"NAME server v=VERSION\": %s", qPrintable(serverProgram()),
                   qPrintable(out));
        return ServerIdentity{m.captured(1).toLower(), m.captured(2)};
    }();
    return identity;
}

} // namespace lockscope::test
