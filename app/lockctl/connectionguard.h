// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lockctl/httplimits.h"
#include "metrics/httpguardcounts.h"

#include <QByteArray>
#include <QObject>
#include <QTimer>

#include <functional>

class QTcpSocket;

namespace lockctl {

// One accepted connection of `lockctl serve`, watched before Qt HTTP Server reads it (HttpListener).
// A child of its socket, so it ends with it.
//
// Its readyRead slot is connected before the server's, so it runs first on every chunk: it counts
// the bytes of the request under way (what the socket has that the server's parser has not read yet:
// the parser reads all it is given, inside a QIODevice transaction it commits when a request is
// complete, so "no transaction" means "a new request starts here"), peeks at the header block for a
// body, and runs the deadline of the phase the connection is in. A connection over a limit is cut
// off from the server (its readyRead slot disconnected, so it never parses what is buffered) and
// aborted.
class ConnectionGuard final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionGuard)

public:
    using Refused = std::function<void(lockscope::HttpGuardCounts::Reason)>;

    ConnectionGuard(QTcpSocket* socket, const HttpLimits& limits, Refused refused);

    // The socket is the HTTP server's now (`server` is the object its slots are connected to): from
    // here a request the server has answered moves the connection to its idle deadline.
    void handedOver(QObject* server);
    // Closes the connection, counting it under `reason`.
    void refuse(lockscope::HttpGuardCounts::Reason reason);
    // When the current phase (waiting for a request, or idle) began, monotonic: the oldest goes
    // first when the connections are over the cap.
    qint64 phaseStartedMs() const { return m_phaseStartedMs; }

private:
    enum class Phase
    {
        Request, // waiting for (the rest of) a request
        Idle     // answered; kept alive until the next one
    };

    void beforeServer();
    void afterServer();
    void startPhase(Phase phase);
    void expired();
    // Scans `fresh` bytes of the header block; true when it announced a body.
    bool announcesBody(const QByteArray& fresh);

    QTcpSocket* m_socket;
    HttpLimits m_limits;
    Refused m_refused;
    QObject* m_server = nullptr;
    QTimer m_deadline;
    Phase m_phase = Phase::Request;
    qint64 m_phaseStartedMs = 0;
    qint64 m_requestBytes = 0;
    QByteArray m_head;       // the header block so far, up to the size cap
    bool m_headDone = false; // its blank line was seen
    bool m_closed = false;
};

} // namespace lockctl
