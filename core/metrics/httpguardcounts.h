// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

namespace lockscope {

// What the guard in front of `lockctl serve`'s HTTP server did (docs/manual/prometheus.md, "Limits of
// serve"): the connections it closed before any route or password check ran, by reason, the connections open
// now, and the password checks it declined to run. Rendered by MetricsRenderer::httpGuard.
struct HttpGuardCounts
{
    enum Reason
    {
        ConnectionLimit, // the oldest connection made room for a new one past the cap
        RequestTimeout,  // no complete request (TLS handshake included) within the deadline
        RequestTooLarge, // request line and headers over the size cap
        RequestBody,     // a body was announced: no endpoint takes one
        UnreadResponses, // the client sent requests without reading the answers
        ReasonCount
    };
    // The `reason` label of lockscope_http_connections_refused_total.
    static const char* reasonLabel(Reason reason)
    {
        static const char* const labels[ReasonCount] = {
            "connection_limit", "request_timeout", "request_too_large", "request_body", "unread_responses"};
        return labels[reason];
    }

    quint64 refused[ReasonCount] = {};
    int open = 0;
    quint64 passwordChecksThrottled = 0;
};

} // namespace lockscope
