// SPDX-License-Identifier: Apache-2.0
#include "config/configloader.h"
#include "connection/redisconnection.h"
#include "monitor/failoverreport.h"
#include "monitor/lockmonitor.h"
#include "support/blockingcommand.h"
#include "support/lockctlrun.h"
#include "support/quickconfig.h"
#include "support/sentinelchecks.h"
#include "support/sentinelgroup.h"
#include "support/testregistry.h"
#include "support/tlsmaterial.h"
#include "topology/masterset.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

namespace tst_sentineltls {

using namespace lockscope;
using namespace lockscope::test;

namespace {

const QString secret = distinctTestPassword(QStringLiteral("Tls-Group-Secret-41"));

} // namespace

// A rediss-sentinel:// entry (issue #8: "TLS and auth as for plain masters") with real processes: a
// TLS-only group (1 primary, 1 replica, 3 sentinels, no plain port anywhere, replication and the
// sentinels' links over TLS, client certificates required) whose data nodes need a password.
class TestSentinelTls : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void lockctlListSeesTheLockThroughTlsSentinels();
    void plainSchemeAgainstTlsGroupFailsClearly();
    void wrongCaFailsWithATlsError();
    void withoutClientCertificateNothingIsReached();
    void wrongPasswordIsRefusedWithoutShowingIt();
    void coreFollowsAFailoverOverTls();

private:
    struct ListRun
    {
        LockctlRun run;
        QJsonObject json;
    };
    static QStringList tlsArgs(const QString& caFile);
    static ListRun list(const QString& url, const QString& caFile, bool clientCertificate = true);
    static void verifyNoSecret(const LockctlRun& run);
    // lockctl list gave up in bounded time (exit 3, the group down), without the password, and the
    // group's error names every one of `parts`.
    static void verifyGroupDown(const ListRun& r, const QStringList& parts);

    SentinelGroup m_group;
};

QStringList TestSentinelTls::tlsArgs(const QString& caFile)
{
    const TlsMaterial& tls = TlsMaterial::instance();
    return {QStringLiteral("--tls-ca"),   caFile,
            QStringLiteral("--tls-cert"), tls.clientCertFile(),
            QStringLiteral("--tls-key"),  tls.clientKeyFile()};
}

TestSentinelTls::ListRun TestSentinelTls::list(const QString& url, const QString& caFile,
                                               bool clientCertificate)
{
    QStringList args{QStringLiteral("--json"), QStringLiteral("--timeout-ms"), QStringLiteral("2000"),
                     QStringLiteral("-m"), url};
    args << (clientCertificate ? tlsArgs(caFile) : QStringList{QStringLiteral("--tls-ca"), caFile});
    ListRun r;
    r.run = runLockctl(args << QStringLiteral("list"), 60000);
    r.json = QJsonDocument::fromJson(r.run.out).object();
    return r;
}

void TestSentinelTls::verifyNoSecret(const LockctlRun& run)
{
    QVERIFY2(!run.out.contains(secret.toUtf8()) && !run.err.contains(secret.toUtf8()),
             qPrintable(run.describe()));
}

void TestSentinelTls::verifyGroupDown(const ListRun& r, const QStringList& parts)
{
    verifyNoSecret(r.run);
    QVERIFY2(r.run.code == 3, qPrintable(r.run.describe()));
    QVERIFY2(r.run.ms < 30000, qPrintable(r.run.describe()));
    const QJsonObject group = r.json.value(QStringLiteral("masters")).toArray().at(0).toObject();
    QCOMPARE(group.value(QStringLiteral("up")).toBool(), false);
    const QString error = group.value(QStringLiteral("error")).toString();
    for (const QString& part : parts)
        QVERIFY2(error.contains(part), qPrintable(r.run.describe()));
}

void TestSentinelTls::initTestCase()
{
    qRegisterMetaType<NodeAddress>();
    qRegisterMetaType<PrimaryChange>();
    qRegisterMetaType<FailoverReport>();
    qRegisterMetaType<RedisError>();
    QVERIFY2(TlsMaterial::instance().isValid(), qPrintable(TlsMaterial::instance().error()));
    SentinelGroupOptions options;
    options.dataOptions.tls = true;
    options.dataOptions.requireClientCert = true;
    options.dataOptions.password = secret;
    QVERIFY2(m_group.start(options), qPrintable(m_group.errorString()));
    QCOMPARE(m_group.primaryIndex(), 0);
    QVERIFY(m_group.url().startsWith(QStringLiteral("rediss-sentinel://")));
    // TLS only: nothing answers in plain text on any port of the group.
    QVERIFY(m_group.dataNode(0).command({"PING"}).string == "PONG");
    QVERIFY(blockingCommand(m_group.dataNode(0).port(), {"PING"}, secret).isError());
    QVERIFY(blockingCommand(m_group.sentinel(0).port(), {"PING"}).isError());
}

void TestSentinelTls::cleanup()
{
    // A test that failed half-way must not leave its locks to the next one.
    const int primary = m_group.primaryIndex();
    if (primary >= 0)
        m_group.dataNode(primary).command({"FLUSHALL"});
}

void TestSentinelTls::lockctlListSeesTheLockThroughTlsSentinels()
{
    const int primaryIndex = m_group.primaryIndex();
    QVERIFY(primaryIndex >= 0);
    RedisServer& primary = m_group.dataNode(primaryIndex);
    QCOMPARE(primary.command({"SET", "lock:tls-list", "token-tls", "PX", "600000"}).string, QByteArray("OK"));

    const ListRun r = list(m_group.url(), TlsMaterial::instance().caFile());
    QVERIFY2(r.run.code == 0, qPrintable(r.run.describe()));
    verifyNoSecret(r.run);
    const QJsonArray masters = r.json.value(QStringLiteral("masters")).toArray();
    QCOMPARE(masters.size(), 1);
    const QJsonObject group = masters.at(0).toObject();
    verifySentinelListing(group, m_group.url(false), primary.port());
    if (QTest::currentTestFailed())
        return;
    const QJsonArray locks = r.json.value(QStringLiteral("locks")).toArray();
    QCOMPARE(locks.size(), 1);
    const QJsonObject lock = locks.at(0).toObject();
    QCOMPARE(lock.value(QStringLiteral("resource")).toString(), QStringLiteral("lock:tls-list"));
    QVERIFY2(lock.value(QStringLiteral("token")).toString() == QStringLiteral("token-tls"),
             qPrintable(r.run.describe()));
    QCOMPARE(lock.value(QStringLiteral("status")).toString(), QStringLiteral("held"));
}

void TestSentinelTls::plainSchemeAgainstTlsGroupFailsClearly()
{
    QString plain = m_group.url();
    plain.replace(QStringLiteral("rediss-sentinel://"), QStringLiteral("redis-sentinel://"));
    const ListRun r = list(plain, TlsMaterial::instance().caFile());
    // Not enough masters reachable, said in bounded time: the sentinels hang up on plain text.
    verifyGroupDown(r, {QStringLiteral("no sentinel reachable")});
    const QJsonObject group = r.json.value(QStringLiteral("masters")).toArray().at(0).toObject();
    QCOMPARE(group.value(QStringLiteral("primary")), QJsonValue());
}

void TestSentinelTls::wrongCaFailsWithATlsError()
{
    const ListRun r = list(m_group.url(), TlsMaterial::instance().otherCaFile());
    verifyGroupDown(r, {QStringLiteral("no sentinel reachable"), QStringLiteral("TLS verification failed")});
}

void TestSentinelTls::withoutClientCertificateNothingIsReached()
{
    // The group requires client certificates: the sentinels must have been given lockctl's.
    const ListRun r = list(m_group.url(), TlsMaterial::instance().caFile(), false);
    verifyGroupDown(r, {QStringLiteral("no sentinel reachable"), QStringLiteral("certificate required")});
}

void TestSentinelTls::wrongPasswordIsRefusedWithoutShowingIt()
{
    // The sentinels answer (they have no password); the primary they name refuses the credentials.
    const QString wrong = QStringLiteral("Not-The-Secret-93");
    QString url = m_group.url();
    url.replace(secret, wrong);
    const ListRun r = list(url, TlsMaterial::instance().caFile());
    QVERIFY2(!r.run.out.contains(wrong.toUtf8()) && !r.run.err.contains(wrong.toUtf8()),
             qPrintable(r.run.describe()));
    verifyGroupDown(r, {QStringLiteral("authentication failed")});
}

void TestSentinelTls::coreFollowsAFailoverOverTls()
{
    const int before = m_group.primaryIndex();
    QVERIFY(before >= 0);
    const int after = 1 - before;
    RedisServer& oldPrimary = m_group.dataNode(before);
    RedisServer& newPrimary = m_group.dataNode(after);

    TlsOptions tls;
    tls.caFile = TlsMaterial::instance().caFile();
    tls.certFile = TlsMaterial::instance().clientCertFile();
    tls.keyFile = TlsMaterial::instance().clientKeyFile();
    Result<ConnectionOptions> entry = ConfigLoader::masterFromUrl(m_group.url(), tls, 2000);
    QVERIFY2(entry.ok(), entry ? "" : qPrintable(entry.error().message));
    MasterSet masters({*entry});
    QVERIFY(masters.isSentinel(0));
    LockMonitor monitor(&masters, pollingConfig(500, 2000));
    QSignalSpy changed(&masters, &MasterSet::primaryChanged);
    QSignalSpy reported(&monitor, &LockMonitor::failoverReported);
    masters.open();
    monitor.start();
    QTRY_VERIFY_WITH_TIMEOUT(masters.at(0)->isUp(), 30000);
    QCOMPARE(masters.primaryAddress(0).port, oldPrimary.port());
    QVERIFY(masters.at(0)->options().url.isTls());

    // Replicated before the failover, so it must be on the new primary.
    QCOMPARE(oldPrimary.command({"SET", "lock:tls-failover", "token-kept", "PX", "600000"}).string,
             QByteArray("OK"));
    QCOMPARE(oldPrimary.command({"WAIT", "1", "5000"}).integer, 1);
    QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().value("lock:tls-failover")->holding == 1, 30000);

    const QByteArray name = m_group.options().masterName.toUtf8();
    QCOMPARE(m_group.sentinel(0).command({"SENTINEL", "FAILOVER", name}).string, QByteArray("OK"));
    QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 60000);
    QCOMPARE(changed.at(0).at(0).toInt(), 0);
    const auto change = changed.at(0).at(1).value<PrimaryChange>();
    QCOMPARE(change.oldPrimary.port, oldPrimary.port());
    QCOMPARE(change.newPrimary.port, newPrimary.port());

    // The entry's connection is Up again, over TLS, on the promoted node.
    QTRY_VERIFY_WITH_TIMEOUT(
        masters.at(0)->isUp() && masters.at(0)->options().url.port() == newPrimary.port(), 30000);
    QVERIFY(masters.at(0)->options().url.isTls());
    QCOMPARE(masters.primaryAddress(0).port, newPrimary.port());

    // The pass on the new primary found the replicated lock: nothing lost, nothing changed.
    FailoverReport report;
    expectFailoverReport(reported, change, "lock:tls-failover", &report);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(report.changedToken.isEmpty());
    // The view follows within the coalescing window (the lock changed state several times in a moment).
    QTRY_COMPARE_WITH_TIMEOUT(monitor.locks().value("lock:tls-failover")->token, QByteArray("token-kept"),
                              5000);
    QCOMPARE(monitor.locks().value("lock:tls-failover")->holding, 1);

    // What is written on the new primary from now on is read from there.
    QVERIFY(m_group.waitForPrimary(after));
    QCOMPARE(newPrimary.command({"SET", "lock:tls-after", "token-after", "PX", "600000"}).string,
             QByteArray("OK"));
    QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().value("lock:tls-after")->token == "token-after", 30000);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestSentinelTls)

} // namespace tst_sentineltls

#include "tst_sentineltls.moc"
