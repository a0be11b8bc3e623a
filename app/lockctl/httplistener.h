// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lockctl/httplimits.h"
#include "metrics/httpguardcounts.h"

#include <QSet>
#include <QSslConfiguration>
#include <QTcpServer>
#include <QTimer>

#include <optional>

namespace lockctl {

class ConnectionGuard;

// The listening socket of `lockctl serve`, in front of Qt HTTP Server (which gets it through
// QAbstractHttpServer::bind). Qt HTTP Server 6.4 offers no hook before it reads a request, nor any
// limit or timeout, so this server does the accepting itself: it makes each socket (a QSslSocket and
// the server side of the handshake when TLS is on, what QSslServer would do), puts a ConnectionGuard
// on it before the HTTP server connects its own slots, and only then hands it over as a pending
// connection. The guard enforces HttpLimits on every byte before any route or password check runs.
//
// Past maxConnections the connection waiting longest in its phase is closed to make room, rather
// than the new one refused: idle sockets held open by one client must not lock Prometheus out.
class HttpListener final : public QTcpServer
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpListener)

public:
    HttpListener(const HttpLimits& limits, std::optional<QSslConfiguration> tls, QObject* parent = nullptr);
    ~HttpListener() override;

    lockscope::HttpGuardCounts counts() const;

protected:
    void incomingConnection(qintptr handle) override;

private:
    void makeRoom();

    HttpLimits m_limits;
    std::optional<QSslConfiguration> m_tls;
    lockscope::HttpGuardCounts m_counts;
    QSet<ConnectionGuard*> m_guards;
    QTimer m_resumeAccepting;
};

} // namespace lockctl
