// SPDX-License-Identifier: Apache-2.0
// `lockctl serve` (#16): the HTTP endpoints on five real masters, the live page as promtool reads
// it, a master that goes away (the service stays, the metric says so), the counters, SIGTERM, and
// the listener's TLS and basic authentication from a Prometheus-shaped web config.
#include "metrics/webconfig.h"
#include "support/httpget.h"
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/promtool.h"
#include "support/recordedmasters.h"
#include "support/rediscliprocess.h"
#include "support/redisservergroup.h"
#include "support/serveprocess.h"
#include "support/serverflavour.h"
#include "support/testregistry.h"
#include "support/timebound.h"
#include "support/tlsmaterial.h"

#include <QFile>
#include <QScopeGuard>
#include <QSslCertificate>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

namespace tst_lockctlserve {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// `lockctl serve --record` on MASTERS, started and ready.
bool startRecordingServe(ServeProcess& serve, const RecordedMasters& masters)
{
    return serve.start(masters.group.lockctlArgs() << QStringLiteral("serve") << QStringLiteral("--record")
                                                   << QStringLiteral("--db") << masters.db) &&
           QTest::qWaitFor([&serve] { return httpGet(serve.url(QStringLiteral("/-/ready"))).status == 200; },
                           20000);
}

// The value of the sample `series` (name and labels exactly as printed); NaN when absent.
double sampleValue(const QByteArray& page, const QByteArray& series)
{
    for (const QByteArray& line : page.split('\n'))
        if (line.startsWith(QByteArray(series + ' ')))
            return line.mid(series.size() + 1).toDouble();
    return std::numeric_limits<double>::quiet_NaN();
}

QByteArray masterUp(RedisServerGroup& group, int i)
{
    return "lockscope_master_up{master=\"" + group.urls(false).at(i).toUtf8() + "\"}";
}

} // namespace

class TestLockctlServe : public QObject
{
    Q_OBJECT

private slots:
    void servesFiveMastersAndRidesOutAnOutage();
    void exportsRedissonWaiters();
    void webConfigTurnsOnTlsAndBasicAuth();
    void recordsWhileServing();
    void countsTwoHoldersAtOnceFromItsRecording();
    void sigtermWhileMastersOpenStopsIt();
    void refusesBadOptions_data();
    void refusesBadOptions();
};

void TestLockctlServe::servesFiveMastersAndRidesOutAnOutage()
{
    RedisServerGroup group;
    QVERIFY2(group.start(5), qPrintable(group.errorString()));
    const QByteArray binary("lock:\xff\n\"bin", 11);
    for (int i = 0; i < 5; ++i) {
        QVERIFY(group.at(i)
                    .command({"SET", "lock:held", "0123456789abcdef0123456789abcdef", "PX", "600000"})
                    .isStatus());
        QVERIFY(group.at(i)
                    .command({"SET", binary, "fedcba9876543210fedcba9876543210", "PX", "600000"})
                    .isStatus());
        if (i < 3)
            QVERIFY(
                group.at(i).command({"SET", "lock:stuck", "00112233445566778899aabbccddeeff"}).isStatus());
    }
    QVERIFY(group.at(0)
                .command({"SET", "lock:partial", "ffeeddccbbaa99887766554433221100", "PX", "600000"})
                .isStatus());

    ServeProcess serve;
    QVERIFY2(serve.start(group.lockctlArgs() << QStringLiteral("serve") << QStringLiteral("--max-lock-series")
                                             << QStringLiteral("2")),
             qPrintable(serve.errorString()));
    QCOMPARE(serve.url().host(), QStringLiteral("127.0.0.1"));
    QTRY_COMPARE_WITH_TIMEOUT(httpGet(serve.url(QStringLiteral("/-/ready"))).status, 200, 20000);
    QCOMPARE(httpGet(serve.url(QStringLiteral("/-/healthy"))).status, 200);
    QCOMPARE(httpGet(serve.url(QStringLiteral("/no-such-page"))).status, 404);

    const HttpReply landing = httpGet(serve.url(QStringLiteral("/")));
    QCOMPARE(landing.status, 200);
    QVERIFY(landing.contentType.startsWith("text/html"));
    for (const char* link : {"href=\"/metrics\"", "href=\"/-/healthy\"", "href=\"/-/ready\""})
        QVERIFY2(landing.body.contains(link), landing.body.constData());
    for (const QString& url : group.urls(false))
        QVERIFY2(landing.body.contains(url.toUtf8()), landing.body.constData());
    QVERIFY(!landing.body.contains(testPassword().toUtf8()));

    HttpReply metrics = httpGet(serve.url());
    QCOMPARE(metrics.status, 200);
    QCOMPARE(metrics.contentType, QByteArray("text/plain; version=0.0.4; charset=utf-8"));
    const QByteArray& page = metrics.body;
    QVERIFY(!page.contains(testPassword().toUtf8()));
    // Computed for this scrape (the monitor's thread was free to answer).
    QCOMPARE(sampleValue(page, "lockscope_metrics_age_seconds"), 0.0);
    QCOMPARE(sampleValue(page, "lockscope_locks{status=\"held\"}"), 2.0);
    QCOMPARE(sampleValue(page, "lockscope_locks{status=\"stuck\"}"), 1.0);
    QCOMPARE(sampleValue(page, "lockscope_locks{status=\"partial\"}"), 1.0);
    for (int i = 0; i < 5; ++i)
        QCOMPARE(sampleValue(page, masterUp(group, i)), 1.0);
    // Two of four locks have series, the worst first: the stuck and the partial one.
    QCOMPARE(sampleValue(page, "lockscope_lock_series_dropped"), 2.0);
    QCOMPARE(sampleValue(page, "lockscope_lock_quorum_holding{resource=\"lock:stuck\",format=\"hex-token\","
                               "status=\"stuck\"}"),
             3.0);
    QCOMPARE(sampleValue(page, "lockscope_lock_no_expiry{resource=\"lock:stuck\",format=\"hex-token\","
                               "status=\"stuck\"}"),
             1.0);
    if (!promtoolPath().isEmpty()) {
        const PromtoolRun lint = runPromtool({QStringLiteral("check"), QStringLiteral("metrics")}, page);
        QVERIFY2(lint.code == 0 && lint.output.trimmed().isEmpty(), lint.output.constData());
    } else {
        qWarning("promtool (Debian package prometheus) is not installed: the live page is not linted");
    }

    // What happens after the first discovery is counted: a new lock, a stuck lock deleted by hand.
    for (int i = 0; i < 5; ++i)
        QVERIFY(group.at(i)
                    .command({"SET", "lock:new", "abcdefabcdefabcdefabcdefabcdefab", "PX", "600000"})
                    .isStatus());
    for (int i = 0; i < 3; ++i)
        QVERIFY(group.at(i).command({"DEL", "lock:stuck"}).isInteger());
    QTRY_COMPARE_WITH_TIMEOUT(
        sampleValue(httpGet(serve.url()).body, "lockscope_lock_acquisitions_observed_total"), 1.0, 15000);
    QTRY_COMPARE_WITH_TIMEOUT(sampleValue(httpGet(serve.url()).body, "lockscope_lock_force_releases_total"),
                              1.0, 15000);

    // A master that dies is a metric, not the end of the service.
    group.at(4).stop();
    QTRY_COMPARE_WITH_TIMEOUT(sampleValue(httpGet(serve.url()).body, masterUp(group, 4)), 0.0, 10000);
    QVERIFY(serve.isRunning());
    metrics = httpGet(serve.url());
    QCOMPARE(metrics.status, 200);
    QCOMPARE(sampleValue(metrics.body, masterUp(group, 0)), 1.0);

    // -1: not stopped in time, or ended by a signal; what it printed says which.
    QVERIFY2(serve.stop(int(upperBoundMs(10000))) == 0, serve.log().right(4000).constData());
    QVERIFY2(serve.log().contains("stopped"), serve.log().constData());
}

// lockscope_lock_waiters where the layout makes them known: the subscribers of a Redisson lock's
// channel (real SUBSCRIBE clients, as Redisson's waiters), the fair lock's queue; none for a SET lock.
void TestLockctlServe::exportsRedissonWaiters()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    RedisServer& server = group.at(0);
    const QByteArray field = "b3f1c9e2-5a4d-4e0b-9c1f-7d2e8a6b4c10:57";
    for (const char* name : {"lock:orders", "lock:fair"}) {
        QVERIFY(server.command({"HSET", name, field, "1"}).isInteger());
        QVERIFY(server.command({"PEXPIRE", name, "600000"}).isInteger());
    }
    QVERIFY(
        server.command({"RPUSH", "redisson_lock_queue:{lock:fair}", "u2:61", "u2:62", "u2:63"}).isInteger());
    QVERIFY(
        server.command({"SET", "lock:plain", "0123456789abcdef0123456789abcdef", "PX", "600000"}).isStatus());
    auto waiter1 = startCli(
        server, {QStringLiteral("SUBSCRIBE"), QStringLiteral("redisson_lock__channel:{lock:orders}")});
    auto waiter2 = startCli(
        server, {QStringLiteral("SUBSCRIBE"), QStringLiteral("redisson_lock__channel:{lock:orders}")});
    const auto stopWaiters = qScopeGuard([&] {
        stopCli(waiter1);
        stopCli(waiter2);
    });

    ServeProcess serve;
    QVERIFY2(serve.start(group.lockctlArgs() << QStringLiteral("serve")), qPrintable(serve.errorString()));
    QTRY_COMPARE_WITH_TIMEOUT(httpGet(serve.url(QStringLiteral("/-/ready"))).status, 200, 20000);
    const QByteArray orders =
        "lockscope_lock_waiters{resource=\"lock:orders\",format=\"redisson\",status=\"held\"}";
    const QByteArray fair =
        "lockscope_lock_waiters{resource=\"lock:fair\",format=\"redisson\",status=\"held\"}";
    QTRY_COMPARE_WITH_TIMEOUT(sampleValue(httpGet(serve.url()).body, orders), 2.0, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(sampleValue(httpGet(serve.url()).body, fair), 3.0, 20000);
    const QByteArray page = httpGet(serve.url()).body;
    // A SET lock has series, but nobody can tell who waits for it: no waiters sample.
    QVERIFY2(page.contains("lockscope_lock_ttl_seconds{resource=\"lock:plain\""), page.constData());
    QVERIFY2(!page.contains("lockscope_lock_waiters{resource=\"lock:plain\""), page.constData());
    if (!promtoolPath().isEmpty()) {
        const PromtoolRun lint = runPromtool({QStringLiteral("check"), QStringLiteral("metrics")}, page);
        QVERIFY2(lint.code == 0 && lint.output.trimmed().isEmpty(), lint.output.constData());
    } else {
        qWarning("promtool (Debian package prometheus) is not installed: the live page is not linted");
    }
    // The waiters leave: the next read says so.
    stopCli(waiter1);
    stopCli(waiter2);
    QTRY_COMPARE_WITH_TIMEOUT(sampleValue(httpGet(serve.url()).body, orders), 0.0, 20000);
    // -1: not stopped in time, or ended by a signal; what it printed says which.
    QVERIFY2(serve.stop(int(upperBoundMs(10000))) == 0, serve.log().right(4000).constData());
}

void TestLockctlServe::webConfigTurnsOnTlsAndBasicAuth()
{
    const TlsMaterial& tls = TlsMaterial::instance();
    QVERIFY2(tls.isValid(), qPrintable(tls.error()));
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    const QByteArray password = distinctTestPassword(QStringLiteral("scrape")).toUtf8();
    QTemporaryDir dir;
    QFile web(dir.filePath(QStringLiteral("web.yml")));
    QVERIFY(web.open(QIODevice::WriteOnly));
    web.write("# as for Prometheus itself\ntls_server_config:\n  cert_file: " +
              tls.serverCertFile().toUtf8() + "\n  key_file: " + tls.serverKeyFile().toUtf8() +
              "\nbasic_auth_users:\n  prometheus: " + bcryptHash(password, 5) + '\n');
    web.close();

    ServeProcess serve;
    QVERIFY2(serve.start(group.lockctlArgs()
                         << QStringLiteral("serve") << QStringLiteral("--web-config") << web.fileName()),
             qPrintable(serve.errorString()));
    QCOMPARE(serve.url().scheme(), QStringLiteral("https"));

    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.setCaCertificates(QSslCertificate::fromPath(tls.caFile()));
    const auto basic = [](const QByteArray& credentials) {
        return QList<QPair<QByteArray, QByteArray>>{{"Authorization", "Basic " + credentials.toBase64()}};
    };
    const HttpReply anonymous = httpGet(serve.url(), {}, ssl);
    QCOMPARE(anonymous.status, 401);
    QVERIFY(anonymous.wwwAuthenticate.startsWith("Basic"));
    QCOMPARE(httpGet(serve.url(QStringLiteral("/-/healthy")), {}, ssl).status, 401);
    QCOMPARE(httpGet(serve.url(), basic("prometheus:wrong"), ssl).status, 401);
    QCOMPARE(httpGet(serve.url(), basic("nobody:" + password), ssl).status, 401);
    const HttpReply scrape = httpGet(serve.url(), basic("prometheus:" + password), ssl);
    QCOMPARE(scrape.status, 200);
    QVERIFY(scrape.body.contains("lockscope_master_up"));
    // The server as it names itself, beside the Redis version it is compatible with (issue #46).
    const ServerIdentity server = serverIdentity();
    const QByteArray named = "version=\"" + server.version.toUtf8() + "\",server=\"" + server.name.toUtf8() +
                             "\",redis_version=\"";
    QVERIFY2(scrape.body.contains(named), scrape.body.constData());
    // Plain HTTP to the TLS listener gets no page, and a client that does not trust the CA neither.
    QUrl plain = serve.url();
    plain.setScheme(QStringLiteral("http"));
    QCOMPARE(httpGet(plain, basic("prometheus:" + password), ssl, 3000).status, 0);
    QCOMPARE(httpGet(serve.url(), basic("prometheus:" + password)).status, 0);
    // The landing page says auth is on, and shows no hash.
    const HttpReply landing = httpGet(serve.url(QStringLiteral("/")), basic("prometheus:" + password), ssl);
    QCOMPARE(landing.status, 200);
    QVERIFY(landing.body.contains("on (1 users)"));
    QVERIFY(!landing.body.contains("$2b$"));
    // -1: not stopped in time, or ended by a signal; what it printed says which.
    QVERIFY2(serve.stop(int(upperBoundMs(10000))) == 0, serve.log().right(4000).constData());
}

void TestLockctlServe::recordsWhileServing()
{
    RecordedMasters masters;
    QVERIFY2(masters.start(1), qPrintable(masters.errorString()));
    ServeProcess serve;
    QVERIFY2(startRecordingServe(serve, masters), qPrintable(serve.errorString()));
    QVERIFY(masters.group.at(0)
                .command({"SET", "lock:recorded", "0123456789abcdef0123456789abcdef", "PX", "600000"})
                .isStatus());
    QTRY_COMPARE_WITH_TIMEOUT(
        sampleValue(httpGet(serve.url()).body, "lockscope_lock_acquisitions_observed_total"), 1.0, 15000);
    // The recording opens on the writer's thread, and the line comes when it has: a loaded machine
    // can see the lock before that.
    QTRY_VERIFY2_WITH_TIMEOUT(serve.log().contains(QByteArray("recording to " + masters.db.toUtf8())),
                              serve.log().constData(), 15000);
    // -1: not stopped in time, or ended by a signal; what it printed says which.
    QVERIFY2(serve.stop(int(upperBoundMs(10000))) == 0, serve.log().right(4000).constData());
    // What it recorded is there for lockctl history.
    const LockctlRun history =
        runLockctl({QStringLiteral("--json"), QStringLiteral("history"), QStringLiteral("lock:recorded"),
                    QStringLiteral("--db"), masters.db});
    QVERIFY2(history.code == 0, qPrintable(history.describe()));
    QVERIFY2(history.out.contains("0123456789abcdef0123456789abcdef"), qPrintable(history.describe()));
}

// Issue #42: with --record, a restart that lets a second holder in shows in the metrics.
void TestLockctlServe::countsTwoHoldersAtOnceFromItsRecording()
{
    RecordedMasters masters;
    QVERIFY2(masters.start(3), qPrintable(masters.errorString()));
    ServeProcess serve;
    QVERIFY2(startRecordingServe(serve, masters), qPrintable(serve.errorString()));
    const QByteArray proven =
        R"(lockscope_lock_safety_incidents_total{kind="majority-overlap",confidence="proven"})";
    QTRY_COMPARE_WITH_TIMEOUT(sampleValue(httpGet(serve.url()).body, proven), 0.0, 15000);
    for (int i = 0; i < 3; ++i)
        masters.group.at(i).command({"SET", "lock:x", "tok-A", "PX", "60000"});
    QTRY_COMPARE_WITH_TIMEOUT(
        sampleValue(httpGet(serve.url()).body, "lockscope_lock_acquisitions_observed_total"), 1.0, 15000);
    QTest::qWait(500);
    // Two masters restart without persistence: A is left on one, B takes the two (a quorum).
    QVERIFY(masters.group.at(0).restart());
    QVERIFY(masters.group.at(1).restart());
    QTest::qWait(1500);
    for (int i : {0, 1})
        masters.group.at(i).command({"SET", "lock:x", "tok-B", "NX", "PX", "60000"});
    QTRY_COMPARE_WITH_TIMEOUT(sampleValue(httpGet(serve.url()).body, proven), 1.0, 15000);
    QVERIFY2(serve.stop(int(upperBoundMs(10000))) == 0, serve.log().right(4000).constData());
}

// SIGTERM before the event loop runs (the masters still opening: one does not answer) must not be
// lost: it used to leave lockctl serve running for good.
void TestLockctlServe::sigtermWhileMastersOpenStopsIt()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    group.at(0).pause(); // accepts the connection, answers nothing: opening waits for the timeout
    LockctlProcess serve;
    QVERIFY(serve.start(group.lockctlArgs()
                        << QStringLiteral("--timeout-ms") << QStringLiteral("3000") << QStringLiteral("serve")
                        << QStringLiteral("--listen") << QStringLiteral("127.0.0.1:0")));
    // Its SIGTERM handler is in place once the kernel says it catches the signal.
    const auto catchesSigterm = [&serve] {
        QFile status(QStringLiteral("/proc/%1/status").arg(serve.pid()));
        if (!status.open(QIODevice::ReadOnly))
            return false;
        for (const QByteArray& line : status.readAll().split('\n'))
            if (line.startsWith("SigCgt:"))
                return ((line.mid(7).trimmed().toULongLong(nullptr, 16) >> (SIGTERM - 1)) & 1) != 0;
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(catchesSigterm(), 10000);
    QVERIFY2(!serve.out().contains("serving"), serve.out().constData()); // still opening
    const int code = serve.terminate(int(upperBoundMs(15000)));
    group.at(0).resume();
    QVERIFY2(code == 0, qPrintable(serve.describe()));
    QVERIFY2(serve.out().contains("stopped"), qPrintable(serve.describe()));
}

void TestLockctlServe::refusesBadOptions_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("says");
    QTest::newRow("listen without port")
        << QStringList{QStringLiteral("--listen"), QStringLiteral("localhost")} << QStringLiteral("--listen");
    QTest::newRow("listen on a name")
        << QStringList{QStringLiteral("--listen"), QStringLiteral("example.org:9812")}
        << QStringLiteral("--listen");
    QTest::newRow("negative series") << QStringList{QStringLiteral("--max-lock-series"), QStringLiteral("-1")}
                                     << QStringLiteral("--max-lock-series");
    QTest::newRow("db without record")
        << QStringList{QStringLiteral("--db"), QStringLiteral("x.sqlite")} << QStringLiteral("--record");
    QTest::newRow("missing web config")
        << QStringList{QStringLiteral("--web-config"), QStringLiteral("/nonexistent/web.yml")}
        << QStringLiteral("/nonexistent/web.yml");
}

void TestLockctlServe::refusesBadOptions()
{
    QFETCH(QStringList, args);
    QFETCH(QString, says);
    const LockctlRun run = runLockctl(
        QStringList{QStringLiteral("-m"), QStringLiteral("redis://127.0.0.1:1"), QStringLiteral("serve")} +
        args);
    QCOMPARE(run.code, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(says), qPrintable(run.describe()));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockctlServe)

} // namespace tst_lockctlserve

#include "tst_lockctlserve.moc"
