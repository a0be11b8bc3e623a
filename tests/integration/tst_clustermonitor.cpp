// SPDX-License-Identifier: Apache-2.0
#include "config/configloader.h"
#include "discovery/clusterscanner.h"
#include "monitor/failoverreport.h"
#include "monitor/lockmonitor.h"
#include "support/blockingcommand.h"
#include "support/groupmaster.h"
#include "support/lockctlrun.h"
#include "support/quickconfig.h"
#include "support/redisclustergroup.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/timebound.h"
#include "support/watchevents.h"
#include "topology/clusterentry.h"
#include "topology/clusterkeyslot.h"
#include "topology/clustertopology.h"
#include "topology/masterset.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <csignal>

namespace tst_clustermonitor {

using namespace lockscope;
using namespace lockscope::test;

namespace {
// The watchers' command timeout: a loaded or sanitized run must not time a healthy master out, since
// a watcher that reconnects after the test changed the primary's password stays locked out of it.
const QString watchTimeout = QString::number(upperBoundMs(1000));
} // namespace

// Redis Cluster entries (#8) seen from the core's view and from lockctl: a real 6-node cluster
// (3 primaries, 3 replicas, made with redis-cli --cluster create) next to plain masters.
class TestClusterMonitor : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void scansEveryShardAsOneMaster();
    void listJsonShowsTheClusterAndItsShards();
    void writesAreRoutedByKey();
    void reshardingDuringScansLosesNoLock();
    void failoverDuringWatchNamesTheLostLockOfThatShardOnly();
    void seedsThatAreNoClusterFailClearly();

private:
    NodeAddress addressOf(RedisClusterGroup& group, int node) const
    {
        return {QStringLiteral("127.0.0.1"), group.at(node).port()};
    }

    RedisClusterGroup m_cluster; // scanned, written and resharded; never failed over
    RedisServerGroup m_plain;
    QByteArrayList m_shardLocks; // one lock per primary of m_cluster
};

void TestClusterMonitor::initTestCase()
{
    qRegisterMetaType<PrimaryChange>();
    qRegisterMetaType<FailoverReport>();
    qRegisterMetaType<LockBatch>();
    QVERIFY2(m_cluster.start(3, 1), qPrintable(m_cluster.errorString()));
    QVERIFY2(m_plain.start(2), qPrintable(m_plain.errorString()));
    for (int primary : m_cluster.primaryIndexes()) {
        const QByteArray key = m_cluster.keyOn(primary, "lock:shard:");
        QCOMPARE(m_cluster.at(primary).command({"SET", key, "tok-" + key, "PX", "600000"}).string,
                 QByteArray("OK"));
        m_shardLocks << key;
    }
    QCOMPARE(m_shardLocks.size(), 3);
}

void TestClusterMonitor::scansEveryShardAsOneMaster()
{
    // The cluster is master 0 of three: it counts once towards N, whatever its number of primaries.
    MasterSet masters({groupMaster(m_cluster.url(1)), m_plain.at(0).connectionOptions(1000),
                       m_plain.at(1).connectionOptions(1000)});
    QCOMPARE(masters.size(), 3);
    QCOMPARE(masters.needed(), 2);
    QVERIFY(masters.isCluster(0));
    QVERIFY(!masters.isCluster(1));
    LockMonitor monitor(&masters, pollingConfig(500));
    QSignalSpy initial(&monitor, &LockMonitor::initialScanFinished);
    masters.open();
    monitor.start();
    QVERIFY(initial.wait(int(lockscope::test::upperBoundMs(30000))));
    QVERIFY(masters.at(0)->isUp());
    QCOMPARE(masters.cluster(0)->primaries().size(), 3);
    auto* scanner = qobject_cast<ClusterScanner*>(monitor.scanner(0));
    QVERIFY(scanner);
    QCOMPARE(scanner->scannedPrimaries().size(), 3);

    for (const QByteArray& key : std::as_const(m_shardLocks)) {
        const LockView view = monitor.locks().value(key);
        QCOMPARE(view.resource, key);
        QCOMPARE(view.holding, 1);
        QCOMPARE(view.total, 3);
        QCOMPARE(view.holders, QList<int>{0});
        QCOMPARE(view.token, "tok-" + key);
        // Read on the primary that serves its slot, and only there.
        const NodeAddress owner =
            masters.cluster(0)->topology()->slotMap().primaryFor(ClusterKeySlot::of(key));
        QVERIFY(scanner->readFrom(key, owner));
        for (const NodeAddress& other : scanner->scannedPrimaries())
            QCOMPARE(scanner->readFrom(key, other), other == owner);
    }

    // A lock held on the cluster and one plain master has its quorum (2 of 3), and a change on any
    // shard reaches the view.
    const QByteArray shared = m_shardLocks.at(1);
    QCOMPARE(m_plain.at(0).command({"SET", shared, "tok-" + shared, "PX", "600000"}).string,
             QByteArray("OK"));
    QTRY_COMPARE_WITH_TIMEOUT(monitor.locks().value(shared)->holding, 2, 20000);
    QCOMPARE(monitor.locks().value(shared)->status, LockStatus::Held);
    QVERIFY(m_plain.at(0).command({"DEL", shared}).integer == 1);
    QTRY_COMPARE_WITH_TIMEOUT(monitor.locks().value(shared)->holding, 1, 20000);

    // A node of the cluster that the URL did not name is found through the map, and a key that
    // goes away on its shard leaves the view.
    const QByteArray fleeting = m_cluster.keyOn(m_cluster.primaryIndexes().at(2), "lock:fleeting:");
    const int owner = m_cluster.primaryForSlot(ClusterKeySlot::of(fleeting));
    QCOMPARE(m_cluster.at(owner).command({"SET", fleeting, "x", "PX", "600000"}).string, QByteArray("OK"));
    QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().contains(fleeting), 20000);
    QCOMPARE(m_cluster.at(owner).command({"DEL", fleeting}).integer, 1);
    QTRY_VERIFY_WITH_TIMEOUT(!monitor.locks().contains(fleeting), 20000);
}

void TestClusterMonitor::listJsonShowsTheClusterAndItsShards()
{
    int code = -1;
    const QJsonObject out = runLockctlJson(
        testPasswordArgs() << QStringLiteral("-m") << m_cluster.url(1, false) << QStringLiteral("list"),
        &code);
    QCOMPARE(code, 0);
    const QJsonArray masterList = out.value(QStringLiteral("masters")).toArray();
    QCOMPARE(masterList.size(), 1);
    const QJsonObject master = masterList.at(0).toObject();
    QCOMPARE(master.value(QStringLiteral("url")).toString(), m_cluster.url(1, false));
    QCOMPARE(master.value(QStringLiteral("up")).toBool(), true);
    QCOMPARE(master.value(QStringLiteral("cluster")).toBool(), true);
    QCOMPARE(master.value(QStringLiteral("slotsCovered")).toInt(), 16384);
    // Every primary with its replica, nested: primary, replica, primary, replica, ...
    const QJsonArray nodes = master.value(QStringLiteral("nodes")).toArray();
    QCOMPARE(nodes.size(), 6);
    QStringList primaries;
    for (int i = 0; i < nodes.size(); i += 2) {
        const QJsonObject primary = nodes.at(i).toObject();
        const QJsonObject replica = nodes.at(i + 1).toObject();
        QCOMPARE(primary.value(QStringLiteral("role")).toString(), QStringLiteral("primary"));
        QCOMPARE(primary.value(QStringLiteral("state")).toString(), QStringLiteral("up"));
        QVERIFY(primary.value(QStringLiteral("detail")).toString().startsWith(QStringLiteral("slots ")));
        QCOMPARE(replica.value(QStringLiteral("role")).toString(), QStringLiteral("replica"));
        QCOMPARE(replica.value(QStringLiteral("detail")).toString(),
                 QStringLiteral("replica of ") + primary.value(QStringLiteral("address")).toString());
        primaries << primary.value(QStringLiteral("address")).toString();
    }
    QStringList expected;
    for (int p : m_cluster.primaryIndexes())
        expected << addressOf(m_cluster, p).toString();
    std::sort(expected.begin(), expected.end());
    std::sort(primaries.begin(), primaries.end());
    QCOMPARE(primaries, expected);

    // Each lock is on the shard that serves its slot.
    const QJsonArray locks = out.value(QStringLiteral("locks")).toArray();
    int seen = 0;
    for (const QJsonValue& v : locks) {
        const QJsonObject lock = v.toObject();
        const QByteArray resource = lock.value(QStringLiteral("resource")).toString().toUtf8();
        if (!m_shardLocks.contains(resource))
            continue;
        ++seen;
        QCOMPARE(lock.value(QStringLiteral("status")).toString(), QStringLiteral("held"));
        const QJsonObject o = lock.value(QStringLiteral("observations")).toArray().at(0).toObject();
        const int slot = ClusterKeySlot::of(resource);
        QCOMPARE(o.value(QStringLiteral("slot")).toInt(), slot);
        QCOMPARE(o.value(QStringLiteral("node")).toString(),
                 addressOf(m_cluster, m_cluster.primaryForSlot(slot)).toString());
    }
    QCOMPARE(seen, 3);

    // The text form names the cluster's primaries and slot coverage.
    const LockctlRun text = runLockctl(testPasswordArgs() << QStringLiteral("-m") << m_cluster.url(1, false)
                                                          << QStringLiteral("list"),
                                       60000);
    QCOMPARE(text.code, 0);
    QVERIFY2(text.out.contains(": 3 primaries, 16384/16384 slots"), qPrintable(text.describe()));
    for (const QByteArray& key : std::as_const(m_shardLocks))
        QVERIFY2(text.out.contains(key), qPrintable(text.describe()));
}

void TestClusterMonitor::writesAreRoutedByKey()
{
    // Redlock over the cluster and two plain masters: each key reaches the shard of its slot.
    const QStringList masters =
        testPasswordArgs() + QStringList{QStringLiteral("-m"), m_cluster.url(1, false),
                                         QStringLiteral("-m"), m_plain.at(0).url(false),
                                         QStringLiteral("-m"), m_plain.at(1).url(false)};
    for (int primary : m_cluster.primaryIndexes()) {
        const QByteArray resource = m_cluster.keyOn(primary, "job:routed:");
        int code = -1;
        QJsonObject acquired =
            runLockctlJson(masters + QStringList{QStringLiteral("acquire"), QString::fromUtf8(resource),
                                                 QStringLiteral("--ttl"), QStringLiteral("60000")},
                           &code);
        QCOMPARE(code, 0);
        const QString token = acquired.value(QStringLiteral("token")).toString();
        QVERIFY(!token.isEmpty());
        QCOMPARE(m_cluster.at(primary).command({"GET", resource}).string, token.toUtf8());
        QCOMPARE(m_plain.at(0).command({"GET", resource}).string, token.toUtf8());

        // A wrong token changes nothing anywhere; the right one releases everywhere.
        runLockctlJson(masters + QStringList{QStringLiteral("release"), QString::fromUtf8(resource),
                                             QStringLiteral("--token"), QStringLiteral("not-the-holder")},
                       &code);
        QVERIFY(code != 0);
        QCOMPARE(m_cluster.at(primary).command({"GET", resource}).string, token.toUtf8());
        runLockctlJson(masters + QStringList{QStringLiteral("release"), QString::fromUtf8(resource),
                                             QStringLiteral("--token"), token},
                       &code);
        QCOMPARE(code, 0);
        QCOMPARE(m_cluster.at(primary).command({"EXISTS", resource}).integer, 0);
        QCOMPARE(m_plain.at(1).command({"EXISTS", resource}).integer, 0);
    }
}

void TestClusterMonitor::reshardingDuringScansLosesNoLock()
{
    // 60 locks in one slot (a hash tag), moved key by key to another primary with MIGRATE while the
    // monitor keeps scanning, without keyspace events (the harder case: every pass must cope).
    const QList<int> primaries = m_cluster.primaryIndexes();
    const int from = primaries.at(0);
    const int to = primaries.at(1);
    const QByteArray tag = m_cluster.keyOn(from, "lock:moving:");
    const int slot = ClusterKeySlot::of(tag);
    QByteArrayList moving;
    for (int i = 0; i < 60; ++i) {
        const QByteArray key = "{" + tag + "}:" + QByteArray::number(i);
        QCOMPARE(ClusterKeySlot::of(key), slot);
        QCOMPARE(
            m_cluster.at(from).command({"SET", key, "tok-" + QByteArray::number(i), "PX", "600000"}).string,
            QByteArray("OK"));
        moving << key;
    }
    // Filler on the source, so that its passes take a while.
    for (int i = 0; i < 20; ++i) {
        QByteArrayList mset{"MSET"};
        for (int j = 0; j < 100; ++j) {
            const QByteArray filler = "{" + tag + "}:filler:lock:" + QByteArray::number(i * 100 + j);
            mset << filler << "x";
        }
        QCOMPARE(m_cluster.at(from).command(mset).string, QByteArray("OK"));
    }

    MasterSet masters({groupMaster(m_cluster.url(1))});
    LockScopeConfig config;
    config.monitor.pollIntervalMs = 100;
    config.monitor.scanCount = 200;
    // The hash-tagged names ("{lock:moving:7}:3") are no default lock layout: every key with "lock"
    // in it is a lock here, as the test's keys and filler were written for.
    config.monitor.patterns = {"*lock*"};
    LockMonitor monitor(&masters, config);
    QSignalSpy initial(&monitor, &LockMonitor::initialScanFinished);
    QSet<QByteArray> everRemoved;
    connect(&monitor, &LockMonitor::locksChanged, this, [&](const LockBatch& batch) {
        for (const QByteArray& key : batch.removed)
            everRemoved.insert(key);
    });
    masters.open();
    monitor.start();
    QVERIFY(initial.wait(int(lockscope::test::upperBoundMs(30000))));
    for (const QByteArray& key : std::as_const(moving))
        QVERIFY2(monitor.locks().contains(key), key.constData());
    QCOMPARE(monitor.scanner(0)->mode(), NotificationMode::Polling);

    QVERIFY(m_cluster.beginSlotMigration(slot, from, to));
    const int passesBefore = monitor.scanner(0)->completedPasses();
    for (int i = 0; i < moving.size(); ++i) {
        QVERIFY(m_cluster.migrateKey(moving.at(i), from, to));
        if (i % 6 == 5)
            QTest::qWait(60); // let passes over the half-moved slot run
        if (i == moving.size() / 2) {
            // The migrations block this thread, so how many passes the short waits let through depends
            // on the machine's speed (a sanitized build on a loaded box got none). Wait here until one
            // pass has run from start to end over the half-moved slot, which is the case under test.
            const int halfway = monitor.scanner(0)->completedPasses();
            QTRY_VERIFY_WITH_TIMEOUT(monitor.scanner(0)->completedPasses() >= halfway + 2, 20000);
        }
    }
    // The filler goes too, so the slot can be handed over.
    for (int i = 0; i < 2000; ++i)
        QVERIFY(m_cluster.migrateKey("{" + tag + "}:filler:lock:" + QByteArray::number(i), from, to));
    const int passesDuring = monitor.scanner(0)->completedPasses() - passesBefore;
    QVERIFY(m_cluster.finishSlotMigration(slot, from, to));
    QVERIFY(m_cluster.waitForConsistent());

    // The entry's map follows (the source answers MOVED to the re-reads), and the locks are read on
    // their new primary.
    auto* scanner = qobject_cast<ClusterScanner*>(monitor.scanner(0));
    const NodeAddress target = addressOf(m_cluster, to);
    masters.cluster(0)->topology()->refresh();
    QTRY_COMPARE_WITH_TIMEOUT(masters.cluster(0)->topology()->slotMap().primaryFor(slot), target, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(
        std::all_of(moving.cbegin(), moving.cend(),
                    [&](const QByteArray& key) { return scanner->readFrom(key, target); }),
        20000);
    const int passes = monitor.scanner(0)->completedPasses();
    QTRY_VERIFY_WITH_TIMEOUT(monitor.scanner(0)->completedPasses() >= passes + 2, 20000);
    QVERIFY2(passesDuring >= 1, "no full pass ran while the slot was being moved");
    for (int i = 0; i < moving.size(); ++i) {
        const LockView view = monitor.locks().value(moving.at(i));
        QCOMPARE(view.resource, moving.at(i));
        QCOMPARE(view.token, "tok-" + QByteArray::number(i));
        QCOMPARE(view.status, LockStatus::Held);
    }
    QStringList removed;
    for (const QByteArray& key : std::as_const(everRemoved))
        if (moving.contains(key))
            removed << QString::fromUtf8(key);
    QVERIFY2(removed.isEmpty(), qPrintable(QStringLiteral("shown as gone mid-move: ") + removed.join(u' ')));

    int code = -1;
    const QJsonObject out =
        runLockctlJson(testPasswordArgs() + QStringList{QStringLiteral("-m"), m_cluster.url(1, false),
                                                        QStringLiteral("list"), QStringLiteral("--pattern"),
                                                        QStringLiteral("{lock:moving:*")},
                       &code);
    QCOMPARE(code, 0);
    int found = 0;
    for (const QJsonValue& v : out.value(QStringLiteral("locks")).toArray()) {
        const QJsonObject o = v.toObject().value(QStringLiteral("observations")).toArray().at(0).toObject();
        if (!moving.contains(v.toObject().value(QStringLiteral("resource")).toString().toUtf8()))
            continue;
        ++found;
        QCOMPARE(o.value(QStringLiteral("node")).toString(), target.toString());
    }
    QCOMPARE(found, int(moving.size()));
}

void TestClusterMonitor::failoverDuringWatchNamesTheLostLockOfThatShardOnly()
{
    RedisClusterGroup cluster;
    QVERIFY2(cluster.start(3, 1), qPrintable(cluster.errorString()));
    const QList<int> primaries = cluster.primaryIndexes();
    const int doomed = primaries.at(0);
    const int promoted = cluster.replicaOf(doomed);
    QVERIFY(promoted >= 0);
    const QByteArray kept = cluster.keyOn(doomed, "lock:kept:");
    const QByteArray lost = cluster.keyOn(doomed, "lock:lost:");
    const QByteArray other = cluster.keyOn(primaries.at(1), "lock:other:");
    // Replicated before anything happens: these survive.
    QCOMPARE(cluster.at(doomed).command({"SET", kept, "token-kept", "PX", "600000"}).string,
             QByteArray("OK"));
    QCOMPARE(cluster.at(doomed).command({"WAIT", "1", "5000"}).integer, 1);
    QCOMPARE(cluster.at(primaries.at(1)).command({"SET", other, "token-other", "PX", "600000"}).string,
             QByteArray("OK"));

    // Watched by lockctl and by a monitor in this process.
    QProcess watch;
    watch.setProcessEnvironment(testPasswordEnvironment());
    watch.start(lockctlPath(),
                testPasswordArgs() + QStringList{QStringLiteral("--json"), QStringLiteral("--timeout-ms"),
                                                 watchTimeout, QStringLiteral("-m"), cluster.url(1, false),
                                                 QStringLiteral("watch")});
    QVERIFY(watch.waitForStarted());
    WatchEvents events(watch);
    const auto find = [&](const QString& event, const QString& key, const QString& value) {
        return events.find(event, key, value);
    };
    MasterSet masters({groupMaster(cluster.url(1))});
    LockScopeConfig config;
    config.monitor.pollIntervalMs = 300;
    LockMonitor monitor(&masters, config);
    QSignalSpy detected(&monitor, &LockMonitor::failoverDetected);
    QSignalSpy reported(&monitor, &LockMonitor::failoverReported);
    QHash<QByteArray, QList<LockStatus>> statuses;
    QSet<QByteArray> markedAtRisk;
    connect(&monitor, &LockMonitor::locksChanged, this, [&](const LockBatch& batch) {
        for (const LockView& v : batch.added + batch.changed) {
            statuses[v.resource] << v.status;
            if (v.atRisk)
                markedAtRisk.insert(v.resource);
        }
    });
    masters.open();
    monitor.start();
    QTRY_VERIFY_WITH_TIMEOUT(monitor.isInitialScanDone() && monitor.locks().contains(kept), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(
        !find(QStringLiteral("added"), QStringLiteral("resource"), QString::fromUtf8(kept)).isEmpty(), 30000);

    // Cut the doomed primary's replication without touching its replica (the replica can no longer
    // authenticate), then write a lock the replica never receives.
    QCOMPARE(cluster.at(doomed).command({"CONFIG", "SET", "requirepass", "cut"}).string, QByteArray("OK"));
    const auto ask = [&](const QByteArrayList& argv) {
        return blockingCommand(cluster.at(doomed).adminPort(), argv, QStringLiteral("cut"));
    };
    QVERIFY(ask({"CLIENT", "KILL", "TYPE", "replica"}).integer >= 1);
    QCOMPARE(ask({"SET", lost, "token-lost", "NX", "PX", "600000"}).string, QByteArray("OK"));
    QCOMPARE(ask({"WAIT", "1", "100"}).integer, 0);
    QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().contains(lost), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(
        !find(QStringLiteral("added"), QStringLiteral("resource"), QString::fromUtf8(lost)).isEmpty(), 30000);

    cluster.at(doomed).kill();
    // While the shard has no primary its locks cannot be read; the other shards' can.
    QTRY_VERIFY_WITH_TIMEOUT(statuses.value(kept).contains(LockStatus::Unknown), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(detected.size(), 1, 60000);
    const auto change = detected.at(0).at(1).value<PrimaryChange>();
    QCOMPARE(change.oldPrimary, addressOf(cluster, doomed));
    QCOMPARE(change.newPrimary, addressOf(cluster, promoted));
    QCOMPARE(detected.at(0).at(2).toInt(), 2); // kept and lost; not the other shard's lock

    QTRY_COMPARE_WITH_TIMEOUT(reported.size(), 1, 60000);
    const auto report = reported.at(0).at(0).value<FailoverReport>();
    QCOMPARE(report.master, 0);
    QCOMPARE(report.atRisk, (QList<QByteArray>{kept, lost}));
    QCOMPARE(report.lost, QList<QByteArray>{lost});
    QVERIFY(report.changedToken.isEmpty());
    QVERIFY(markedAtRisk.contains(kept));
    QVERIFY(!markedAtRisk.contains(other));
    QVERIFY(!statuses.value(other).contains(LockStatus::Unknown));
    QTRY_VERIFY_WITH_TIMEOUT(!monitor.locks().contains(lost), 20000);
    QCOMPARE(monitor.locks().value(kept)->status, LockStatus::Held);
    QVERIFY(monitor.locks().value(kept)->atRisk);
    QCOMPARE(monitor.locks().value(other)->status, LockStatus::Held);
    QVERIFY(!monitor.locks().value(other)->atRisk);

    // lockctl watch said the same, as one failover line.
    QTRY_VERIFY_WITH_TIMEOUT(
        !find(QStringLiteral("failover"), QStringLiteral("master"), cluster.url(1, false)).isEmpty(), 60000);
    const QJsonObject failover =
        find(QStringLiteral("failover"), QStringLiteral("master"), cluster.url(1, false));
    QCOMPARE(failover.value(QStringLiteral("from")).toString(), addressOf(cluster, doomed).toString());
    QCOMPARE(failover.value(QStringLiteral("to")).toString(), addressOf(cluster, promoted).toString());
    QCOMPARE(failover.value(QStringLiteral("lost")).toArray(), QJsonArray{QString::fromUtf8(lost)});
    QCOMPARE(failover.value(QStringLiteral("atRisk")).toArray(),
             (QJsonArray{QString::fromUtf8(kept), QString::fromUtf8(lost)}));
    ::kill(pid_t(watch.processId()), SIGINT);
    QVERIFY(watch.waitForFinished(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(watch.exitCode(), 0);

    // Afterwards, list shows the promoted replica as the shard's primary and the lock that survived.
    // (Every node as a seed: the first one may be the one that died.)
    int code = -1;
    const QJsonObject out = runLockctlJson(
        testPasswordArgs() << QStringLiteral("-m") << cluster.url(-1, false) << QStringLiteral("list"),
        &code);
    QCOMPARE(code, 0);
    QStringList primaryAddresses;
    for (const QJsonValue& n : out.value(QStringLiteral("masters"))
                                   .toArray()
                                   .at(0)
                                   .toObject()
                                   .value(QStringLiteral("nodes"))
                                   .toArray())
        if (n.toObject().value(QStringLiteral("role")).toString() == QStringLiteral("primary"))
            primaryAddresses << n.toObject().value(QStringLiteral("address")).toString();
    QVERIFY(primaryAddresses.contains(addressOf(cluster, promoted).toString()));
    QVERIFY(!primaryAddresses.contains(addressOf(cluster, doomed).toString()));
    QStringList resources;
    for (const QJsonValue& v : out.value(QStringLiteral("locks")).toArray())
        resources << v.toObject().value(QStringLiteral("resource")).toString();
    resources.sort();
    QCOMPARE(resources, (QStringList{QString::fromUtf8(kept), QString::fromUtf8(other)}));
}

void TestClusterMonitor::seedsThatAreNoClusterFailClearly()
{
    // Nothing listening, and a plain (non-cluster) server named as a cluster: each is a master that
    // is down, with the reason, at once; the other masters still count; no password is printed.
    const QString nothing =
        QStringLiteral("redis-cluster://ops:s3cret-x@127.0.0.1:%1").arg(freeLoopbackPort());
    const QString plain = QStringLiteral("redis-cluster://127.0.0.1:%1").arg(m_plain.at(0).port());
    for (const QString& url : {nothing, plain}) {
        const LockctlRun run =
            runLockctl(testPasswordArgs() + QStringList{QStringLiteral("-m"), url, QStringLiteral("-m"),
                                                        m_plain.at(1).url(false), QStringLiteral("list")},
                       30000);
        QCOMPARE(run.code, 3); // fewer masters answered than a quorum needs
        QVERIFY2(run.err.contains("no cluster node answered CLUSTER SLOTS"), qPrintable(run.describe()));
        if (url == plain)
            QVERIFY2(run.err.contains("cluster support disabled"), qPrintable(run.describe()));
        QVERIFY(!run.out.contains("s3cret") && !run.err.contains("s3cret"));
        QVERIFY(run.ms < 10000);
    }
    // A write is refused without touching the plain master of the pair.
    const LockctlRun acquire =
        runLockctl(testPasswordArgs() + QStringList{QStringLiteral("-m"), plain, QStringLiteral("-m"),
                                                    m_plain.at(1).url(false), QStringLiteral("acquire"),
                                                    QStringLiteral("lock:nocluster"), QStringLiteral("--ttl"),
                                                    QStringLiteral("5000")},
                   30000);
    QVERIFY(acquire.code != 0);
    QCOMPARE(m_plain.at(1).command({"EXISTS", "lock:nocluster"}).integer, 0);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestClusterMonitor)

} // namespace tst_clustermonitor

#include "tst_clustermonitor.moc"
