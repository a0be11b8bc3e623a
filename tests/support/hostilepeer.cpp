#include "hostilepeer.h"

#include <QTcpSocket>

namespace lockscope::test {

namespace {

// Bytes taken by one complete "*N\r\n$len\r\n…\r\n…" command at the start of `in`, or 0 while it
// is incomplete (or not RESP at all: a peer that only ever gets hiredis' commands need not care).
qsizetype commandLength(const QByteArray& in)
{
    auto line = [&in](qsizetype from, qint64* value) -> qsizetype {
        const qsizetype end = in.indexOf("\r\n", from);
        if (end < 0)
            return -1;
        bool ok = false;
        *value = in.mid(from + 1, end - from - 1).toLongLong(&ok);
        return ok ? end + 2 : -1;
    };
    if (!in.startsWith('*'))
        return 0;
    qint64 count = 0;
    qsizetype at = line(0, &count);
    for (qint64 i = 0; at > 0 && i < count; ++i) {
        if (at >= in.size() || in[at] != '$')
            return 0;
        qint64 length = 0;
        at = line(at, &length);
        if (at < 0 || at + length + 2 > in.size())
            return 0;
        at += length + 2;
    }
    return at > 0 ? at : 0;
}

} // namespace

HostilePeer::HostilePeer(QByteArray errorText, QObject* parent)
    : QObject(parent), m_reply('-' + errorText + "\r\n")
{
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket* s = m_server.nextPendingConnection()) {
            s->setProperty("pending", QByteArray());
            connect(s, &QTcpSocket::readyRead, this, [this, s] { onReadyRead(s); });
            connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
        }
    });
}

bool HostilePeer::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

QString HostilePeer::url(const QString& password) const
{
    return password.isEmpty() ? QStringLiteral("redis://127.0.0.1:%1").arg(port())
                              : QStringLiteral("redis://:%1@127.0.0.1:%2").arg(password).arg(port());
}

void HostilePeer::onReadyRead(QTcpSocket* socket)
{
    QByteArray pending = socket->property("pending").toByteArray() + socket->readAll();
    QByteArray out;
    while (const qsizetype n = commandLength(pending)) {
        pending.remove(0, n);
        out += m_reply;
        ++m_commands;
    }
    socket->setProperty("pending", pending);
    if (!out.isEmpty())
        socket->write(out);
}

} // namespace lockscope::test
