// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QHash>
#include <QHostAddress>

namespace lockctl {

// How many bcrypt password checks `lockctl serve` runs, per client address and in all
// (docs/manual/prometheus.md, "Limits of serve"). A check costs tens of milliseconds on the HTTP thread,
// which also answers the scrapes, and Qt HTTP Server 6.4 cannot answer a request later from another thread
// (its responder keeps raw pointers to a socket and request the server may delete in the meantime): so the
// checks are few instead. A client whose credentials passed before is not checked again
// (WebConfig::remembered), so a scrape never waits for its turn here.
//
// Token buckets: each address (an IPv6 address by its /64) may start `addressBurst` checks at once
// and one more every 1/addressPerSecond seconds; all addresses together `allBurst`, `allPerSecond`.
// Used on the HTTP server's thread only.
class PasswordThrottle
{
public:
    PasswordThrottle(double addressPerSecond = 1, int addressBurst = 4, double allPerSecond = 4,
                     int allBurst = 8);

    // True, and one check used, when `address` may have its password checked at `nowMs` (monotonic).
    bool admit(const QHostAddress& address, qint64 nowMs);
    quint64 throttled() const { return m_throttled; }

private:
    struct Bucket
    {
        double tokens = 0;
        qint64 atMs = 0;
    };
    static void refill(Bucket& bucket, double perSecond, int burst, qint64 nowMs);
    static QByteArray keyOf(const QHostAddress& address);

    double m_addressPerSecond;
    int m_addressBurst;
    double m_allPerSecond;
    int m_allBurst;
    QHash<QByteArray, Bucket> m_addresses;
    Bucket m_all;
    quint64 m_throttled = 0;
};

} // namespace lockctl
