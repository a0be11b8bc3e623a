// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QtGlobal>

namespace lockscope::test {

// A blocking TCP connection to 127.0.0.1:port through the socket API itself, for a test thread that
// plays a misbehaving HTTP client (a header that never ends, a body, a silent socket, password
// guesses) without an event loop. Every call gives up after `timeoutMs` (SO_SNDTIMEO/SO_RCVTIMEO), so
// a peer that stops reading never hangs the thread. Closed when it goes.
class RawConnection
{
public:
    explicit RawConnection(quint16 port, int timeoutMs = 1000);
    ~RawConnection();
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;

    bool isOpen() const { return m_fd >= 0; }
    // Writes what it can of `bytes` before the timeout; false once the peer has closed (or reset)
    // the connection, or on any other error. A timeout alone is not an error.
    bool send(const QByteArray& bytes);
    // Sends `request` and reads one HTTP answer (its head and Content-Length body); its status code,
    // or 0 when the connection ended or timed out first.
    int exchange(const QByteArray& request);

private:
    int m_fd = -1;
};

} // namespace lockscope::test
