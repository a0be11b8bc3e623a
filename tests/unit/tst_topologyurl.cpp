// SPDX-License-Identifier: Apache-2.0
#include "connection/topologyurl.h"
#include "support/testregistry.h"
#include "support/userinfoleak.h"

#include <QTest>

namespace tst_topologyurl {

using namespace lockscope;

class TestTopologyUrl : public QObject
{
    Q_OBJECT

private slots:
    void parsesValid_data();
    void parsesValid();
    void neverPrintsPassword_data();
    void neverPrintsPassword();
    void nodeUrlsCarryCredentials();
    void recognisesSchemes();
};

void TestTopologyUrl::parsesValid_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("sentinel");
    QTest::addColumn<bool>("tls");
    QTest::addColumn<QStringList>("seeds");
    QTest::addColumn<QString>("masterName");
    QTest::addColumn<int>("db");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("password");
    QTest::addColumn<bool>("sentinelAuth");
    QTest::addColumn<QString>("printed");

    QTest::newRow("one sentinel, default port") << "redis-sentinel://10.0.0.1/mymaster" << true << false
                                                << QStringList{"10.0.0.1:26379"} << "mymaster" << 0 << ""
                                                << "" << false << "redis-sentinel://10.0.0.1:26379/mymaster";
    QTest::newRow("three sentinels") << "redis-sentinel://a:26379,b:26380,c/orders" << true << false
                                     << QStringList{"a:26379", "b:26380", "c:26379"} << "orders" << 0 << ""
                                     << "" << false << "redis-sentinel://a:26379,b:26380,c:26379/orders";
    QTest::newRow("IPv6 seeds") << "redis-sentinel://[::1]:5000,[fe80::1]/m" << true << false
                                << QStringList{"[::1]:5000", "[fe80::1]:26379"} << "m" << 0 << ""
                                << "" << false << "redis-sentinel://[::1]:5000,[fe80::1]:26379/m";
    QTest::newRow("TLS, user, password, db, sentinel-auth")
        << "rediss-sentinel://ops:s3cret@h1:1,h2:2/main?db=3&sentinel-auth=yes" << true << true
        << QStringList{"h1:1", "h2:2"} << "main" << 3 << "ops"
        << "s3cret" << true << "rediss-sentinel://ops@h1:1,h2:2/main?db=3&sentinel-auth=yes";
    QTest::newRow("password only, raw specials")
        << "redis-sentinel://:p@ss,w/o?rd@h:7/m" << true << false << QStringList{"h:7"} << "m" << 0 << ""
        << "p@ss,w/o?rd" << false << "redis-sentinel://h:7/m";
    QTest::newRow("percent-encoded master name") << "redis-sentinel://h/my%2Fmaster" << true << false
                                                 << QStringList{"h:26379"} << "my/master" << 0 << ""
                                                 << "" << false << "redis-sentinel://h:26379/my%2Fmaster";
    QTest::newRow("case-insensitive scheme")
        << "REDIS-SENTINEL://h/m" << true << false << QStringList{"h:26379"} << "m" << 0 << ""
        << "" << false << "redis-sentinel://h:26379/m";
    QTest::newRow("cluster, default port")
        << "redis-cluster://127.0.0.1" << false << false << QStringList{"127.0.0.1:6379"} << "" << 0 << ""
        << "" << false << "redis-cluster://127.0.0.1:6379";
    QTest::newRow("cluster seeds, trailing slash")
        << "redis-cluster://n1:7000,n2:7001,[::1]:7002/" << false << false
        << QStringList{"n1:7000", "n2:7001", "[::1]:7002"} << "" << 0 << ""
        << "" << false << "redis-cluster://n1:7000,n2:7001,[::1]:7002";
    QTest::newRow("TLS cluster with ACL user") << "rediss-cluster://alice:pw%40x@n1:7000" << false << true
                                               << QStringList{"n1:7000"} << "" << 0 << "alice"
                                               << "pw@x" << false << "rediss-cluster://alice@n1:7000";
}

void TestTopologyUrl::parsesValid()
{
    QFETCH(QString, text);
    QFETCH(bool, sentinel);
    QFETCH(bool, tls);
    QFETCH(QStringList, seeds);
    QFETCH(QString, masterName);
    QFETCH(int, db);
    QFETCH(QString, user);
    QFETCH(QString, password);
    QFETCH(bool, sentinelAuth);
    QFETCH(QString, printed);

    const Result<TopologyUrl> url = TopologyUrl::parse(text);
    QVERIFY2(url.ok(), qPrintable(url.ok() ? QString() : url.error().message));
    QCOMPARE(url->isSentinel(), sentinel);
    QCOMPARE(url->isTls(), tls);
    QStringList parsedSeeds;
    for (const NodeAddress& seed : url->seeds())
        parsedSeeds << seed.toString();
    QCOMPARE(parsedSeeds, seeds);
    QCOMPARE(url->masterName(), masterName);
    QCOMPARE(url->db(), db);
    QCOMPARE(url->user(), user);
    QCOMPARE(url->password(), password);
    QCOMPARE(url->sentinelAuth(), sentinelAuth);
    QCOMPARE(url->toString(), printed);
    // What is printed parses back to the same thing, password aside.
    Result<TopologyUrl> again = TopologyUrl::parse(url->toString());
    QVERIFY(again.ok());
    again->setPassword(password);
    QCOMPARE(*again, *url);
}

void TestTopologyUrl::neverPrintsPassword_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("valid sentinel") << "redis-sentinel://u:Zq9secretZq9@h/m";
    QTest::newRow("valid cluster") << "rediss-cluster://:Zq9secretZq9@h:1,h:2";
    QTest::newRow("bad port after password") << "redis-cluster://u:Zq9secretZq9@h:x";
    QTest::newRow("bad master name after password") << "redis-sentinel://u:Zq9secretZq9@h/a/b";
    QTest::newRow("password with commas and slashes") << "redis-sentinel://u:Zq9secretZq9,a/b@h/a%20b";
    QTest::newRow("bad parameter after password") << "redis-sentinel://u:Zq9secretZq9@h/m?Zq9=1";
    QTest::newRow("bad scheme") << "redis-sentinal://u:Zq9secretZq9@h/m";
    QTest::newRow("user-info before the scheme") << "u:Zq9secretZq9@h://x";
    QTest::newRow("raw ? in password, bad seed") << "redis-cluster://u:Zq9secretZq9?x@h:1,h:x";
}

void TestTopologyUrl::neverPrintsPassword()
{
    QFETCH(QString, text);
    const Result<TopologyUrl> url = TopologyUrl::parse(text);
    const QString shown = url.ok() ? url->toString() : url.error().toString();
    QVERIFY2(!shown.contains(QLatin1String("secret"), Qt::CaseInsensitive), qPrintable(shown));
    const QString leak = test::userInfoLeak(text, [](const QString& t) { return TopologyUrl::parse(t); });
    QVERIFY2(leak.isEmpty(), qPrintable(leak));
    if (url.ok()) {
        QCOMPARE(url->password(), QStringLiteral("Zq9secretZq9"));
        for (int i = 0; i < url->seeds().size(); ++i)
            QVERIFY(!url->seedUrl(i).toString().contains(QLatin1String("secret")));
    }
}

void TestTopologyUrl::nodeUrlsCarryCredentials()
{
    const Result<TopologyUrl> sentinel =
        TopologyUrl::parse(QStringLiteral("rediss-sentinel://ops:pw@s1,s2:5/m?db=2"));
    QVERIFY(sentinel.ok());
    // Sentinels get no credentials unless sentinel-auth=yes; data nodes get them and the db.
    QCOMPARE(sentinel->seedUrl(1).host(), QStringLiteral("s2"));
    QCOMPARE(sentinel->seedUrl(1).port(), quint16(5));
    QVERIFY(sentinel->seedUrl(1).isTls());
    QVERIFY(sentinel->seedUrl(0).password().isEmpty());
    QCOMPARE(sentinel->seedUrl(0).db(), 0);
    const RedisUrl primary = sentinel->nodeUrl({QStringLiteral("::1"), 6400});
    QCOMPARE(primary.host(), QStringLiteral("::1"));
    QCOMPARE(primary.port(), quint16(6400));
    QCOMPARE(primary.user(), QStringLiteral("ops"));
    QCOMPARE(primary.password(), QStringLiteral("pw"));
    QCOMPARE(primary.db(), 2);
    QVERIFY(primary.isTls());

    const Result<TopologyUrl> withAuth =
        TopologyUrl::parse(QStringLiteral("redis-sentinel://:p%2Cw@s1/m?sentinel-auth=yes"));
    QVERIFY(withAuth.ok());
    QCOMPARE(withAuth->seedUrl(0).password(), QStringLiteral("p,w"));

    const Result<TopologyUrl> cluster = TopologyUrl::parse(QStringLiteral("redis-cluster://:pw@n1:7000"));
    QVERIFY(cluster.ok());
    QCOMPARE(cluster->seedUrl(0).password(), QStringLiteral("pw"));
    QVERIFY(!cluster->seedUrl(0).isTls());
    QCOMPARE(cluster->nodeUrl({QStringLiteral("10.0.0.9"), 7005}).toString(),
             QStringLiteral("redis://10.0.0.9:7005"));
}

void TestTopologyUrl::recognisesSchemes()
{
    QVERIFY(TopologyUrl::hasTopologyScheme(QStringLiteral(" redis-sentinel://h/m")));
    QVERIFY(TopologyUrl::hasTopologyScheme(QStringLiteral("rediss-cluster://h")));
    QVERIFY(!TopologyUrl::hasTopologyScheme(QStringLiteral("redis://h")));
    QVERIFY(!TopologyUrl::hasTopologyScheme(QStringLiteral("unix:///tmp/s")));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestTopologyUrl)

} // namespace tst_topologyurl

#include "tst_topologyurl.moc"
