#pragma once

#include "nodeaddress.h"

#include <QByteArrayList>
#include <QObject>
#include <QTcpServer>

#include <functional>
#include <optional>

namespace lockscope::test {

// A pretend Redis node on a free loopback port, for answers a real server will not give (a forged
// redirection, a sentinel naming a stranger). Commands are decoded and recorded, AUTH included;
// `answer` decides each reply (RESP bytes), and where it returns nullopt the node answers like an
// open server: +OK to AUTH, SELECT, CLIENT and ASKING, a master's INFO, TIME, PONG; -ERR otherwise.
class FakeRedisNode final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FakeRedisNode)

public:
    using Answer = std::function<std::optional<QByteArray>(const QByteArrayList& argv)>;

    explicit FakeRedisNode(QObject* parent = nullptr);

    NodeAddress address() const { return {QStringLiteral("127.0.0.1"), m_server.serverPort()}; }
    int connections() const { return m_connections; }
    const QList<QByteArrayList>& commands() const { return m_commands; }
    // Whether any AUTH carried `password`.
    bool sawAuthWith(const QByteArray& password) const;
    int countOf(const QByteArray& command) const;
    void setAnswer(Answer answer) { m_answer = std::move(answer); }

    static QByteArray bulk(const QByteArray& text);

private:
    QByteArray respond(const QByteArrayList& argv) const;

    QTcpServer m_server;
    int m_connections = 0;
    QList<QByteArrayList> m_commands;
    Answer m_answer;
};

} // namespace lockscope::test
