// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/connectionoptions.h"

#include <QObject>
#include <QThread>

namespace lockscope {

class ClusterSlotMap;

// "Test" in the connection editor, in a thread of its own so the dialog stays responsive while a
// dead host times out. A plain master is connected to and PINGed; a Sentinel group's sentinels are
// asked for the primary (verified with ROLE); a cluster's slot map is read and its coverage checked.
// Reports once per test(), also when nothing answers (after timeoutMs()), then can be reused.
class ConnectionTester final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionTester)

public:
    explicit ConnectionTester(QObject* parent = nullptr);
    ~ConnectionTester() override;

    void test(const ConnectionOptions& options);
    // The longest a test of these options may take before it is reported as failed.
    static int timeoutMs(const ConnectionOptions& options);
    // "3 primaries, all 16384 slots covered", or which slots no primary serves.
    static QString slotCoverage(const ClusterSlotMap& map);

signals:
    // ok: the server answered PING, the group's primary was verified, or the cluster serves every
    // slot; `detail` says what was found, or why it failed. Never contains a password.
    void finished(bool ok, const QString& detail);

private:
    QThread m_thread;
    QObject* m_worker;
};

} // namespace lockscope
