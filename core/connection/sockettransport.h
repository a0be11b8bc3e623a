// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/connectionoptions.h"
#include "connection/redistransport.h"

#include <QPointer>

class QIODevice;

namespace lockscope {

// TCP, TLS (QSslSocket) or a Unix socket (QLocalSocket), chosen by the URL's scheme.
// Each open() makes a fresh socket, so nothing from an aborted attempt can leak into the next.
class SocketTransport final : public RedisTransport
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SocketTransport)

public:
    explicit SocketTransport(ConnectionOptions options, QObject* parent = nullptr);
    ~SocketTransport() override;

    void open() override;
    void abort() override;
    void write(const QByteArray& bytes) override;
    void flush() override;
    QByteArray read(qint64 maxBytes) override;
    bool hasUnreadBytes() const override;

private:
    void openTcp(bool tls);
    void openUnix();
    void fail(ErrorKind kind, const QString& message);
    void dropSocket();

    ConnectionOptions m_options;
    QPointer<QIODevice> m_device;
    QString m_tlsErrors;
    bool m_failed = false;
    // A connected plain TCP or Unix socket's, written to directly (write()); -1: through Qt (TLS).
    qintptr m_plainDescriptor = -1;
};

} // namespace lockscope
