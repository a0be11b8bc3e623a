// SPDX-License-Identifier: Apache-2.0
#include "lockctl/httplistener.h"

#include "lockctl/connectionguard.h"

#include <QScopeGuard>
#include <QSslSocket>

#include <unistd.h>

using namespace lockscope;

namespace lockctl {

HttpListener::HttpListener(const HttpLimits& limits, std::optional<QSslConfiguration> tls, QObject* parent)
    : QTcpServer(parent), m_limits(limits), m_tls(std::move(tls))
{
    // QTcpServer pauses accepting for good on an error such as EMFILE; a pause, then another try,
    // keeps the service reachable once descriptors are free again without spinning on accept.
    m_resumeAccepting.setSingleShot(true);
    m_resumeAccepting.setInterval(200);
    connect(&m_resumeAccepting, &QTimer::timeout, this, &QTcpServer::resumeAccepting);
    connect(this, &QTcpServer::acceptError, this, [this] { m_resumeAccepting.start(); });
}

HttpListener::~HttpListener()
{
    // Its sockets, and their guards, are deleted after this body: their ends need not be counted.
    for (ConnectionGuard* guard : std::as_const(m_guards))
        guard->disconnect(this);
}

HttpGuardCounts HttpListener::counts() const
{
    HttpGuardCounts out = m_counts;
    out.open = int(m_guards.size());
    return out;
}

void HttpListener::incomingConnection(qintptr handle)
{
    // The descriptor is ours until a socket has taken it.
    auto closeHandle = qScopeGuard([handle] { ::close(int(handle)); });
    if (m_guards.size() >= m_limits.maxConnections)
        makeRoom();
    QTcpSocket* socket = m_tls ? new QSslSocket(this) : new QTcpSocket(this);
    if (!socket->setSocketDescriptor(handle)) {
        delete socket;
        return;
    }
    closeHandle.dismiss();
    // However it ends, before or after the HTTP server took it.
    connect(socket, &QAbstractSocket::disconnected, socket, &QObject::deleteLater);
    auto* guard = new ConnectionGuard(socket, m_limits,
                                      [this](HttpGuardCounts::Reason reason) { ++m_counts.refused[reason]; });
    m_guards.insert(guard);
    connect(guard, &QObject::destroyed, this, [this, guard] { m_guards.remove(guard); });
    const auto handOver = [this, socket, guard] {
        // QTcpServer announces it (pendingConnectionAvailable) and the HTTP server, bound to this
        // server, takes it and connects its slots now, after the guard's.
        addPendingConnection(socket);
        guard->handedOver(parent());
    };
    if (!m_tls) {
        // The socket stops reading once it holds one byte over the cap, which the guard refuses.
        socket->setReadBufferSize(m_limits.maxRequestBytes + 1);
        handOver();
        return;
    }
    auto* ssl = static_cast<QSslSocket*>(socket);
    ssl->setSslConfiguration(*m_tls);
    connect(ssl, &QSslSocket::encrypted, this, handOver);
    // A failed handshake: the socket disconnects itself, and is deleted above.
    ssl->startServerEncryption();
}

void HttpListener::makeRoom()
{
    ConnectionGuard* oldest = nullptr;
    for (ConnectionGuard* guard : std::as_const(m_guards))
        if (!oldest || guard->phaseStartedMs() < oldest->phaseStartedMs())
            oldest = guard;
    if (oldest) {
        m_guards.remove(oldest); // counted out now; the socket goes when the loop gets back
        oldest->refuse(HttpGuardCounts::ConnectionLimit);
    }
}

} // namespace lockctl
