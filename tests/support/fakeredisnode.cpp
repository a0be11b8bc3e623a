#include "fakeredisnode.h"

#include <QTcpSocket>

#include <hiredis/hiredis.h>

#include <memory>

namespace lockscope::test {

FakeRedisNode::FakeRedisNode(QObject* parent) : QObject(parent)
{
    m_server.listen(QHostAddress::LocalHost);
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket* socket = m_server.nextPendingConnection()) {
            ++m_connections;
            auto reader = std::shared_ptr<redisReader>(redisReaderCreate(), redisReaderFree);
            connect(socket, &QTcpSocket::readyRead, socket, [this, socket, reader] {
                const QByteArray bytes = socket->readAll();
                redisReaderFeed(reader.get(), bytes.constData(), size_t(bytes.size()));
                void* parsed = nullptr;
                while (redisReaderGetReply(reader.get(), &parsed) == REDIS_OK && parsed) {
                    auto* reply = static_cast<redisReply*>(parsed);
                    QByteArrayList argv;
                    for (size_t i = 0; reply->type == REDIS_REPLY_ARRAY && i < reply->elements; ++i)
                        argv << QByteArray(reply->element[i]->str, qsizetype(reply->element[i]->len));
                    freeReplyObject(reply);
                    parsed = nullptr;
                    m_commands << argv;
                    socket->write(respond(argv));
                }
            });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        }
    });
}

bool FakeRedisNode::sawAuthWith(const QByteArray& password) const
{
    for (const QByteArrayList& argv : m_commands)
        if (argv.value(0).toUpper() == "AUTH" && argv.mid(1).contains(password))
            return true;
    return false;
}

int FakeRedisNode::countOf(const QByteArray& command) const
{
    int n = 0;
    for (const QByteArrayList& argv : m_commands)
        if (argv.value(0).toUpper() == command.toUpper())
            ++n;
    return n;
}

QByteArray FakeRedisNode::bulk(const QByteArray& text)
{
    return '$' + QByteArray::number(text.size()) + "\r\n" + text + "\r\n";
}

QByteArray FakeRedisNode::respond(const QByteArrayList& argv) const
{
    if (m_answer)
        if (std::optional<QByteArray> answer = m_answer(argv))
            return *answer;
    const QByteArray name = argv.value(0).toUpper();
    if (name == "AUTH" || name == "SELECT" || name == "CLIENT" || name == "ASKING")
        return "+OK\r\n";
    if (name == "INFO")
        return bulk("role:master\r\nredis_version:7.0.0\r\n");
    if (name == "TIME")
        return "*2\r\n" + bulk("1700000000") + bulk("0");
    if (name == "PING")
        return "+PONG\r\n";
    return "-ERR unknown command\r\n";
}

} // namespace lockscope::test
