// SPDX-License-Identifier: Apache-2.0
#include "config/configloader.h"
#include "discovery/notificationmode.h"
#include "support/testregistry.h"

#include <QTemporaryFile>
#include <QTest>

namespace tst_configloader {

using namespace lockscope;

class TestConfigLoader : public QObject
{
    Q_OBJECT

private slots:
    void fullConfiguration();
    void syntaxErrorNamesTheLine();
    void wrongTypesNameTheField_data();
    void wrongTypesNameTheField();
    void unknownFieldsWarn();
    void passwordFromEnvironment();
    void sentinelMasters();
    void missingFile();
    void notificationFlags_data();
    void notificationFlags();
    void replyLimits();
};

void TestConfigLoader::fullConfiguration()
{
    const QByteArray json = R"({
  "masters": ["redis://h1:7001", {"url": "rediss://h2:7002/3", "tls": {"ca": "/ca.pem", "insecure": true},
                                  "timeoutMs": 300, "user": "ops"}],
  "patterns": ["lock:*", "mutex:*"],
  "scanCount": 500, "scanRate": "max", "pollIntervalMs": 1500, "reconcileIntervalMs": 60000, "timeoutMs": 900,
  "ownerRules": [{"keys": "lock:*", "pattern": "^(?<owner>[a-z]+)-"}],
  "readOnly": true, "auditLog": "/tmp/audit.jsonl",
  "redlock": {"driftFactor": 0.02, "driftMs": 5, "retryCount": 7, "retryDelayMs": 50, "retryJitterMs": 10,
              "masterTimeoutMs": 20}
})";
    QStringList warnings;
    const Result<LockScopeConfig> c = ConfigLoader::fromJson(json, &warnings);
    QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
    QVERIFY(warnings.isEmpty());
    QCOMPARE(c->masters.size(), 2);
    QCOMPARE(c->masters[0].url.port(), quint16(7001));
    QCOMPARE(c->masters[0].commandTimeoutMs, 900);
    QCOMPARE(c->masters[1].url.db(), 3);
    QCOMPARE(c->masters[1].url.user(), QStringLiteral("ops"));
    QCOMPARE(c->masters[1].tls.caFile, QStringLiteral("/ca.pem"));
    QVERIFY(c->masters[1].tls.insecure);
    QCOMPARE(c->masters[1].commandTimeoutMs, 300);
    QCOMPARE(c->monitor.patterns, (QList<ScanPattern>{"lock:*", "mutex:*"}));
    QCOMPARE(c->monitor.scanCount, 500);
    QCOMPARE(c->monitor.scanRate, ScanRate::max());
    QCOMPARE(c->monitor.pollIntervalMs, 1500);
    QCOMPARE(c->monitor.reconcileIntervalMs, 60000);
    QVERIFY(c->readOnly);
    QCOMPARE(c->auditLogPath, QStringLiteral("/tmp/audit.jsonl"));
    QCOMPARE(c->redlock.retryCount, 7);
    QCOMPARE(c->redlock.masterTimeoutMs, 20);
    QCOMPARE(c->driftMs(1000), qint64(25));
    QCOMPARE(c->ownerRules.size(), 1);
    QCOMPARE(c->ownerRules[0].ownerOf("lock:a", "alice-123"), QStringLiteral("alice"));
    QCOMPARE(c->ownerRules[0].ownerOf("other:a", "alice-123"), QString());
}

void TestConfigLoader::syntaxErrorNamesTheLine()
{
    const QByteArray json = "{\n  \"masters\": [\"redis://h\"],\n  \"patterns\": [\"a\" \"b\"]\n}";
    const Result<LockScopeConfig> c = ConfigLoader::fromJson(json, nullptr, QStringLiteral("lockscope.json"));
    QVERIFY(!c.ok());
    QCOMPARE(c.error().kind, ErrorKind::InvalidConfig);
    QVERIFY2(c.error().message.startsWith(QStringLiteral("lockscope.json:line 3:")),
             qPrintable(c.error().message));
}

void TestConfigLoader::wrongTypesNameTheField_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("field");
    QTest::newRow("not an object") << QByteArray("[1]") << "must be a JSON object";
    QTest::newRow("masters not array") << QByteArray(R"({"masters": "redis://h"})") << "\"masters\"";
    QTest::newRow("bad url") << QByteArray(R"({"masters": ["redis://h:0"]})")
                             << "\"masters[0]\": invalid URL: bad port";
    QTest::newRow("master number") << QByteArray(R"({"masters": [7]})") << "\"masters[0]\"";
    QTest::newRow("timeout string") << QByteArray(R"({"timeoutMs": "2s"})") << "\"timeoutMs\"";
    QTest::newRow("timeout negative") << QByteArray(R"({"timeoutMs": -1})") << "\"timeoutMs\"";
    QTest::newRow("timeout fraction") << QByteArray(R"({"timeoutMs": 1.5})") << "\"timeoutMs\"";
    QTest::newRow("scanCount huge") << QByteArray(R"({"scanCount": 1e12})") << "\"scanCount\"";
    QTest::newRow("scanRate word") << QByteArray(R"({"scanRate": "fast"})") << "\"scanRate\"";
    QTest::newRow("scanRate zero") << QByteArray(R"({"scanRate": 0})") << "\"scanRate\"";
    QTest::newRow("scanRate fraction") << QByteArray(R"({"scanRate": 1.5})") << "\"scanRate\"";
    QTest::newRow("scanRate bool") << QByteArray(R"({"scanRate": true})") << "\"scanRate\"";
    QTest::newRow("pattern empty") << QByteArray(R"({"patterns": [""]})") << "\"patterns[0]\"";
    QTest::newRow("patterns none") << QByteArray(R"({"patterns": []})") << "\"patterns\"";
    QTest::newRow("readOnly string") << QByteArray(R"({"readOnly": "yes"})") << "\"readOnly\"";
    QTest::newRow("tls ca number") << QByteArray(R"({"tls": {"ca": 1}})") << "\"tls.ca\"";
    QTest::newRow("bad regex") << QByteArray(R"({"ownerRules": [{"pattern": "("}]})")
                               << "\"ownerRules[0].pattern\"";
    QTest::newRow("drift too big") << QByteArray(R"({"redlock": {"driftFactor": 2}})")
                                   << "\"redlock.driftFactor\"";
}

void TestConfigLoader::wrongTypesNameTheField()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, field);
    const Result<LockScopeConfig> c = ConfigLoader::fromJson(json);
    QVERIFY(!c.ok());
    QVERIFY2(c.error().message.contains(field), qPrintable(c.error().message));
}

void TestConfigLoader::unknownFieldsWarn()
{
    QStringList warnings;
    const Result<LockScopeConfig> c = ConfigLoader::fromJson(
        R"({"mastres": [], "tls": {"cafile": "x"}, "masters": [{"url": "redis://h", "pw": 1}]})", &warnings);
    QVERIFY(c.ok());
    QCOMPARE(warnings.size(), 3);
    QVERIFY(warnings.join(QLatin1Char('\n')).contains(QStringLiteral("\"mastres\"")));
    QVERIFY(warnings.join(QLatin1Char('\n')).contains(QStringLiteral("\"tls.cafile\"")));
    QVERIFY(warnings.join(QLatin1Char('\n')).contains(QStringLiteral("\"masters[0].pw\"")));
}

void TestConfigLoader::passwordFromEnvironment()
{
    qputenv("LOCKSCOPE_TEST_PW", "from-env");
    const Result<LockScopeConfig> c =
        ConfigLoader::fromJson(R"({"masters": [{"url": "redis://h", "passwordEnv": "LOCKSCOPE_TEST_PW"}]})");
    QVERIFY(c.ok());
    QCOMPARE(c->masters[0].url.password(), QStringLiteral("from-env"));
    QVERIFY(!c->masters[0].url.toString().contains(QStringLiteral("from-env")));
    const Result<LockScopeConfig> missing = ConfigLoader::fromJson(
        R"({"masters": [{"url": "redis://h", "passwordEnv": "LOCKSCOPE_NOT_SET_ANYWHERE"}]})");
    QVERIFY(!missing.ok());
    QVERIFY(missing.error().message.contains(QStringLiteral("LOCKSCOPE_NOT_SET_ANYWHERE")));
}

void TestConfigLoader::sentinelMasters()
{
    // A Sentinel group is one master entry; its TLS, timeout, user and password apply to its nodes.
    qputenv("LOCKSCOPE_TEST_SENTINEL_PW", "group-secret");
    const Result<LockScopeConfig> c = ConfigLoader::fromJson(R"({
  "tls": {"ca": "/global-ca.pem"},
  "masters": ["redis://h1:7001",
              {"url": "rediss-sentinel://s1:26379,s2/orders?db=2", "user": "ops",
               "passwordEnv": "LOCKSCOPE_TEST_SENTINEL_PW", "timeoutMs": 700, "tls": {"ca": "/ca.pem"}},
              "redis-sentinel://s3:26380/cache"]})");
    QVERIFY2(c.ok(), c.ok() ? "" : qPrintable(c.error().message));
    QCOMPARE(c->masters.size(), 3);
    QVERIFY(!c->masters[0].topology);
    const ConnectionOptions& group = c->masters[1];
    QVERIFY(group.topology && group.topology->isSentinel());
    QVERIFY(group.topology->isTls());
    QCOMPARE(group.topology->masterName(), QStringLiteral("orders"));
    QCOMPARE(group.topology->seeds().size(), 2);
    QCOMPARE(group.topology->seeds().at(1).port, quint16(26379));
    QCOMPARE(group.topology->db(), 2);
    QCOMPARE(group.topology->user(), QStringLiteral("ops"));
    QCOMPARE(group.topology->password(), QStringLiteral("group-secret"));
    QCOMPARE(group.tls.caFile, QStringLiteral("/ca.pem"));
    QCOMPARE(group.commandTimeoutMs, 700);
    // Named by the group, never with its password; the primary's URL comes from the sentinels later.
    QVERIFY(!group.topology->toString().contains(QStringLiteral("group-secret")));
    QCOMPARE(group.topology->nodeUrl({QStringLiteral("10.0.0.9"), 6390}).password(),
             QStringLiteral("group-secret"));
    QCOMPARE(group.topology->nodeUrl({QStringLiteral("10.0.0.9"), 6390}).db(), 2);
    QCOMPARE(c->masters[2].tls.caFile, QStringLiteral("/global-ca.pem"));
    QCOMPARE(c->masters[2].topology->masterName(), QStringLiteral("cache"));

    // A cluster is one entry: no node URL of its own (it routes to many), the seeds in its topology.
    const Result<LockScopeConfig> cluster = ConfigLoader::fromJson(
        R"({"masters": ["redis-cluster://ops:hunter2@n1:7000,n2:7001", "redis://a:1", "redis://b:2"]})");
    QVERIFY2(cluster.ok(), qPrintable(cluster.ok() ? QString() : cluster.error().message));
    QCOMPARE(cluster->masters.size(), 3);
    QVERIFY(cluster->masters[0].topology && cluster->masters[0].topology->isCluster());
    QVERIFY(cluster->masters[0].url.host().isEmpty());
    QCOMPARE(cluster->masters[0].topology->seeds().size(), 2);
    QVERIFY(!cluster->masters[0].topology->toString().contains(QStringLiteral("hunter2")));
    const Result<LockScopeConfig> clusterDb =
        ConfigLoader::fromJson(R"({"masters": ["redis-cluster://ops:hunter2@n1:7000/3"]})");
    QVERIFY(!clusterDb.ok());
    QVERIFY2(clusterDb.error().message.contains(QStringLiteral("masters[0]")),
             qPrintable(clusterDb.error().message));
    QVERIFY(!clusterDb.error().message.contains(QStringLiteral("hunter2")));
    const Result<LockScopeConfig> bad =
        ConfigLoader::fromJson(R"({"masters": ["redis-sentinel://ops:hunter2@s1:26379,/x"]})");
    QVERIFY(!bad.ok());
    QVERIFY(!bad.error().message.contains(QStringLiteral("hunter2")));
}

void TestConfigLoader::missingFile()
{
    const Result<LockScopeConfig> c = ConfigLoader::fromFile(QStringLiteral("/nonexistent/lockscope.json"));
    QVERIFY(!c.ok());
    QVERIFY(c.error().message.contains(QStringLiteral("/nonexistent/lockscope.json")));
}

void TestConfigLoader::notificationFlags_data()
{
    QTest::addColumn<QByteArray>("flags");
    QTest::addColumn<bool>("suffices");
    QTest::addColumn<QByteArray>("enabled");
    QTest::newRow("off") << QByteArray("") << false << QByteArray("Kg$hzx");
    QTest::newRow("KA") << QByteArray("KA") << true << QByteArray("KA");
    QTest::newRow("AKE") << QByteArray("AKE") << true << QByteArray("AKE");
    QTest::newRow("Ex only") << QByteArray("Ex") << false << QByteArray("ExKg$hz");
    QTest::newRow("all spelled out") << QByteArray("Kg$hzx") << true << QByteArray("Kg$hzx");
    QTest::newRow("missing zset") << QByteArray("Kg$hx") << false << QByteArray("Kg$hxz");
}

void TestConfigLoader::notificationFlags()
{
    QFETCH(QByteArray, flags);
    QFETCH(bool, suffices);
    QFETCH(QByteArray, enabled);
    QCOMPARE(notificationFlagsSuffice(flags), suffices);
    QCOMPARE(notificationFlagsWithNeeded(flags), enabled);
    QVERIFY(notificationFlagsSuffice(notificationFlagsWithNeeded(flags)));
}

void TestConfigLoader::replyLimits()
{
    // Defaults when absent; set, they reach every master (also those named after the limits).
    const Result<LockScopeConfig> plain = ConfigLoader::fromJson(R"({"masters": ["redis://h1"]})");
    QVERIFY(plain.ok());
    QVERIFY(plain->masters[0].replyLimits == ReplyLimits());
    QCOMPARE(plain->masters[0].replyLimits.maxBulkBytes, 512LL * 1024 * 1024);
    QStringList warnings;
    const Result<LockScopeConfig> c = ConfigLoader::fromJson(
        R"({"masters": ["redis://h1", {"url": "redis://h2"}],
            "replyLimits": {"maxBulkBytes": 2048, "maxElements": 100, "maxDepth": 3, "maxReplyBytes": 4096}})",
        &warnings);
    QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
    QVERIFY(warnings.isEmpty());
    for (const ConnectionOptions& m : c->masters) {
        QCOMPARE(m.replyLimits.maxBulkBytes, qint64(2048));
        QCOMPARE(m.replyLimits.maxElements, qint64(100));
        QCOMPARE(m.replyLimits.maxDepth, 3);
        QCOMPARE(m.replyLimits.maxReplyBytes, qint64(4096));
    }
    // hiredis cannot parse deeper than 8 levels: a higher limit would be a promise not kept.
    const Result<LockScopeConfig> deep = ConfigLoader::fromJson(R"({"replyLimits": {"maxDepth": 9}})");
    QVERIFY(!deep.ok());
    QVERIFY2(deep.error().message.contains(QStringLiteral("replyLimits.maxDepth")),
             qPrintable(deep.error().message));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestConfigLoader)

} // namespace tst_configloader

#include "tst_configloader.moc"
