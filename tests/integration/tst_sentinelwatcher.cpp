// SPDX-License-Identifier: Apache-2.0
#include "connection/nodeaddress.h"
#include "connection/topologyurl.h"
#include "support/blockingcommand.h"
#include "support/redisserver.h"
#include "support/sentinelgroup.h"
#include "support/testregistry.h"
#include "topology/primarychange.h"
#include "topology/sentinelresolver.h"
#include "topology/sentinelwatcher.h"

#include <QSignalSpy>
#include <QTest>

namespace tst_sentinelwatcher {

using namespace lockscope;
using namespace lockscope::test;

// A real Sentinel group (1 primary, 1 replica, 3 sentinels, 1 s down-after) on loopback.
class TestSentinelWatcher : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void resolvesPrimary();
    void skipsUnreachableSentinel();
    void wrongMasterNameIsAClearError();
    void noSentinelReachable();
    void resolvesPasswordProtectedPrimary();
    void followsRequestedFailover();
    void followsKilledPrimaryAfterLosingItsSentinel();
    void failoverLosesUnreplicatedLock();

private:
    TopologyUrl parse(const QString& text);
    NodeAddress addressOf(int dataNode)
    {
        return {QStringLiteral("127.0.0.1"), m_group.dataNode(dataNode).port()};
    }

    SentinelGroup m_group;
};

TopologyUrl TestSentinelWatcher::parse(const QString& text)
{
    Result<TopologyUrl> url = TopologyUrl::parse(text);
    if (!url)
        qFatal("bad test URL: %s", qPrintable(url.error().message));
    return *url;
}

void TestSentinelWatcher::initTestCase()
{
    qRegisterMetaType<NodeAddress>();
    qRegisterMetaType<PrimaryChange>();
    qRegisterMetaType<RedisError>();
    SentinelGroupOptions options;
    options.failoverTimeoutMs = 2000;
    QVERIFY2(m_group.start(options), qPrintable(m_group.errorString()));
    QCOMPARE(m_group.primaryIndex(), 0);
}

void TestSentinelWatcher::resolvesPrimary()
{
    SentinelResolver resolver(parse(m_group.url()), m_group.nodeOptions());
    QSignalSpy resolved(&resolver, &SentinelResolver::resolved);
    QSignalSpy failed(&resolver, &SentinelResolver::failed);
    resolver.resolve();
    QVERIFY(resolver.isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(resolved.size() + failed.size(), 1, 20000);
    QCOMPARE(resolved.size(), 1);
    QCOMPARE(resolved.at(0).at(0).value<NodeAddress>(), addressOf(0));
    QCOMPARE(resolved.at(0).at(1).toInt(), 0);
    QVERIFY(!resolver.isRunning());
}

void TestSentinelWatcher::skipsUnreachableSentinel()
{
    // Nothing listens on a port just released: the first sentinel refuses, the second answers.
    const quint16 dead = freeLoopbackPort();
    // The group's URL (its credentials, sentinel-auth) with the first sentinel swapped for the dead port.
    QString url = m_group.url();
    url.replace(QStringLiteral("@127.0.0.1:%1,").arg(m_group.sentinel(0).port()),
                QStringLiteral("@127.0.0.1:%1,").arg(dead));
    QVERIFY2(url.contains(QStringLiteral(":%1,").arg(dead)), qPrintable(m_group.url(false)));
    SentinelResolver resolver(parse(url), m_group.nodeOptions());
    QSignalSpy resolved(&resolver, &SentinelResolver::resolved);
    QSignalSpy failed(&resolver, &SentinelResolver::failed);
    resolver.resolve();
    QTRY_COMPARE_WITH_TIMEOUT(resolved.size() + failed.size(), 1, 20000);
    QCOMPARE(resolved.size(), 1);
    QCOMPARE(resolved.at(0).at(0).value<NodeAddress>(), addressOf(0));
    QCOMPARE(resolved.at(0).at(1).toInt(), 1);
}

void TestSentinelWatcher::wrongMasterNameIsAClearError()
{
    QString url = m_group.url();
    url.replace(QLatin1String("/mymaster"), QLatin1String("/no-such-master"));
    SentinelResolver resolver(parse(url), m_group.nodeOptions());
    QSignalSpy resolved(&resolver, &SentinelResolver::resolved);
    QSignalSpy failed(&resolver, &SentinelResolver::failed);
    resolver.resolve();
    QTRY_COMPARE_WITH_TIMEOUT(resolved.size() + failed.size(), 1, 20000);
    QCOMPARE(failed.size(), 1);
    const RedisError error = failed.at(0).at(0).value<RedisError>();
    QCOMPARE(error.kind, ErrorKind::InvalidConfig);
    QVERIFY2(error.message.contains(QLatin1String("no sentinel knows a master named 'no-such-master'")),
             qPrintable(error.toString()));
    QVERIFY2(error.master.startsWith(QLatin1String("redis-sentinel://")), qPrintable(error.master));
}

void TestSentinelWatcher::noSentinelReachable()
{
    const QString url =
        QStringLiteral("redis-sentinel://:pw-Zq9@127.0.0.1:%1,127.0.0.1:%2/mymaster?sentinel-auth=yes")
            .arg(freeLoopbackPort())
            .arg(freeLoopbackPort());
    SentinelWatcher::Options options;
    options.retryDelayMs = 100;
    SentinelWatcher watcher(parse(url), m_group.nodeOptions(1000), options);
    QSignalSpy failed(&watcher, &SentinelWatcher::resolutionFailed);
    watcher.start();
    // It keeps trying: the sentinels may come back.
    QTRY_VERIFY_WITH_TIMEOUT(failed.size() >= 2, 20000);
    const RedisError error = failed.at(0).at(0).value<RedisError>();
    QCOMPARE(error.kind, ErrorKind::Refused);
    QVERIFY2(error.message.contains(QLatin1String("no sentinel reachable")), qPrintable(error.message));
    QVERIFY2(!error.toString().contains(QLatin1String("Zq9")), qPrintable(error.toString()));
    QVERIFY(!watcher.primary().isValid());
}

void TestSentinelWatcher::resolvesPasswordProtectedPrimary()
{
    // Its own small group: data nodes with requirepass, sentinels without (sentinel-auth=no).
    SentinelGroup secured;
    SentinelGroupOptions options;
    options.sentinels = 1;
    options.dataOptions.password = distinctTestPassword(QStringLiteral("Zq9-secret"));
    // What the test is about: sentinels that take no password, asked without one (sentinel-auth=no).
    options.sentinelPassword = false;
    QVERIFY2(secured.start(options), qPrintable(secured.errorString()));
    SentinelResolver resolver(parse(secured.url()), secured.nodeOptions());
    QSignalSpy resolved(&resolver, &SentinelResolver::resolved);
    QSignalSpy failed(&resolver, &SentinelResolver::failed);
    resolver.resolve();
    QTRY_COMPARE_WITH_TIMEOUT(resolved.size() + failed.size(), 1, 20000);
    QCOMPARE(resolved.size(), 1);
    QCOMPARE(resolved.at(0).at(0).value<NodeAddress>().port, secured.dataNode(0).port());

    // Without the password the primary refuses ROLE: the sentinel's answer is not believed.
    SentinelResolver anonymous(parse(secured.url(false)), secured.nodeOptions());
    QSignalSpy refused(&anonymous, &SentinelResolver::failed);
    anonymous.resolve();
    QTRY_COMPARE_WITH_TIMEOUT(refused.size(), 1, 20000);
    const RedisError error = refused.at(0).at(0).value<RedisError>();
    QVERIFY2(error.message.contains(QLatin1String("did not answer ROLE: authentication failed")),
             qPrintable(error.toString()));
    QVERIFY(!error.toString().contains(QLatin1String("Zq9")));
}

void TestSentinelWatcher::followsRequestedFailover()
{
    SentinelWatcher::Options options;
    options.recheckIntervalMs = 0; // only the +switch-master event can tell it
    SentinelWatcher watcher(parse(m_group.url()), m_group.nodeOptions(), options);
    QSignalSpy resolved(&watcher, &SentinelWatcher::primaryResolved);
    QSignalSpy changed(&watcher, &SentinelWatcher::primaryChanged);
    QSignalSpy announced(&watcher, &SentinelWatcher::switchAnnounced);
    watcher.start();
    QTRY_COMPARE_WITH_TIMEOUT(resolved.size(), 1, 20000);
    QCOMPARE(watcher.primary(), addressOf(0));
    QTRY_VERIFY_WITH_TIMEOUT(watcher.isSubscribed(), 20000);
    QCOMPARE(watcher.primaryOptions().url.port(), m_group.dataNode(0).port());

    const RedisReply reply = m_group.sentinel(0).command({"SENTINEL", "FAILOVER", "mymaster"});
    QVERIFY2(!reply.isError(), reply.string.constData());
    QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 60000);
    const PrimaryChange change = changed.at(0).at(0).value<PrimaryChange>();
    QCOMPARE(change.oldPrimary, addressOf(0));
    QCOMPARE(change.newPrimary, addressOf(1));
    QCOMPARE(watcher.primary(), addressOf(1));
    QVERIFY(announced.size() >= 1);
    QCOMPARE(announced.at(0).at(0).value<PrimaryChange>(), change);
    // The old primary is told to replicate only after the switch: wait for the group to agree.
    QVERIFY(m_group.waitForPrimary(1));
    QCOMPARE(resolved.size(), 1); // a change is not a first resolution
    QCOMPARE(changed.size(), 1);  // and is reported once
}

void TestSentinelWatcher::followsKilledPrimaryAfterLosingItsSentinel()
{
    QVERIFY(m_group.waitForPrimary(1));
    // The old primary must have caught up as a replica, or there is nothing to promote.
    QTRY_VERIFY_WITH_TIMEOUT(
        m_group.dataNode(0).command({"INFO", "replication"}).string.contains("master_link_status:up"), 30000);
    SentinelWatcher::Options options;
    options.recheckIntervalMs = 0;
    options.retryDelayMs = 200;
    SentinelWatcher watcher(parse(m_group.url()), m_group.nodeOptions(1000), options);
    QSignalSpy changed(&watcher, &SentinelWatcher::primaryChanged);
    watcher.start();
    QTRY_VERIFY_WITH_TIMEOUT(watcher.isSubscribed(), 20000);
    QCOMPARE(watcher.primary(), addressOf(1));

    // The sentinel it listens to dies: it moves to another one without user action.
    const int lost = watcher.subscribedSentinel();
    m_group.sentinel(lost).stop();
    QTRY_VERIFY_WITH_TIMEOUT(watcher.isSubscribed() && watcher.subscribedSentinel() != lost, 20000);

    // Then the primary dies; the remaining two sentinels agree and promote the replica.
    m_group.dataNode(1).kill();
    QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 90000);
    const PrimaryChange change = changed.at(0).at(0).value<PrimaryChange>();
    QCOMPARE(change.oldPrimary, addressOf(1));
    QCOMPARE(change.newPrimary, addressOf(0));
    QVERIFY(m_group.waitForPrimary(0));
}

void TestSentinelWatcher::failoverLosesUnreplicatedLock()
{
    // The hazard Redlock was designed against, with real processes: a lock written to the primary
    // but not to its replica is gone once the replica is promoted, and a second client gets it too.
    SentinelGroup group;
    SentinelGroupOptions options;
    options.dataOptions.password = distinctTestPassword(QStringLiteral("first"));
    QVERIFY2(group.start(options), qPrintable(group.errorString()));
    SentinelWatcher::Options watcherOptions;
    watcherOptions.retryDelayMs = 200;
    SentinelWatcher watcher(parse(group.url()), group.nodeOptions(1000), watcherOptions);
    QSignalSpy changed(&watcher, &SentinelWatcher::primaryChanged);
    watcher.start();
    QTRY_VERIFY_WITH_TIMEOUT(watcher.isSubscribed(), 20000);
    RedisServer& primary = group.dataNode(0);
    RedisServer& replica = group.dataNode(1);

    // Cut replication without touching the replica: it can no longer authenticate to the primary.
    QCOMPARE(primary.command({"CONFIG", "SET", "requirepass", "second"}).string, QByteArray("OK"));
    const auto ask = [&primary](const QByteArrayList& argv) {
        return blockingCommand(primary.adminPort(), argv, QStringLiteral("second"));
    };
    QVERIFY(ask({"CLIENT", "KILL", "TYPE", "replica"}).integer >= 1);
    QCOMPARE(ask({"SET", "lock:orders", "client-A", "NX", "PX", "600000"}).string, QByteArray("OK"));
    // WAIT shows that no replica acknowledged the write.
    QCOMPARE(ask({"WAIT", "1", "100"}).integer, 0);
    QVERIFY(replica.command({"EXISTS", "lock:orders"}).integer == 0);

    primary.kill();
    QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 90000);
    QCOMPARE(changed.at(0).at(0).value<PrimaryChange>().newPrimary.port, replica.port());
    // The promoted replica never had the lock: a second client acquires it while A still holds it.
    QVERIFY(replica.command({"EXISTS", "lock:orders"}).integer == 0);
    QCOMPARE(replica.command({"SET", "lock:orders", "client-B", "NX", "PX", "600000"}).string,
             QByteArray("OK"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestSentinelWatcher)

} // namespace tst_sentinelwatcher

#include "tst_sentinelwatcher.moc"
