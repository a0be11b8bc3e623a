// SPDX-License-Identifier: Apache-2.0
#include "demo/demofailover.h"

#include "config/configloader.h"
#include "connection/redisconnection.h"
#include "monitor/lockmonitor.h"
#include "topology/masterset.h"

#include <QRandomGenerator>

namespace lockscope {

namespace {

constexpr int timeoutMs = 1000;

// A token as a single-instance client makes one: random, unique per acquisition.
QByteArray newToken(const char* client)
{
    QByteArray random(16, '\0');
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(random.data()), 4);
    return QByteArray(client) + "@demo/" + random.toHex();
}

QString shortToken(const QByteArray& token)
{
    return QString::fromUtf8(token.left(token.indexOf('/') + 9)) + QStringLiteral("…");
}

} // namespace

DemoFailover::DemoFailover(QObject* parent) : QObject(parent)
{
    connect(&m_group, &DemoSentinelGroup::started, this, &DemoFailover::onGroupStarted);
    connect(&m_group, &DemoSentinelGroup::startFailed, this, [this](const RedisError& e) {
        setError(tr("the Sentinel group could not start: %1").arg(e.message));
    });
}

DemoFailover::~DemoFailover()
{
    stop();
}

void DemoFailover::start(const QString& redisServer)
{
    stop();
    m_group.startAsync(redisServer);
    emit changed();
}

void DemoFailover::stop()
{
    m_clientA.reset();
    m_clientB.reset();
    m_monitor.reset();
    if (m_masters)
        m_masters->close();
    m_masters.reset();
    m_group.stop();
    m_error.clear();
    m_tokenA.clear();
    m_tokenB.clear();
    m_waitAnswer = -1;
    m_replicationCut = false;
    m_report.reset();
    m_atRiskReason.clear();
}

std::unique_ptr<RedisConnection> DemoFailover::clientTo(quint16 port) const
{
    Result<ConnectionOptions> options =
        ConfigLoader::masterFromUrl(m_group.nodeUrl(port), TlsOptions(), timeoutMs);
    if (!options)
        return nullptr;
    options->healthIntervalMs = 0;
    // A plain single-instance client: it knows one node and does not follow a failover itself.
    options->autoReconnect = false;
    options->clientName = "lockscope-demo-client";
    auto client = std::make_unique<RedisConnection>(*options);
    client->open();
    return client;
}

void DemoFailover::onGroupStarted()
{
    Result<ConnectionOptions> entry = ConfigLoader::masterFromUrl(m_group.url(), TlsOptions(), timeoutMs);
    if (!entry)
        return setError(entry.error().message);
    entry->healthIntervalMs = 250;
    entry->reconnectMaxMs = 1000;
    LockScopeConfig config;
    config.timeoutMs = timeoutMs;
    config.monitor.pollIntervalMs = 500;
    config.monitor.reconcileIntervalMs = 2000;
    config.masters << *entry;
    m_masters = std::make_unique<MasterSet>(config.masters);
    m_monitor = std::make_unique<LockMonitor>(m_masters.get(), config);
    connect(m_monitor.get(), &LockMonitor::locksChanged, this, [this](const LockBatch& batch) {
        for (const QList<SharedLockView>* list : {&batch.added, &batch.changed})
            for (const LockView& v : *list)
                if (v.resource == resource() && v.atRisk && !m_tokenA.isEmpty() && v.token == m_tokenA)
                    m_atRiskReason = v.atRiskReason();
        emit changed();
    });
    // With the group as the only master, the view loses the mark as soon as the entry goes down on its
    // way to the new primary (nothing holds the lock then); the monitor's own announcement stays.
    connect(
        m_monitor.get(), &LockMonitor::failoverDetected, this,
        [this](int, const PrimaryChange& change, int locksAtRisk) {
            if (locksAtRisk > 0 && !m_tokenA.isEmpty() && m_atRiskReason.isEmpty())
                m_atRiskReason =
                    tr("failover %1 → %2").arg(change.oldPrimary.toString(), change.newPrimary.toString());
            emit changed();
        });
    connect(m_monitor.get(), &LockMonitor::failoverReported, this, [this](const FailoverReport& report) {
        m_report = report;
        emit changed();
    });
    m_masters->open();
    m_monitor->start();
    m_clientA = clientTo(m_group.primaryPort());
    if (!m_clientA)
        return setError(tr("no connection for client A"));
    emit changed();
}

bool DemoFailover::isReady() const
{
    return m_group.isStarted() && m_monitor && m_masters->at(0)->isUp() && m_monitor->isInitialScanDone() &&
           m_clientA && m_clientA->isUp();
}

void DemoFailover::setError(const QString& text)
{
    if (m_error.isEmpty())
        m_error = text;
    emit changed();
}

void DemoFailover::cutReplication()
{
    m_group.cutReplication([this](const RedisError& error) {
        if (error.isError())
            return setError(tr("could not cut replication: %1").arg(error.message));
        m_replicationCut = true;
        emit changed();
    });
}

void DemoFailover::acquireA()
{
    if (!m_clientA)
        return setError(tr("client A is not connected"));
    const QByteArray token = newToken("A");
    m_clientA->send({"SET", resource(), token, "NX", "PX", QByteArray::number(ttlMs)}, this,
                    [this, token](const RedisResult& r) {
                        if (!r.ok() || r.isServerError())
                            return setError(tr("A: %1").arg(r.anyError(m_clientA->name()).message));
                        if (r.reply.string != "OK")
                            return setError(tr("A did not get %1").arg(QString::fromUtf8(resource())));
                        m_tokenA = token;
                        emit changed();
                    });
    // How many replicas have the write: none, since replication is cut.
    m_clientA->send({"WAIT", "1", "100"}, this, [this](const RedisResult& r) {
        if (!r.ok() || r.isServerError() || !r.reply.isInteger())
            return setError(tr("A's WAIT failed: %1").arg(r.anyError(m_clientA->name()).message));
        m_waitAnswer = r.reply.integer;
        emit changed();
    });
}

void DemoFailover::killPrimary()
{
    m_clientA.reset(); // A's node is gone; A itself still believes it holds the lock
    m_group.killPrimary();
    emit changed();
}

void DemoFailover::acquireB()
{
    if (!m_report)
        return setError(tr("B: no failover was reported"));
    m_clientB = clientTo(m_report->change.newPrimary.port);
    if (!m_clientB)
        return setError(tr("no connection for client B"));
    const QByteArray token = newToken("B");
    m_clientB->send(
        {"SET", resource(), token, "NX", "PX", QByteArray::number(ttlMs)}, this,
        [this, token](const RedisResult& r) {
            if (!r.ok() || r.isServerError())
                return setError(tr("B: %1").arg(r.anyError(m_clientB->name()).message));
            if (r.reply.string != "OK")
                return setError(
                    tr("B did not get %1: the new primary has A's lock").arg(QString::fromUtf8(resource())));
            m_tokenB = token;
            emit changed();
        });
}

LockView DemoFailover::view() const
{
    return m_monitor ? m_monitor->locks().value(resource()).view() : LockView();
}

bool DemoFailover::viewShows(const QByteArray& token) const
{
    const LockView v = view();
    return !token.isEmpty() && v.token == token && v.holding > 0;
}

bool DemoFailover::reportLostA() const
{
    if (!m_report)
        return false;
    if (m_report->lost.contains(resource()))
        return true;
    for (const FailoverReport::TokenChange& c : m_report->changedToken)
        if (c.resource == resource() && c.before == m_tokenA)
            return true;
    return false;
}

QString DemoFailover::holdersText() const
{
    if (m_tokenA.isEmpty())
        return {};
    QString text =
        tr("A believes it holds %1 (token %2)").arg(QString::fromUtf8(resource()), shortToken(m_tokenA));
    if (!m_tokenB.isEmpty())
        text += tr(", B holds it (token %1)").arg(shortToken(m_tokenB));
    if (m_waitAnswer >= 0)
        text += tr("; WAIT 1 100 answered %1").arg(m_waitAnswer);
    if (wasMarkedAtRisk())
        text += tr("; ⚠ at risk: %1").arg(m_atRiskReason);
    if (reportLostA())
        text += tr("; the failover report says the new primary lost A's lock");
    return text + QLatin1Char('.');
}

} // namespace lockscope
