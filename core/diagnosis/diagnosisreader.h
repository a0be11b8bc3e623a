// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/clientlistentry.h"
#include "diagnosis/diagnosisfacts.h"
#include "monitor/lockview.h"

#include <QObject>

#include <functional>

namespace lockscope {

class MasterSet;

// Reads what a lock's diagnosis needs beyond the lock's own keys, asynchronously over the masters'
// existing connections (nothing blocks; the answer comes by callback on this object's thread):
// - for Redisson locks, the waiters: PUBSUB NUMSUB on redisson_lock__channel:{name} (SHARDNUMSUB too,
//   on the node serving the slot, for a cluster) and the fair lock's queue redisson_lock_queue:{name}
//   with the deadlines in redisson_lock_timeout:{name};
// - on the masters holding it, CLIENT LIST, to match the owner's connection by its client name or
//   address (LockScope's own connections, named "lockscope*", are never an owner).
class DiagnosisReader final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DiagnosisReader)

public:
    using Callback = std::function<void(const DiagnosisFacts& facts)>;

    static constexpr int maxQueued = 100; // fair-lock waiters listed

    explicit DiagnosisReader(MasterSet* masters, QObject* parent = nullptr);

    // Once, when every master asked has answered (or failed); skipped if this reader goes first.
    void read(const LockView& view, Callback done);
    // The same without CLIENT LIST: only the waiters (what lockctl serve polls for its metrics).
    void readWaiters(const LockView& view, Callback done);

    // Which of `clients` belong to the lock's holders (pure; exposed for tests).
    static QList<OwnerClient> matchOwners(const LockView& view, int master,
                                          const QList<ClientListEntry>& clients);
    // Formats that record their waiters where a Redis client can read them (readWaiters answers).
    static bool knowsWaiters(LockFormat format);
    // The channel a Redisson lock's waiters listen on.
    static QByteArray waiterChannel(const LockView& view);

private:
    void readFacts(const LockView& view, bool owners, Callback done);

    MasterSet* m_masters;
};

} // namespace lockscope
