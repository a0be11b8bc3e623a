// SPDX-License-Identifier: Apache-2.0
#include "trace/lockkeymodel.h"

namespace lockscope {

void LockKeyModel::startHeld(const QByteArray& token, qint64 pttlMs, qint64 nowUs)
{
    m_known = true;
    m_current = Holder{token, {}, -1, -1};
    // A server's PTTL is data: one beyond a century (an absurd or hostile reply) is taken as none.
    constexpr qint64 centuryMs = 100LL * 366 * 24 * 3600 * 1000;
    m_expiresAtUs = pttlMs >= 0 && pttlMs <= centuryMs ? nowUs + pttlMs * 1000 : -1;
}

const LockKeyModel::Holder* LockKeyModel::holderAt(qint64 us)
{
    // Redis expires a key once its time is strictly past the deadline (mstime() > when).
    if (m_current && m_expiresAtUs >= 0 && us > m_expiresAtUs)
        retire(m_expiresAtUs, true);
    return m_current ? &*m_current : nullptr;
}

const LockKeyModel::Holder* LockKeyModel::formerWithToken(const QByteArray& token) const
{
    for (const Holder& h : m_former)
        if (h.token == token)
            return &h;
    return nullptr;
}

const LockKeyModel::Holder* LockKeyModel::formerFromClient(const QByteArray& client) const
{
    if (client.isEmpty())
        return nullptr;
    for (const Holder& h : m_former)
        if (h.client == client)
            return &h;
    return nullptr;
}

void LockKeyModel::set(const QByteArray& token, const QByteArray& client, qint64 us, qint64 expiresAtUs)
{
    m_known = true;
    holderAt(us);
    if (m_current && m_current->token == token) {
        m_expiresAtUs = expiresAtUs;
        return;
    }
    if (m_current)
        retire(us);
    m_current = Holder{token, client, us, -1};
    m_expiresAtUs = expiresAtUs;
}

void LockKeyModel::setExpiry(qint64 expiresAtUs)
{
    if (m_current)
        m_expiresAtUs = expiresAtUs;
}

void LockKeyModel::remove(qint64 us)
{
    m_known = true;
    holderAt(us);
    if (m_current)
        retire(us);
}

void LockKeyModel::retire(qint64 untilUs, bool expired)
{
    m_current->untilUs = untilUs;
    m_current->expired = expired;
    m_former.push_front(*m_current);
    if (m_former.size() > maxFormer)
        m_former.pop_back();
    m_current.reset();
    m_expiresAtUs = -1;
}

} // namespace lockscope
