// SPDX-License-Identifier: Apache-2.0
#include "lockctl/passwordthrottle.h"

#include <algorithm>

namespace lockctl {

namespace {

// Addresses remembered at most; past it, those whose buckets are full again are forgotten (they are
// the same as new ones), and if that is not enough, all of them: the bucket of all addresses still
// bounds the checks.
constexpr qsizetype maxAddresses = 4096;

} // namespace

PasswordThrottle::PasswordThrottle(double addressPerSecond, int addressBurst, double allPerSecond,
                                   int allBurst)
    : m_addressPerSecond(addressPerSecond), m_addressBurst(addressBurst), m_allPerSecond(allPerSecond),
      m_allBurst(allBurst)
{
    m_all.tokens = allBurst;
    m_all.atMs = -1;
}

void PasswordThrottle::refill(Bucket& bucket, double perSecond, int burst, qint64 nowMs)
{
    if (bucket.atMs >= 0 && nowMs > bucket.atMs)
        bucket.tokens =
            std::min(double(burst), bucket.tokens + double(nowMs - bucket.atMs) * perSecond / 1000);
    bucket.atMs = nowMs;
}

QByteArray PasswordThrottle::keyOf(const QHostAddress& address)
{
    bool v4 = false;
    const quint32 ip4 = address.toIPv4Address(&v4); // IPv4-mapped IPv6 too
    if (v4)
        return QByteArray::number(ip4);
    const Q_IPV6ADDR ip6 = address.toIPv6Address();
    // One host usually has a whole /64 to pick addresses from.
    return QByteArray(reinterpret_cast<const char*>(ip6.c), 8);
}

bool PasswordThrottle::admit(const QHostAddress& address, qint64 nowMs)
{
    const QByteArray key = keyOf(address);
    auto it = m_addresses.find(key);
    if (it == m_addresses.end()) {
        if (m_addresses.size() >= maxAddresses) {
            m_addresses.removeIf([&](const auto& entry) {
                Bucket b = entry.value();
                refill(b, m_addressPerSecond, m_addressBurst, nowMs);
                return b.tokens >= m_addressBurst;
            });
            if (m_addresses.size() >= maxAddresses)
                m_addresses.clear();
        }
        it = m_addresses.insert(key, Bucket{double(m_addressBurst), nowMs});
    }
    refill(*it, m_addressPerSecond, m_addressBurst, nowMs);
    refill(m_all, m_allPerSecond, m_allBurst, nowMs);
    if (it->tokens < 1 || m_all.tokens < 1) {
        ++m_throttled;
        return false;
    }
    it->tokens -= 1;
    m_all.tokens -= 1;
    return true;
}

} // namespace lockctl
