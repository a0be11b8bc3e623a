// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/auditlog.h"
#include "connection/redisconnection.h"
#include "locking/forcerelease.h"
#include "support/redisservergroup.h"
#include "topology/masterset.h"

#include <QJsonObject>
#include <QTemporaryDir>

#include <memory>
#include <optional>

// The force-release tests' fixture: masters with an audit log, the core's inspect and execute waited
// for, and a listener for what they publish.
namespace lockscope::test {

// ForceRelease::inspect and ::execute, waited for; nothing when no answer came in time.
std::optional<ForceReleasePlan> inspectForceRelease(MasterSet& masters, const LockScopeConfig& config,
                                                    const ForceReleaseRequest& request);
std::optional<ForceReleaseOutcome> executeForceRelease(MasterSet& masters, const LockScopeConfig& config,
                                                       const AuditLog* audit, const ForceReleasePlan& plan);

// Guarded by `expected`, or any token when it is empty.
ForceReleaseRequest forceReleaseRequest(const QByteArray& resource, const QByteArray& expected);
// The commands the plan says it sends to `master`.
QList<QByteArrayList> plannedCommands(const ForceReleasePlan& plan, int master);

// Masters opened and up, with an audit log in a directory of their own.
struct ForceReleaseCluster
{
    RedisServerGroup group;
    std::unique_ptr<MasterSet> masters;
    LockScopeConfig config;
    QTemporaryDir dir;
    std::unique_ptr<AuditLog> audit;

    bool start(int count = 5, const RedisServerOptions& options = {});
    void onAll(const QByteArrayList& argv);
    int countOf(const QByteArray& key) { return group.countOf(key); }
    // As the core does them; a test without an answer stops (qFatal).
    ForceReleasePlan inspect(const ForceReleaseRequest& request);
    ForceReleaseOutcome execute(const ForceReleasePlan& plan);
    ForceReleaseOutcome run(const ForceReleaseRequest& request) { return execute(inspect(request)); }
    QList<QJsonObject> auditLines();
};

// Every message published on one master, as (channel, payload), in order.
class PublishListener
{
public:
    explicit PublishListener(const RedisServer& server);
    // Whether the server has the subscription.
    bool ready(const RedisServer& server);

    QList<QByteArrayList> messages;

private:
    RedisConnection m_connection;
};

} // namespace lockscope::test
