// SPDX-License-Identifier: Apache-2.0
#include "base/localserverfiles.h"

#include "base/bytesdisplay.h"

#include <QFile>
#include <QRandomGenerator>

namespace lockscope {

QString LocalServerFiles::newPassword()
{
    QString out;
    for (int i = 0; i < 2; ++i)
        out += QStringLiteral("%1").arg(QRandomGenerator::system()->generate64(), 16, 16, QLatin1Char('0'));
    return out;
}

QByteArray LocalServerFiles::quoted(const QString& text)
{
    // redis.conf's double quotes take \\, \" and \xHH (sdssplitargs).
    QByteArray out = "\"";
    for (const char c : text.toUtf8()) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\\' || c == '"')
            out += '\\' + QByteArray(1, c);
        else if (u < 0x20 || u == 0x7f)
            out += "\\x" + QByteArray::number(u, 16).rightJustified(2, '0');
        else
            out += c;
    }
    return out + '"';
}

QByteArray LocalServerFiles::serverConfig(quint16 port, const QString& dir, const QString& password)
{
    return "port " + QByteArray::number(port) +
           "\nbind 127.0.0.1\nprotected-mode yes\nsave \"\"\nappendonly no\ndir " + quoted(dir) +
           "\nlogfile " + quoted(dir + QStringLiteral("/redis.log")) +
           "\nnotify-keyspace-events KA\nrequirepass " + quoted(password) + '\n';
}

bool LocalServerFiles::writePrivate(const QString& path, const QByteArray& text, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate,
                   QFileDevice::ReadOwner | QFileDevice::WriteOwner) ||
        !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner) ||
        file.write(text) != text.size()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool LocalServerFiles::portWasTaken(const QString& logPath)
{
    QFile log(logPath);
    if (!log.open(QIODevice::ReadOnly))
        return false;
    // "Warning: Could not create server TCP listening socket 127.0.0.1:N: bind: Address already in use"
    return log.read(1024 * 1024).contains("Address already in use");
}

QString LocalServerFiles::lastLine(const QString& logPath, const QString& secret)
{
    QFile log(logPath);
    if (!log.open(QIODevice::ReadOnly))
        return {};
    const QByteArrayList lines = log.read(1024 * 1024).trimmed().split('\n');
    QByteArray line = lines.isEmpty() ? QByteArray() : lines.last().trimmed();
    if (!secret.isEmpty())
        line.replace(secret.toUtf8(), "***"); // a configuration error quotes the line it is on
    return escapeBytes(line.left(300));
}

} // namespace lockscope
