// SPDX-License-Identifier: Apache-2.0
#include "support/interoppeers.h"
#include "support/testpaths.h"

#include "support/redisserver.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QStandardPaths>

namespace lockscope::test {

namespace {

const QString interopDir = sourcePath(QStringLiteral("tests/interop"));
const QString python = QStringLiteral("/usr/bin/python3"); // Debian's, with python3-redis

QString nodePath()
{
    return QStandardPaths::findExecutable(QStringLiteral("node"));
}

QJsonObject runPeer(const QString& program, const QStringList& args)
{
    QProcess p;
    p.setProcessEnvironment(testPasswordEnvironment());
    p.setWorkingDirectory(interopDir);
    p.start(program, args);
    if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        qWarning("%s failed: %s", qPrintable(args.join(QLatin1Char(' '))),
                 p.readAllStandardError().constData());
        return {};
    }
    const QList<QJsonObject> lines = InteropPeers::jsonLines(p.readAllStandardOutput());
    return lines.isEmpty() ? QJsonObject() : lines.first();
}

} // namespace

QString InteropPeers::missing()
{
    if (nodePath().isEmpty() || !QDir(interopDir + QStringLiteral("/node_modules/redlock")).exists())
        return QStringLiteral(
            "node or tests/interop/node_modules missing: run scripts/test.sh, which installs them");
    if (!QFile::exists(python))
        return QStringLiteral("Debian's python3 (with python3-redis) is missing: run scripts/test.sh");
    return {};
}

QJsonObject InteropPeers::node(const QStringList& args)
{
    return runPeer(nodePath(), QStringList{interopDir + QStringLiteral("/write-locks.js")} + args);
}

QJsonObject InteropPeers::redisPy(const QString& name, const QString& timeout, const QString& url)
{
    return runPeer(python, {interopDir + QStringLiteral("/write_redispy_lock.py"), name, timeout, url});
}

QJsonObject InteropPeers::flashSale(const QString& key, const QString& url)
{
    return runPeer(python, {interopDir + QStringLiteral("/flash_sale.py"), key, url});
}

void InteropPeers::startPython(QProcess& process, const QString& script, const QStringList& args)
{
    process.setProcessEnvironment(testPasswordEnvironment());
    process.setWorkingDirectory(interopDir);
    process.start(python, QStringList{interopDir + QLatin1Char('/') + script} + args);
}

void InteropPeers::startNode(QProcess& process, const QStringList& args)
{
    process.setProcessEnvironment(testPasswordEnvironment());
    process.setWorkingDirectory(interopDir);
    process.start(nodePath(), QStringList{interopDir + QStringLiteral("/write-locks.js")} + args);
}

QList<QJsonObject> InteropPeers::jsonLines(const QByteArray& output)
{
    QList<QJsonObject> out;
    for (const QByteArray& line : output.split('\n'))
        if (const QJsonDocument doc = QJsonDocument::fromJson(line.trimmed()); doc.isObject())
            out << doc.object();
    return out;
}

} // namespace lockscope::test
