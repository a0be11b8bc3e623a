// SPDX-License-Identifier: Apache-2.0
#include "support/fakeredispeer.h"

#include "support/scriptedtransport.h"

#include <QTcpSocket>

namespace lockscope::test {

namespace {

// One command (an array of bulk strings) from the front of `buffer`, removed from it; nullopt when
// it is not complete yet.
std::optional<QByteArrayList> takeCommand(QByteArray& buffer)
{
    qsizetype at = 0;
    auto line = [&buffer, &at]() -> std::optional<QByteArray> {
        const qsizetype end = buffer.indexOf("\r\n", at);
        if (end < 0)
            return std::nullopt;
        QByteArray out = buffer.mid(at, end - at);
        at = end + 2;
        return out;
    };
    const std::optional<QByteArray> header = line();
    if (!header || !header->startsWith('*'))
        return std::nullopt;
    const int count = header->mid(1).toInt();
    QByteArrayList argv;
    for (int i = 0; i < count; ++i) {
        const std::optional<QByteArray> lengthLine = line();
        if (!lengthLine || !lengthLine->startsWith('$'))
            return std::nullopt;
        const qsizetype length = lengthLine->mid(1).toLongLong();
        if (buffer.size() < at + length + 2)
            return std::nullopt;
        argv << buffer.mid(at, length);
        at += length + 2;
    }
    buffer.remove(0, at);
    return argv;
}

} // namespace

FakeRedisPeer::FakeRedisPeer(Handler handler, QObject* parent)
    : QObject(parent), m_handler(std::move(handler))
{
    m_server.listen(QHostAddress::LocalHost, 0);
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket* socket = m_server.nextPendingConnection()) {
            ++m_connections;
            socket->setParent(this);
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QObject::destroyed, this, [this, socket] { m_buffers.remove(socket); });
        }
    });
}

FakeRedisPeer::Handler FakeRedisPeer::alwaysError(const QByteArray& errorText)
{
    const QByteArray reply = ScriptedTransport::error(errorText);
    return [reply](const QByteArrayList&, QTcpSocket*) { return std::optional<QByteArray>(reply); };
}

QString FakeRedisPeer::url(const QString& password) const
{
    return password.isEmpty() ? QStringLiteral("redis://127.0.0.1:%1").arg(port())
                              : QStringLiteral("redis://:%1@127.0.0.1:%2").arg(password).arg(port());
}

int FakeRedisPeer::commandCount(const QByteArray& name) const
{
    int n = 0;
    for (const QByteArrayList& argv : m_commands)
        if (argv.value(0).toUpper() == name.toUpper())
            ++n;
    return n;
}

bool FakeRedisPeer::sawAuthWith(const QByteArray& password) const
{
    for (const QByteArrayList& argv : m_commands)
        if (argv.value(0).toUpper() == "AUTH" && argv.mid(1).contains(password))
            return true;
    return false;
}

void FakeRedisPeer::onReadyRead(QTcpSocket* socket)
{
    QByteArray& buffer = m_buffers[socket];
    buffer += socket->readAll();
    while (std::optional<QByteArrayList> argv = takeCommand(buffer)) {
        if (argv->isEmpty())
            continue;
        m_commands << *argv;
        const std::optional<QByteArray> answer = m_handler ? m_handler(*argv, socket) : std::nullopt;
        socket->write(answer ? *answer : defaultAnswer(*argv));
    }
}

QByteArray FakeRedisPeer::defaultAnswer(const QByteArrayList& argv) const
{
    if (std::optional<QByteArray> handshake = ScriptedTransport::handshakeReply(argv))
        return *handshake;
    const QByteArray name = argv.first().toUpper();
    if (name == "ASKING")
        return ScriptedTransport::status("OK");
    if (name == "INFO") // INFO with no section, or another one: a master
        return ScriptedTransport::bulk("role:master\r\nredis_version:7.0.0\r\n");
    if (name == "CONFIG" && argv.size() == 3 && argv.at(1).toUpper() == "GET")
        return ScriptedTransport::array({ScriptedTransport::bulk(argv.at(2)), ScriptedTransport::bulk({})});
    if (name == "DBSIZE")
        return ScriptedTransport::integer(0);
    return ScriptedTransport::error("ERR unknown command '" + name + "'");
}

} // namespace lockscope::test
