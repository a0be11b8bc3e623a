// SPDX-License-Identifier: Apache-2.0
#include "support/rawconnection.h"

#include <QList>

#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lockscope::test {

RawConnection::RawConnection(quint16 port, int timeoutMs)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return;
    timeval timeout{timeoutMs / 1000, (timeoutMs % 1000) * 1000};
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout); // connect() too
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd);
        return;
    }
    m_fd = fd;
}

RawConnection::~RawConnection()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool RawConnection::send(const QByteArray& bytes)
{
    if (m_fd < 0)
        return false;
    qsizetype sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = ::send(m_fd, bytes.constData() + sent, size_t(bytes.size() - sent), MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true; // the peer reads slowly, or not at all: still open
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        sent += n;
    }
    return true;
}

int RawConnection::exchange(const QByteArray& request)
{
    if (!send(request))
        return 0;
    QByteArray in;
    qsizetype headEnd = -1;
    qint64 wanted = -1;
    char buffer[4096];
    for (;;) {
        if (headEnd < 0 && (headEnd = in.indexOf("\r\n\r\n")) >= 0) {
            wanted = 0;
            for (const QByteArray& line : in.left(headEnd).split('\n'))
                if (line.toLower().startsWith("content-length:"))
                    wanted = line.mid(15).trimmed().toLongLong();
        }
        if (headEnd >= 0 && in.size() >= headEnd + 4 + wanted)
            return in.mid(9, 3).toInt(); // "HTTP/1.1 200 OK"
        const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        in.append(buffer, n);
    }
}

} // namespace lockscope::test
