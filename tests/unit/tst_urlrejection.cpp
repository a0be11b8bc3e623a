// SPDX-License-Identifier: Apache-2.0
// What every URL parser owes whoever typed a bad URL: RedisUrl's and TopologyUrl's refuse it as an
// invalid URL whose message names the part that is wrong. Host and port as such: tst_hostport. Here:
// what a one-host URL (redis) and a list of hosts (topology) add, and their wording.
#include "connection/redisurl.h"
#include "connection/topologyurl.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_urlrejection {

using namespace lockscope;

namespace {

// That `Url::parse(text)` refuses `text` as an invalid URL whose message mentions `mentions`.
template <typename Url> void verifyRejected(const QString& text, const QString& mentions)
{
    const auto url = Url::parse(text);
    QVERIFY(!url.ok());
    QCOMPARE(url.error().kind, ErrorKind::InvalidUrl);
    QVERIFY2(url.error().message.contains(mentions), qPrintable(url.error().message));
}

} // namespace

class TestUrlRejection : public QObject
{
    Q_OBJECT

private slots:
    void rejectsInvalid_data();
    void rejectsInvalid();
};

void TestUrlRejection::rejectsInvalid_data()
{
    QTest::addColumn<QString>("parser"); // "redis" (RedisUrl) or "topology" (TopologyUrl)
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("redis: empty") << QStringLiteral("redis") << ""
                                  << "missing scheme";
    QTest::newRow("redis: no scheme") << QStringLiteral("redis") << "localhost:6379"
                                      << "missing scheme";
    QTest::newRow("redis: http") << QStringLiteral("redis") << "http://h"
                                 << "unsupported scheme 'http'";
    QTest::newRow("redis: no host") << QStringLiteral("redis") << "redis://:6379"
                                    << "missing host";
    QTest::newRow("redis: port text") << QStringLiteral("redis") << "redis://h:abc"
                                      << "bad port 'abc'";
    QTest::newRow("redis: empty port") << QStringLiteral("redis") << "redis://h:"
                                       << "empty port";
    QTest::newRow("redis: db text") << QStringLiteral("redis") << "redis://h/x"
                                    << "bad database number";
    QTest::newRow("redis: db negative") << QStringLiteral("redis") << "redis://h/-2"
                                        << "bad database number";
    QTest::newRow("redis: host with space") << QStringLiteral("redis") << "redis://bad host"
                                            << "bad host name";
    QTest::newRow("redis: unix relative") << QStringLiteral("redis") << "unix://tmp/x.sock"
                                          << "absolute path";
    QTest::newRow("redis: unknown query") << QStringLiteral("redis") << "redis://h?foo=1"
                                          << "unknown parameter 'foo'";
    QTest::newRow("redis: unix bad db") << QStringLiteral("redis") << "unix:///x?db=q"
                                        << "bad database number";

    QTest::newRow("topology: no scheme") << QStringLiteral("topology") << "h:26379/m"
                                         << "missing scheme";
    QTest::newRow("topology: plain redis scheme") << QStringLiteral("topology") << "redis://h/m"
                                                  << "unsupported scheme 'redis'";
    QTest::newRow("topology: no host") << QStringLiteral("topology") << "redis-sentinel:///m"
                                       << "missing host";
    QTest::newRow("topology: no master name") << QStringLiteral("topology") << "redis-sentinel://h:26379"
                                              << "missing master name";
    QTest::newRow("topology: empty master name") << QStringLiteral("topology") << "redis-sentinel://h:26379/"
                                                 << "missing master name";
    QTest::newRow("topology: slash in master name") << QStringLiteral("topology") << "redis-sentinel://h/a/b"
                                                    << "unexpected '/' in master name";
    QTest::newRow("topology: space in master name")
        << QStringLiteral("topology") << "redis-sentinel://h/a%20b"
        << "space or control character";
    QTest::newRow("topology: empty seed") << QStringLiteral("topology") << "redis-sentinel://a,,b/m"
                                          << "empty entry in the host list";
    QTest::newRow("topology: trailing comma") << QStringLiteral("topology") << "redis-cluster://a:1,"
                                              << "empty entry in the host list";
    QTest::newRow("topology: bad port") << QStringLiteral("topology") << "redis-cluster://a:99999"
                                        << "bad port '99999'";
    QTest::newRow("topology: empty port") << QStringLiteral("topology") << "redis-cluster://a:"
                                          << "bad port ''";
    QTest::newRow("topology: unbracketed IPv6") << QStringLiteral("topology") << "redis-cluster://::1:7000"
                                                << "missing host";
    QTest::newRow("topology: bad host") << QStringLiteral("topology") << "redis-cluster://a b:7000"
                                        << "bad host name 'a b'";
    QTest::newRow("topology: duplicate seed") << QStringLiteral("topology") << "redis-cluster://a:1,a:1"
                                              << "'a:1' is listed twice";
    QTest::newRow("topology: cluster with db") << QStringLiteral("topology") << "redis-cluster://a:1/2"
                                               << "only database 0";
    QTest::newRow("topology: cluster with db parameter")
        << QStringLiteral("topology") << "redis-cluster://a:1?db=2"
        << "unknown parameter 'db'";
    QTest::newRow("topology: bad db") << QStringLiteral("topology") << "redis-sentinel://a/m?db=x"
                                      << "bad database number 'x'";
    QTest::newRow("topology: bad sentinel-auth")
        << QStringLiteral("topology") << "redis-sentinel://a/m?sentinel-auth=maybe"
        << "yes or no";
    QTest::newRow("topology: unknown parameter")
        << QStringLiteral("topology") << "redis-sentinel://a/m?timeout=1"
        << "unknown parameter 'timeout'";
}

void TestUrlRejection::rejectsInvalid()
{
    QFETCH(QString, parser);
    QFETCH(QString, text);
    QFETCH(QString, mentions);
    if (parser == QLatin1String("redis"))
        verifyRejected<RedisUrl>(text, mentions);
    else
        verifyRejected<TopologyUrl>(text, mentions);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestUrlRejection)

} // namespace tst_urlrejection

#include "tst_urlrejection.moc"
