// SPDX-License-Identifier: Apache-2.0
#include "lockctl/connectionguard.h"

#include "base/monotonicclock.h"

#include <QTcpSocket>

#include <utility>

using namespace lockscope;

namespace lockctl {

ConnectionGuard::ConnectionGuard(QTcpSocket* socket, const HttpLimits& limits, Refused refused)
    : QObject(socket), m_socket(socket), m_limits(limits), m_refused(std::move(refused))
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, &ConnectionGuard::expired);
    // Connected before the HTTP server gets the socket, so this slot runs before the server's parser.
    connect(socket, &QIODevice::readyRead, this, &ConnectionGuard::beforeServer);
    startPhase(Phase::Request);
}

void ConnectionGuard::handedOver(QObject* server)
{
    m_server = server;
    // After the server's slot: sees whether the server has just answered a request.
    connect(m_socket, &QIODevice::readyRead, this, &ConnectionGuard::afterServer);
}

void ConnectionGuard::beforeServer()
{
    if (m_closed)
        return;
    if (!m_socket->isTransactionStarted()) { // the parser is between requests: a new one starts
        if (m_socket->bytesToWrite() > m_limits.maxUnsentBytes)
            return refuse(HttpGuardCounts::UnreadResponses);
        m_requestBytes = 0;
        m_head.clear();
        m_headDone = false;
        if (m_phase == Phase::Idle)
            startPhase(Phase::Request);
    }
    // What the parser has not read yet: inside its transaction, only what arrived since it last ran.
    const qint64 fresh = m_socket->bytesAvailable();
    const qint64 before = std::exchange(m_requestBytes, m_requestBytes + fresh);
    // A head that announces a body is refused as a body however much of the body came in the same
    // read: on a slow or busy server the head and the first kilobytes arrive together, and the reason
    // must not depend on that. Only what can still be head is looked at, so a header that never ends
    // is not copied past the limit.
    const qint64 headRoom = qMax<qint64>(0, m_limits.maxRequestBytes + 1 - before);
    if (!m_headDone && announcesBody(m_socket->peek(qMin(fresh, headRoom))))
        return refuse(HttpGuardCounts::RequestBody);
    if (m_requestBytes > m_limits.maxRequestBytes)
        return refuse(HttpGuardCounts::RequestTooLarge);
}

void ConnectionGuard::afterServer()
{
    // The server commits its transaction once it has answered a complete request.
    if (!m_closed && m_phase == Phase::Request && m_requestBytes > 0 && !m_socket->isTransactionStarted() &&
        m_socket->state() == QAbstractSocket::ConnectedState)
        startPhase(Phase::Idle);
}

bool ConnectionGuard::announcesBody(const QByteArray& fresh)
{
    qsizetype skip = 0;
    if (m_head.isEmpty()) // line ends left over from the previous request, as the parser skips them
        while (skip < fresh.size() && (fresh.at(skip) == '\r' || fresh.at(skip) == '\n'))
            ++skip;
    m_head.append(fresh.constData() + skip, fresh.size() - skip);
    qsizetype end = m_head.indexOf("\n\r\n");
    if (end < 0)
        end = m_head.indexOf("\n\n");
    if (end < 0)
        return false;
    m_headDone = true;
    const QByteArrayList lines = m_head.left(end).split('\n');
    m_head.clear();
    for (qsizetype i = 1; i < lines.size(); ++i) { // the request line first
        const QByteArray& line = lines.at(i);
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        const QByteArray name = line.left(colon).trimmed().toLower();
        if (name == "transfer-encoding")
            return true;
        if (name == "content-length" && line.mid(colon + 1).trimmed() != "0")
            return true;
    }
    return false;
}

void ConnectionGuard::startPhase(Phase phase)
{
    m_phase = phase;
    m_phaseStartedMs = monotonicMs();
    m_deadline.start(phase == Phase::Request ? m_limits.requestDeadlineMs : m_limits.idleDeadlineMs);
}

void ConnectionGuard::expired()
{
    if (m_phase == Phase::Request)
        return refuse(HttpGuardCounts::RequestTimeout);
    // An idle keep-alive connection that ran out is closed without counting: that is its normal end.
    m_closed = true;
    m_socket->abort();
    m_socket->deleteLater();
}

void ConnectionGuard::refuse(HttpGuardCounts::Reason reason)
{
    if (m_closed)
        return;
    m_closed = true;
    m_deadline.stop();
    m_refused(reason);
    // The server's own readyRead slot may be next in this very emission: cut it off, so that it never
    // parses (or answers) what is buffered. Its disconnected and destroyed handlers stay, and free
    // its request object with the socket.
    if (m_server)
        QObject::disconnect(m_socket, nullptr, m_server, nullptr);
    m_socket->abort();
    // Also the end of a socket the server never got (a TLS handshake that did not finish); deleting
    // later twice is harmless.
    m_socket->deleteLater();
}

} // namespace lockctl
