// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/nodeaddress.h"

#include <QByteArrayList>
#include <QHash>
#include <QObject>
#include <QTcpServer>

#include <functional>
#include <optional>

class QTcpSocket;

namespace lockscope::test {

// A RESP peer on a free loopback port, in this process, for answers a real redis-server never gives:
// huge or endless replies, a SCAN that never ends, a forged redirection, a sentinel naming a
// stranger, error texts full of control bytes. Every command is decoded and recorded (AUTH included)
// and goes to the test's handler first; what it leaves unanswered (nullopt) gets what an open,
// healthy master answers: the handshake (AUTH, SELECT, CLIENT, PING, INFO, TIME), ASKING, CONFIG GET
// (an empty value) and DBSIZE (0); anything else an error reply. It lives on this thread: the test's
// event loop must run (runLockctl does).
class FakeRedisPeer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FakeRedisPeer)

public:
    // Returns the raw RESP bytes to answer `argv` with, or nullopt for the default answer. `socket`
    // lets a handler keep streaming after its answer (e.g. the body of a huge bulk string).
    using Handler = std::function<std::optional<QByteArray>(const QByteArrayList& argv, QTcpSocket* socket)>;

    explicit FakeRedisPeer(Handler handler = {}, QObject* parent = nullptr);
    // A peer that answers every command, the handshake included, with the error reply `errorText`
    // (without the leading '-' and the final CRLF).
    static Handler alwaysError(const QByteArray& errorText);

    void setHandler(Handler handler) { m_handler = std::move(handler); }
    bool isListening() const { return m_server.isListening(); }
    quint16 port() const { return m_server.serverPort(); }
    NodeAddress address() const { return {QStringLiteral("127.0.0.1"), port()}; }
    // redis://127.0.0.1:PORT, with `password` for the default user when one is given.
    QString url(const QString& password = QString()) const;

    int connections() const { return m_connections; }
    const QList<QByteArrayList>& commands() const { return m_commands; }
    int commandCount(const QByteArray& name) const;
    // Whether any AUTH carried `password`.
    bool sawAuthWith(const QByteArray& password) const;

private:
    void onReadyRead(QTcpSocket* socket);
    QByteArray defaultAnswer(const QByteArrayList& argv) const;

    QTcpServer m_server;
    Handler m_handler;
    int m_connections = 0;
    QList<QByteArrayList> m_commands;
    QHash<QTcpSocket*, QByteArray> m_buffers; // bytes of a command not complete yet, per connection
};

} // namespace lockscope::test
