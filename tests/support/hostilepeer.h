#pragma once

#include <QByteArray>
#include <QObject>
#include <QTcpServer>

class QTcpSocket;

namespace lockscope::test {

// A loopback peer that speaks just enough RESP to answer every command it is sent with the same
// error reply, whose text the test chooses: how a server's error text, with whatever bytes a
// hostile or broken server puts in it, reaches lockctl and the window.
class HostilePeer final : public QObject
{
public:
    // `errorText` without the leading '-' and the final CRLF; it must not hold CRLF itself.
    explicit HostilePeer(QByteArray errorText, QObject* parent = nullptr);

    bool listen();
    quint16 port() const { return m_server.serverPort(); }
    QString url(const QString& password = QString()) const;
    int commands() const { return m_commands; }

private:
    void onReadyRead(QTcpSocket* socket);

    QTcpServer m_server;
    QByteArray m_reply;
    int m_commands = 0;
};

} // namespace lockscope::test
