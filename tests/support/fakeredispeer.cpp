#include "fakeredispeer.h"

#include "scriptedtransport.h"

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
            socket->setParent(this);
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QObject::destroyed, this, [this, socket] { m_buffers.remove(socket); });
        }
    });
}

int FakeRedisPeer::commandCount(const QByteArray& name) const
{
    return m_counts.value(name.toUpper());
}

void FakeRedisPeer::onReadyRead(QTcpSocket* socket)
{
    QByteArray& buffer = m_buffers[socket];
    buffer += socket->readAll();
    while (std::optional<QByteArrayList> argv = takeCommand(buffer)) {
        if (argv->isEmpty())
            continue;
        const QByteArray name = argv->first().toUpper();
        ++m_counts[name];
        std::optional<QByteArray> answer = m_handler ? m_handler(*argv, socket) : std::nullopt;
        if (!answer)
            answer = ScriptedTransport::handshakeReply(*argv);
        if (!answer && name == "CONFIG" && argv->size() == 3 && argv->at(1).toUpper() == "GET")
            answer =
                ScriptedTransport::array({ScriptedTransport::bulk(argv->at(2)), ScriptedTransport::bulk({})});
        if (!answer && name == "DBSIZE")
            answer = ScriptedTransport::integer(0);
        if (!answer)
            answer = ScriptedTransport::error("ERR unknown command '" + name + "'");
        socket->write(*answer);
    }
}

} // namespace lockscope::test
