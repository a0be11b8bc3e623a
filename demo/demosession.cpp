// SPDX-License-Identifier: Apache-2.0
#include "demo/demosession.h"

#include "base/monotonicclock.h"
#include "connection/redisconnection.h"
#include "demo/democonfig.h"
#include "topology/masterset.h"

#include <QMap>

#include <QDateTime>
#include <QTimer>

namespace lockscope {

namespace {

constexpr int seedTimeoutMs = 5000; // per connection and command of the sample locks' writer

} // namespace

DemoSession::DemoSession(QObject* parent) : QObject(parent), m_lab(&m_cluster)
{
    connect(&m_cluster, &DemoCluster::started, this, &DemoSession::onClusterStarted);
    connect(&m_cluster, &DemoCluster::startFailed, this, &DemoSession::failed);
    connect(&m_cluster, &DemoCluster::masterStateChanged, this, &DemoSession::onMasterState);
    // "Restore all masters" (and a scenario setting up) brings the sample locks back too, once the
    // masters that lost them are up again; a master restarted on its own stays empty, as it should.
    connect(m_lab.simulation(), &DemoSimulation::healRequested, this, [this] {
        m_restorePending = true;
        restoreSamplesWhenUp();
    });
    connect(m_lab.simulation(), &DemoSimulation::changed, this, &DemoSession::restoreSamplesWhenUp);
}

DemoSession::~DemoSession()
{
    // Clients first (they release their locks), then the servers.
    m_lab.simulation()->stop();
    m_cluster.stop();
}

QList<QPair<int, QByteArrayList>> DemoSession::sampleCommands(qint64 nowWallMs)
{
    QList<QPair<int, QByteArrayList>> out;
    auto onMasters = [&out](const QList<int>& masters, const QByteArrayList& argv) {
        for (int m : masters)
            out.append({m, argv});
    };
    const QList<int> all{0, 1, 2, 3, 4};
    // Held everywhere by us, by node-redlock and by redsync.
    onMasters(all, {"SET", "lock:orders:checkout", "billing-7@web-1:4242/8c1f4be0a7d34f0e9b6a55c1e2f0d9a3",
                    "PX", "45000"});
    onMasters(all, {"SET", "locks:inventory:sku-1841", "f2a9c0d4e6b8a1c3d5e7f9a0b2c4d6e8", "PX", "120000"});
    onMasters({0, 1, 2, 3}, {"SET", "mutex:payments", "3q2+7wAAAAC0ZJ2mXhFhBw==", "PX", "9000"});
    // Partial: a client that reached only two masters.
    onMasters({1, 3}, {"SET", "lock:reports:nightly", "7d0b8e2a4c6f8a0b2d4e6f8a0c2e4a6b", "PX", "30000"});
    onMasters({0, 1}, {"SET", "lock:search:reindex", "reindexer@batch-2:901/5b6c7d8e9fa0b1c2d3e4f5a6b7c8d9e0",
                       "PX", "40000"});
    // Contested: two clients, three masters against two.
    onMasters({0, 1, 2}, {"SET", "lock:cache:rebuild", "a1a1a1a1b2b2b2b2c3c3c3c3d4d4d4d4", "PX", "60000"});
    onMasters({3, 4}, {"SET", "lock:cache:rebuild", "e5e5e5e5f6f6f6f6a7a7a7a7b8b8b8b8", "PX", "60000"});
    // Stuck: written without an expiry, and a legacy SETNX timestamp long past.
    onMasters(all, {"SET", "lock:migrations", "deploy-bot@ci-3:77/00aa11bb22cc33dd44ee55ff66778899"});
    onMasters(all, {"SET", "lock:legacy-cron", QByteArray::number(nowWallMs - 3600000)});
    // Redisson: a hash with one holder re-entered twice.
    for (int m : {0, 1, 2, 4}) {
        out.append({m, {"HSET", "lock:{accounts}", "8f3c2a1e-5b7d-4c9e-a1f2-3b4c5d6e7f80:57", "2"}});
        out.append({m, {"PEXPIRE", "lock:{accounts}", "30000"}});
    }
    // redis-semaphore: two holders of a pool.
    for (int m : all) {
        out.append({m,
                    {"ZADD", "semaphore:db-pool", QByteArray::number(nowWallMs - 5000),
                     "6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b", QByteArray::number(nowWallMs - 2000),
                     "1b2c3d4e-0000-4abc-9def-0123456789ab"}});
        out.append({m, {"PEXPIRE", "semaphore:db-pool", "25000"}});
    }
    // python-redis-lock on a single master's worth of keys (held on a quorum).
    onMasters({0, 2, 4}, {"SET", "lock:thumbnailer", "bG9ja3Njb3BlZGVtbzEyMzQ1", "PX", "15000"});
    // Short ones, to watch counting down and going.
    onMasters(all, {"SET", "lock:session:42", "4e9d2c1b0a8f7e6d5c4b3a2918273645", "PX", "8000"});
    onMasters(all, {"SET", "lock:email:digest", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "PX", "20000"});
    return out;
}

void DemoSession::start(const QString& redisServer)
{
    m_cluster.startAsync(masterCount, redisServer);
}

void DemoSession::onClusterStarted(const QStringList& urls)
{
    Result<LockScopeConfig> config = demoConfig(urls);
    if (!config)
        return emit failed(config.error());
    m_config = *config;
    // Written through a short-lived master set of its own, without waiting: replies count down.
    // Its masters wait longer than the monitor's (half a second, to show a paused master at
    // once): a machine busy with a build may take that long to connect to a server it has just
    // started, and the demo must not fail to start for it. The overall limit below still holds.
    QList<ConnectionOptions> writerMasters = m_config.masters;
    for (ConnectionOptions& m : writerMasters)
        m.connectTimeoutMs = m.commandTimeoutMs = seedTimeoutMs;
    m_writer = std::make_unique<MasterSet>(writerMasters);
    m_writer->open();
    m_seededWallMs = QDateTime::currentMSecsSinceEpoch();
    m_seededAtMs = monotonicMs();
    m_lostSamples.clear();
    const QList<QPair<int, QByteArrayList>> commands = sampleCommands(m_seededWallMs);
    m_left = int(commands.size());
    m_finished = false;
    for (const auto& [master, argv] : commands) {
        RedisConnection* c = m_writer->at(master);
        c->send(argv, this, [this, name = c->name()](const RedisResult& r) {
            if (m_finished)
                return;
            if (!r.ok() || r.isServerError())
                return finishWriting(r.anyError(name).message);
            if (--m_left == 0)
                finishWriting(QString());
        });
    }
    QTimer::singleShot(2 * seedTimeoutMs, this, [this] {
        if (!m_finished)
            finishWriting(tr("the demo masters did not answer"));
    });
}

void DemoSession::finishWriting(const QString& failure)
{
    m_finished = true;
    if (m_writer) {
        m_writer->close();
        m_writer.release()->deleteLater(); // we may be inside one of its callbacks
    }
    if (!failure.isEmpty())
        return emit failed(RedisError(ErrorKind::Io, QString(), failure));
    m_lab.simulation()->start(m_config);
    m_ready = true;
    emit ready(m_config);
}

void DemoSession::onMasterState(int master, DemoCluster::MasterState state)
{
    // Without persistence a killed or restarted server comes back empty; a paused one keeps its keys.
    if (m_ready && (state == DemoCluster::MasterState::Killed || state == DemoCluster::MasterState::Starting))
        m_lostSamples.insert(master);
    restoreSamplesWhenUp();
}

void DemoSession::restoreSamplesWhenUp()
{
    if (!m_restorePending || !m_ready)
        return;
    for (int m : std::as_const(m_lostSamples))
        if (!m_lab.simulation()->isMasterUp(m))
            return; // again on the next state change
    m_restorePending = false;
    const QSet<int> lost = std::exchange(m_lostSamples, {});
    const QList<int> masters(lost.cbegin(), lost.cend());
    for (int m : masters)
        restoreSamples(m, lost);
    if (!masters.isEmpty())
        emit samplesRestored(masters);
}

void DemoSession::renewSamples()
{
    MasterSet* set = m_lab.simulation()->masters();
    if (!m_ready || !set)
        return;
    // The same values (the legacy lock's timestamp included) as at the start: the same holders.
    m_seededAtMs = monotonicMs();
    QList<int> written;
    for (const auto& [master, argv] : sampleCommands(m_seededWallMs)) {
        if (master >= set->size() || !m_lab.simulation()->isMasterUp(master))
            continue;
        set->at(master)->send(argv, this, [](const RedisResult&) {});
        if (!written.contains(master))
            written << master;
    }
    for (int m : std::as_const(written))
        m_lostSamples.remove(m);
    emit samplesRestored(written);
}

void DemoSession::restoreSamples(int master, const QSet<int>& lost)
{
    MasterSet* set = m_lab.simulation()->masters();
    if (!set || master >= set->size())
        return;
    // Per key, the masters that were given the same commands hold the same lock: one of them that
    // kept it gives its copy (DUMP, PTTL → RESTORE, which refuses a key that is there: nothing is
    // written twice). A lock gone from all of them expired or was lost everywhere; it is written
    // again only while its first TTL would still run, with what is left of it.
    QMap<QByteArray, QMap<int, QList<QByteArrayList>>> byKey;
    for (const auto& [m, argv] : sampleCommands(m_seededWallMs))
        byKey[argv.at(1)][m] << argv;
    const qint64 elapsed = monotonicMs() - m_seededAtMs;
    RedisConnection* target = set->at(master);
    for (auto k = byKey.cbegin(); k != byKey.cend(); ++k) {
        const QList<QByteArrayList> mine = k->value(master);
        if (mine.isEmpty())
            continue;
        int donor = -1;
        for (auto d = k->cbegin(); d != k->cend() && donor < 0; ++d)
            if (d.key() != master && d.value() == mine && !lost.contains(d.key()) &&
                m_lab.simulation()->isMasterUp(d.key()))
                donor = d.key();
        const QByteArray key = k.key();
        if (donor >= 0) {
            auto pttl = std::make_shared<qint64>(-2);
            RedisConnection* from = set->at(donor);
            from->send({"PTTL", key}, this, [pttl](const RedisResult& r) {
                if (r.ok() && r.reply.isInteger())
                    *pttl = r.reply.integer;
            });
            from->send({"DUMP", key}, this, [this, master, key, pttl](const RedisResult& r) {
                MasterSet* now = m_lab.simulation()->masters();
                if (!r.ok() || !r.reply.isString() || *pttl == -2 || !now || master >= now->size())
                    return; // gone there too: expired, or released
                now->at(master)->send(
                    {"RESTORE", key, QByteArray::number(qMax<qint64>(0, *pttl)), r.reply.string}, this,
                    [](const RedisResult&) {});
            });
            continue;
        }
        QList<QByteArrayList> again;
        bool expired = false;
        for (QByteArrayList argv : mine) {
            // SET … PX n, PEXPIRE key n: what is left of n.
            const qsizetype px = argv.indexOf("PX");
            const qsizetype at = argv.at(0) == "PEXPIRE" ? 2 : px >= 0 ? px + 1 : -1;
            if (at >= 0 && at < argv.size()) {
                const qint64 left = argv.at(at).toLongLong() - elapsed;
                expired = expired || left <= 0;
                argv[at] = QByteArray::number(left);
            }
            again << argv;
        }
        if (!expired)
            for (const QByteArrayList& argv : std::as_const(again))
                target->send(argv, this, [](const RedisResult&) {});
    }
}

} // namespace lockscope
