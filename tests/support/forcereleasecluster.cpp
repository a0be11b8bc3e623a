// SPDX-License-Identifier: Apache-2.0
#include "support/forcereleasecluster.h"

#include "support/timebound.h"

#include <QFile>
#include <QJsonDocument>
#include <QTest>

namespace lockscope::test {

std::optional<ForceReleasePlan> inspectForceRelease(MasterSet& masters, const LockScopeConfig& config,
                                                    const ForceReleaseRequest& request)
{
    std::optional<ForceReleasePlan> plan;
    ForceRelease::inspect(masters, config, request, [&](const ForceReleasePlan& p) { plan = p; });
    if (!QTest::qWaitFor([&] { return plan.has_value(); }, int(upperBoundMs(10000))))
        return std::nullopt;
    return plan;
}

std::optional<ForceReleaseOutcome> executeForceRelease(MasterSet& masters, const LockScopeConfig& config,
                                                       const AuditLog* audit, const ForceReleasePlan& plan)
{
    std::optional<ForceReleaseOutcome> outcome;
    ForceRelease::execute(masters, config, audit, plan, [&](const ForceReleaseOutcome& o) { outcome = o; });
    if (!QTest::qWaitFor([&] { return outcome.has_value(); }, int(upperBoundMs(10000))))
        return std::nullopt;
    return outcome;
}

ForceReleaseRequest forceReleaseRequest(const QByteArray& resource, const QByteArray& expected)
{
    ForceReleaseRequest r;
    r.resource = resource;
    r.mode = expected.isEmpty() ? ForceReleaseMode::AnyToken : ForceReleaseMode::ExpectToken;
    r.expectedToken = expected;
    return r;
}

QList<QByteArrayList> plannedCommands(const ForceReleasePlan& plan, int master)
{
    for (const ForceReleaseTarget& t : plan.targets)
        if (t.index == master)
            return t.step.commands;
    return {};
}

bool ForceReleaseCluster::start(int count, const RedisServerOptions& options)
{
    if (!group.start(count, options))
        return false;
    config.masters = group.connectionOptions();
    masters = std::make_unique<MasterSet>(config.masters);
    masters->open();
    audit = std::make_unique<AuditLog>(dir.filePath(QStringLiteral("audit.jsonl")));
    return QTest::qWaitFor([this] { return masters->upCount() == masters->size(); }, int(upperBoundMs(5000)));
}

void ForceReleaseCluster::onAll(const QByteArrayList& argv)
{
    for (int i = 0; i < group.size(); ++i)
        group.at(i).command(argv);
}

ForceReleasePlan ForceReleaseCluster::inspect(const ForceReleaseRequest& request)
{
    const std::optional<ForceReleasePlan> plan = inspectForceRelease(*masters, config, request);
    if (!plan)
        qFatal("no plan");
    return *plan;
}

ForceReleaseOutcome ForceReleaseCluster::execute(const ForceReleasePlan& plan)
{
    const std::optional<ForceReleaseOutcome> outcome =
        executeForceRelease(*masters, config, audit.get(), plan);
    if (!outcome)
        qFatal("no outcome");
    return *outcome;
}

QList<QJsonObject> ForceReleaseCluster::auditLines()
{
    QList<QJsonObject> out;
    QFile file(audit->path());
    if (!file.open(QIODevice::ReadOnly))
        return out;
    while (!file.atEnd()) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(file.readLine(), &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject())
            qFatal("audit line is not a JSON object");
        out << doc.object();
    }
    return out;
}

PublishListener::PublishListener(const RedisServer& server) : m_connection(server.connectionOptions())
{
    QObject::connect(&m_connection, &RedisConnection::messageReceived, &m_connection,
                     [this](const QByteArray&, const QByteArray& channel, const QByteArray& payload) {
                         messages << QByteArrayList{channel, payload};
                     });
    m_connection.psubscribe({"*"});
    m_connection.open();
}

bool PublishListener::ready(const RedisServer& server)
{
    return QTest::qWaitFor(
        [&server] {
            return server.command({"PUBSUB", "NUMPAT"}).integer >= 1;
        },
        int(upperBoundMs(5000)));
}

} // namespace lockscope::test
