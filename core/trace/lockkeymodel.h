// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>

#include <deque>
#include <optional>

namespace lockscope {

// One master's copy of the lock's key as the trace has watched it change: who holds it, since when,
// until when its lease runs, and who held it before. Kept from the commands MONITOR shows (writes,
// deletes, expiries set) and the lease times they carry: MONITOR never shows a key expiring, so an
// expiry is applied when the master's clock (the next command's time) passes it.
class LockKeyModel
{
public:
    struct Holder
    {
        QByteArray token;  // a string lock's value; a hash lock's field (Redisson: uuid:thread)
        QByteArray client; // the connection that set it; empty when it was held before the trace began
        qint64 sinceUs = -1;
        qint64 untilUs = -1;  // when it stopped holding (expired, deleted, overwritten); -1 while it holds
        bool expired = false; // its lease ran out: nobody deleted it or wrote over it
    };

    // The trace's first read: the key absent, or held by `token` with `pttlMs` left (-1: no expiry)
    // at the master's time `nowUs`.
    void startAbsent() { m_known = true; }
    void startHeld(const QByteArray& token, qint64 pttlMs, qint64 nowUs);
    bool isKnown() const { return m_known; }

    // Who holds it at the master's time `us`, a lease that ran out before then moving to the former
    // holders first.
    const Holder* holderAt(qint64 us);
    // The most recent former holder with `token`, or that held it from `client`.
    const Holder* formerWithToken(const QByteArray& token) const;
    const Holder* formerFromClient(const QByteArray& client) const;
    // Who held it last before the current holder (or before now, when it is free).
    const Holder* lastFormer() const { return m_former.empty() ? nullptr : &m_former.front(); }

    // `token` holds it from `us`, with its lease ending at `expiresAtUs` (-1: no expiry). Whoever
    // held it before stops holding at `us`.
    void set(const QByteArray& token, const QByteArray& client, qint64 us, qint64 expiresAtUs);
    // A new end of the current lease (-1: none); nothing when the key is absent.
    void setExpiry(qint64 expiresAtUs);
    qint64 expiresAtUs() const { return m_expiresAtUs; }
    void remove(qint64 us);

private:
    void retire(qint64 untilUs, bool expired = false);

    static constexpr std::size_t maxFormer = 64;
    bool m_known = false;
    std::optional<Holder> m_current;
    qint64 m_expiresAtUs = -1;
    std::deque<Holder> m_former; // newest first
};

} // namespace lockscope
