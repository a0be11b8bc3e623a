// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QHash>
#include <QTimer>

#include <functional>

namespace lockscope {

// When the timestamps of legacy locks (a value that is an expiry time, no TTL on the key) pass.
// Nothing about the key changes then, so no read or notification would tell; this calls `onDue`
// with the key instead, so that the lock turns stuck on time even in live mode. One timer for all.
class LegacyExpiryWatch
{
    Q_DISABLE_COPY_MOVE(LegacyExpiryWatch)

public:
    explicit LegacyExpiryWatch(std::function<void(const QByteArray& key)> onDue);

    // `key`'s timestamp passes `leftMs` after `now` (monotonic ms); negative: not watched any more.
    void watch(const QByteArray& key, qint64 leftMs, qint64 now);
    void forget(const QByteArray& key) { m_due.remove(key); }
    qsizetype size() const { return m_due.size(); }

private:
    void onTimer();

    std::function<void(const QByteArray& key)> m_onDue;
    QHash<QByteArray, qint64> m_due; // monotonic ms a legacy lock's timestamp passes
    QTimer m_timer;
};

} // namespace lockscope
