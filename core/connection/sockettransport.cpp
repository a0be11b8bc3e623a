// SPDX-License-Identifier: Apache-2.0
#include "connection/sockettransport.h"

#include <QFile>
#include <QLocalSocket>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslSocket>
#include <QTcpSocket>

#include <poll.h>
#include <sys/socket.h>

namespace lockscope {

namespace {

ErrorKind kindOf(QAbstractSocket::SocketError error)
{
    switch (error) {
    case QAbstractSocket::ConnectionRefusedError:
        return ErrorKind::Refused;
    case QAbstractSocket::HostNotFoundError:
        return ErrorKind::HostNotFound;
    case QAbstractSocket::SocketTimeoutError:
        return ErrorKind::Timeout;
    case QAbstractSocket::SslHandshakeFailedError:
    case QAbstractSocket::SslInternalError:
    case QAbstractSocket::SslInvalidUserDataError:
        return ErrorKind::TlsFailure;
    default:
        return ErrorKind::ConnectionLost;
    }
}

ErrorKind kindOf(QLocalSocket::LocalSocketError error)
{
    switch (error) {
    case QLocalSocket::ConnectionRefusedError:
        return ErrorKind::Refused;
    case QLocalSocket::ServerNotFoundError:
        return ErrorKind::HostNotFound;
    case QLocalSocket::SocketTimeoutError:
        return ErrorKind::Timeout;
    default:
        return ErrorKind::ConnectionLost;
    }
}

} // namespace

SocketTransport::SocketTransport(ConnectionOptions options, QObject* parent)
    : RedisTransport(parent), m_options(std::move(options))
{}

SocketTransport::~SocketTransport()
{
    dropSocket();
}

void SocketTransport::open()
{
    dropSocket();
    m_failed = false;
    m_tlsErrors.clear();
    switch (m_options.url.scheme()) {
    case RedisUrl::Scheme::Tcp:
        openTcp(false);
        break;
    case RedisUrl::Scheme::Tls:
        openTcp(true);
        break;
    case RedisUrl::Scheme::Unix:
        openUnix();
        break;
    }
}

void SocketTransport::openTcp(bool tls)
{
    QTcpSocket* socket = nullptr;
    if (tls) {
        auto* ssl = new QSslSocket(this);
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        const TlsOptions& t = m_options.tls;
        if (!t.caFile.isEmpty()) {
            const QList<QSslCertificate> cas = QSslCertificate::fromPath(t.caFile, QSsl::Pem);
            if (cas.isEmpty()) {
                delete ssl;
                fail(ErrorKind::TlsFailure,
                     QStringLiteral("no CA certificate could be read from %1").arg(t.caFile));
                return;
            }
            config.setCaCertificates(cas);
        }
        if (!t.certFile.isEmpty() || !t.keyFile.isEmpty()) {
            const QList<QSslCertificate> certs = QSslCertificate::fromPath(t.certFile, QSsl::Pem);
            QFile keyFile(t.keyFile);
            QSslKey key;
            if (keyFile.open(QIODevice::ReadOnly)) {
                const QByteArray pem = keyFile.readAll();
                key = QSslKey(pem, QSsl::Rsa);
                if (key.isNull())
                    key = QSslKey(pem, QSsl::Ec);
            }
            if (certs.isEmpty() || key.isNull()) {
                delete ssl;
                fail(ErrorKind::TlsFailure,
                     QStringLiteral("client certificate %1 or key %2 could not be read")
                         .arg(t.certFile, t.keyFile));
                return;
            }
            config.setLocalCertificate(certs.first());
            config.setPrivateKey(key);
        }
        config.setPeerVerifyMode(t.insecure ? QSslSocket::VerifyNone : QSslSocket::VerifyPeer);
        ssl->setSslConfiguration(config);
        ssl->setPeerVerifyName(t.serverName.isEmpty() ? m_options.url.host() : t.serverName);
        connect(ssl, &QSslSocket::encrypted, this, &SocketTransport::opened);
        connect(ssl, &QSslSocket::sslErrors, this, [this](const QList<QSslError>& errors) {
            QStringList texts;
            for (const QSslError& e : errors)
                texts << e.errorString();
            m_tlsErrors = texts.join(QStringLiteral("; "));
        });
        socket = ssl;
    } else {
        socket = new QTcpSocket(this);
    }
    connect(socket, &QTcpSocket::connected, this, [this, socket, tls] {
        // Socket options set before connectToHost() are silently dropped by Qt (there is no native
        // socket yet), so they go here. Without TCP_NODELAY a small command written while another
        // is unacknowledged waits for the peer's delayed ACK.
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        socket->setSocketOption(QAbstractSocket::KeepAliveOption, 1);
        if (!tls) {
            m_plainDescriptor = socket->socketDescriptor();
            emit opened();
        }
    });
    connect(socket, &QTcpSocket::readyRead, this, &SocketTransport::readyRead);
    connect(socket, &QTcpSocket::errorOccurred, this, [this, socket](QAbstractSocket::SocketError error) {
        QString text = socket->errorString();
        ErrorKind kind = kindOf(error);
        if (!m_tlsErrors.isEmpty()) {
            kind = ErrorKind::TlsFailure;
            text = QStringLiteral("TLS verification failed: ") + m_tlsErrors;
        } else if (kind == ErrorKind::ConnectionLost && m_options.url.isTls() &&
                   !qobject_cast<QSslSocket*>(socket)->isEncrypted()) {
            kind = ErrorKind::TlsFailure;
            text = QStringLiteral("TLS handshake failed: ") + text;
        }
        fail(kind, text);
    });
    // A peer that closes without an error (e.g. after QUIT) is still a lost connection to us.
    connect(socket, &QTcpSocket::disconnected, this,
            [this] { fail(ErrorKind::ConnectionLost, QStringLiteral("connection closed by the server")); });
    m_device = socket;
    if (auto* ssl = qobject_cast<QSslSocket*>(socket))
        ssl->connectToHostEncrypted(m_options.url.host(), m_options.url.port(),
                                    m_options.tls.serverName.isEmpty() ? m_options.url.host()
                                                                       : m_options.tls.serverName);
    else
        socket->connectToHost(m_options.url.host(), m_options.url.port());
}

void SocketTransport::openUnix()
{
    auto* socket = new QLocalSocket(this);
    connect(socket, &QLocalSocket::connected, this, [this, socket] {
        m_plainDescriptor = socket->socketDescriptor();
        emit opened();
    });
    connect(socket, &QLocalSocket::readyRead, this, &SocketTransport::readyRead);
    connect(socket, &QLocalSocket::errorOccurred, this, [this, socket](QLocalSocket::LocalSocketError error) {
        fail(kindOf(error), socket->errorString());
    });
    connect(socket, &QLocalSocket::disconnected, this,
            [this] { fail(ErrorKind::ConnectionLost, QStringLiteral("connection closed by the server")); });
    m_device = socket;
    socket->connectToServer(m_options.url.socketPath());
}

void SocketTransport::fail(ErrorKind kind, const QString& message)
{
    if (m_failed)
        return;
    m_failed = true;
    emit failed(kind, message);
}

void SocketTransport::dropSocket()
{
    m_plainDescriptor = -1;
    if (!m_device)
        return;
    QIODevice* device = m_device;
    m_device = nullptr;
    device->disconnect(this);
    if (auto* tcp = qobject_cast<QAbstractSocket*>(device))
        tcp->abort();
    else if (auto* local = qobject_cast<QLocalSocket*>(device))
        local->abort();
    device->deleteLater();
}

void SocketTransport::abort()
{
    m_failed = true; // an abort we asked for is not a failure to report
    dropSocket();
}

void SocketTransport::write(const QByteArray& bytes)
{
    if (!m_device)
        return;
    // Straight to the kernel when nothing of ours waits in Qt's buffer (order is kept) and the
    // socket is plain: handed to QAbstractSocket, every write turned its write notifier on and off
    // again, and each turn woke the event loop (two eventfd writes per command batch, twice the
    // sends themselves; issue #47). What the kernel does not take, or an error, goes through Qt,
    // which waits for room and reports the failure as usual.
    qint64 sent = 0;
    if (m_plainDescriptor >= 0 && m_device->bytesToWrite() == 0) {
        const ssize_t n = ::send(int(m_plainDescriptor), bytes.constData(), size_t(bytes.size()),
                                 MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n == bytes.size())
            return;
        if (n > 0)
            sent = n;
    }
    m_device->write(bytes.constData() + sent, bytes.size() - sent);
}

void SocketTransport::flush()
{
    if (auto* tcp = qobject_cast<QAbstractSocket*>(m_device.data()))
        tcp->flush();
    else if (auto* local = qobject_cast<QLocalSocket*>(m_device.data()))
        local->flush();
}

QByteArray SocketTransport::read(qint64 maxBytes)
{
    return m_device ? m_device->read(maxBytes) : QByteArray();
}

bool SocketTransport::hasUnreadBytes() const
{
    if (!m_device)
        return false;
    if (m_device->bytesAvailable() > 0)
        return true;
    qintptr fd = -1;
    if (const auto* tcp = qobject_cast<const QAbstractSocket*>(m_device.data()))
        fd = tcp->socketDescriptor();
    else if (const auto* local = qobject_cast<const QLocalSocket*>(m_device.data()))
        fd = local->socketDescriptor();
    if (fd < 0)
        return false;
    // What the kernel holds for us; for TLS, encrypted bytes count as well: the server sent them.
    pollfd p{int(fd), POLLIN, 0};
    return ::poll(&p, 1, 0) > 0 && (p.revents & POLLIN) != 0;
}

} // namespace lockscope
