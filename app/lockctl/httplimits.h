// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

namespace lockctl {

// What `lockctl serve` allows one HTTP client (docs/manual/prometheus.md, "Limits of serve"). Qt HTTP Server
// 6.4 has no limit of its own: it buffers a request line, headers and body of any size and keeps a silent
// connection open for ever, all on the one thread that also answers the scrapes.
struct HttpLimits
{
    // Open connections; past it the oldest one is closed to make room (HttpListener says why).
    int maxConnections = 256;
    // From accept (TLS handshake included), or from the first byte of a later request on a kept-alive
    // connection, to the end of the request's headers.
    int requestDeadlineMs = 5000;
    // A kept-alive connection between requests.
    int idleDeadlineMs = 30000;
    // Request line and headers; no endpoint takes a body.
    qint64 maxRequestBytes = 16 * 1024;
    // Answers written but not yet taken by the client, before it may ask for another.
    qint64 maxUnsentBytes = 4 * 1024 * 1024;
};

} // namespace lockctl
