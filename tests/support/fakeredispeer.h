#pragma once

#include <QByteArrayList>
#include <QHash>
#include <QObject>
#include <QTcpServer>

#include <functional>
#include <optional>

class QTcpSocket;

namespace lockscope::test {

// A RESP peer on a free loopback port, in this process, for tests that need a server that misbehaves
// in ways a real redis-server never does (huge or endless replies, a SCAN that never ends). Commands
// go to the test's handler first; what it leaves unanswered (nullopt) gets what a healthy master
// answers to the handshake, PING, CONFIG GET notify-keyspace-events ("") and DBSIZE (0), and anything
// else an error reply. It lives on this thread: the test's event loop must run (runLockctl does).
class FakeRedisPeer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FakeRedisPeer)

public:
    // Returns the raw RESP bytes to answer `argv` with, or nullopt for the default answer. `socket`
    // lets a handler keep streaming after its answer (e.g. the body of a huge bulk string).
    using Handler = std::function<std::optional<QByteArray>(const QByteArrayList& argv, QTcpSocket* socket)>;

    explicit FakeRedisPeer(Handler handler, QObject* parent = nullptr);

    bool isListening() const { return m_server.isListening(); }
    quint16 port() const { return m_server.serverPort(); }
    QString url() const { return QStringLiteral("redis://127.0.0.1:%1").arg(port()); }
    int commandCount(const QByteArray& name) const;

private:
    void onReadyRead(QTcpSocket* socket);

    QTcpServer m_server;
    Handler m_handler;
    QHash<QByteArray, int> m_counts;
    QHash<QTcpSocket*, QByteArray> m_buffers; // bytes of a command not complete yet, per connection
};

} // namespace lockscope::test
