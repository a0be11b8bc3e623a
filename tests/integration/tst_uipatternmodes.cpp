// SPDX-License-Identifier: Apache-2.0
#include "locks/locktablemodel.h"
#include "support/lockctlrun.h"
#include "support/redisserver.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

namespace tst_uipatternmodes {

using namespace lockscope;
using namespace lockscope::test;

namespace {

constexpr int kOrdinaryKeys = 200;

// An application's keyspace: 200 ordinary keys (text, counters, unix times, hashes, lists, 32-hex
// digests, ids), almost all without a TTL, and 3 real locks among them (node-redlock, Redisson,
// redis-semaphore), plus a TTL-less key a legacy SETNX user takes for a lock: "legacy:jobs".
void fillKeyspace(const RedisServer& server)
{
    for (int i = 0; i < kOrdinaryKeys; ++i) {
        const QByteArray n = QByteArray::number(i);
        switch (i % 7) {
        case 0:
            server.command({"SET", "user:" + n + ":name", "name " + n});
            break;
        case 1:
            server.command({"SET", "hits:" + n, n});
            break;
        case 2:
            server.command({"SET", "seen:" + n, QByteArray::number(1700000000 + i)});
            break;
        case 3:
            server.command({"HSET", "profile:" + n, "name", "n" + n, "email", n + "@example.org"});
            break;
        case 4:
            server.command({"RPUSH", "queue:" + n, "a", "b"});
            break;
        case 5:
            server.command(
                {"SET", "digest:" + n, QCryptographicHash::hash(n, QCryptographicHash::Md5).toHex()});
            break;
        default:
            server.command({"SET", "cache:" + n, "value " + n, "PX", "600000"});
            break;
        }
    }
    server.command({"SET", "orders", "9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c", "PX", "600000"});
    const QByteArray holder = QUuid::createUuid().toByteArray(QUuid::WithoutBraces) + ":57";
    server.command({"HSET", "report-lock", holder, "1"});
    server.command({"PEXPIRE", "report-lock", "600000"});
    server.command(
        {"SET", "mutex:payments", QUuid::createUuid().toByteArray(QUuid::WithoutBraces), "PX", "600000"});
    server.command({"SET", "legacy:jobs", "worker-7"});
}

const QStringList realLocks{QStringLiteral("mutex:payments"), QStringLiteral("orders"),
                            QStringLiteral("report-lock")};

QStringList resources(const QJsonObject& list)
{
    QStringList out;
    for (const QJsonValue& v : list.value(QStringLiteral("locks")).toArray())
        out << v.toObject().value(QStringLiteral("resource")).toString();
    return out;
}

QStringList stuck(const QJsonObject& list)
{
    QStringList out;
    for (const QJsonValue& v : list.value(QStringLiteral("locks")).toArray())
        if (v.toObject().value(QStringLiteral("status")).toString() == QLatin1String("stuck"))
            out << v.toObject().value(QStringLiteral("resource")).toString();
    return out;
}

} // namespace

class TestUiPatternModes : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void lockctlListDiscoversTheLocksAmongOrdinaryKeys();
    void lockctlLocksPatternKeepsItsMeaning();
    void lockctlWatchDiscovers();
    void configFileModes();
    void windowDiscoversTheLocksAmongOrdinaryKeys();
    void statusBarNamesThePatternsAndTheKeysTheyMiss();
    void theDefaultsTakeNoOrdinaryKeyForAStuckLock();

private:
    RedisServer m_server;
    QTemporaryDir m_dir;
    QStringList m_base;
};

void TestUiPatternModes::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
    fillKeyspace(m_server);
    QCOMPARE(m_server.command({"DBSIZE"}).integer, qint64(kOrdinaryKeys + 4));
    m_base = {QStringLiteral("-m"), m_server.url(), QStringLiteral("--audit-log"),
              m_dir.filePath(QStringLiteral("audit.jsonl"))};
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uipatternmodes"));
}

void TestUiPatternModes::lockctlListDiscoversTheLocksAmongOrdinaryKeys()
{
    int code = -1;
    const QJsonObject list = runLockctlJson(
        m_base + QStringList{QStringLiteral("list"), QStringLiteral("--discover"), QStringLiteral("*")},
        &code);
    QCOMPARE(code, 0);
    QCOMPARE(resources(list), realLocks);
    QCOMPARE(stuck(list), QStringList());

    // The text table says the same: three locks, nothing stuck, no ordinary key.
    const LockctlRun text = runLockctl(
        m_base + QStringList{QStringLiteral("list"), QStringLiteral("--discover"), QStringLiteral("*")});
    QVERIFY2(text.code == 0, qPrintable(text.describe()));
    const QList<QByteArray> lines = text.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + realLocks.size());
    QVERIFY2(!text.out.contains("stuck") && !text.out.contains("user:") && !text.out.contains("legacy:"),
             qPrintable(text.describe()));
}

void TestUiPatternModes::lockctlLocksPatternKeepsItsMeaning()
{
    // --help names both options and says what each means.
    const LockctlRun help = runLockctl({QStringLiteral("--help")});
    QVERIFY2(help.out.contains("list [--pattern GLOB]... [--discover GLOB]...") &&
                 help.out.contains("--discover: find the locks among the matching keys"),
             qPrintable(help.describe()));

    // A legacy SETNX user names its lock keys: under that "locks" pattern the TTL-less key is a lock
    // that never expires, whatever its value, while the discover pattern still hides the others.
    int code = -1;
    const QJsonObject list = runLockctlJson(
        m_base + QStringList{QStringLiteral("list"), QStringLiteral("--pattern"), QStringLiteral("legacy:*"),
                             QStringLiteral("--discover"), QStringLiteral("*")},
        &code);
    QCOMPARE(code, 0);
    QCOMPARE(resources(list), QStringList{QStringLiteral("legacy:jobs")} + realLocks);
    QCOMPARE(stuck(list), QStringList{QStringLiteral("legacy:jobs")});

    // A broad "locks" pattern means what it always meant: every key is a lock.
    const QJsonObject everything = runLockctlJson(
        m_base + QStringList{QStringLiteral("list"), QStringLiteral("--pattern"), QStringLiteral("*")},
        &code);
    QCOMPARE(resources(everything).size(), kOrdinaryKeys + 4);
}

void TestUiPatternModes::lockctlWatchDiscovers()
{
    for (const bool json : {false, true}) {
        QProcess watch;
        QStringList args = m_base;
        if (json)
            args << QStringLiteral("--json");
        watch.start(lockctlPath(),
                    args << QStringLiteral("watch") << QStringLiteral("--discover") << QStringLiteral("*"));
        QVERIFY(watch.waitForStarted());
        QByteArray out;
        auto seen = [&](const QByteArray& what) {
            out += watch.readAllStandardOutput();
            return out.contains(what);
        };
        for (const QString& lock : realLocks)
            QTRY_VERIFY_WITH_TIMEOUT(seen(lock.toUtf8()), 20000);
        // A lock taken now shows up; by then the first pass, ordinary keys and all, is long reported.
        const QByteArray marker = json ? QByteArray("marker-json") : QByteArray("marker-text");
        m_server.command({"SET", marker, "6d5c6d5c6d5c6d5c6d5c6d5c6d5c6d5c", "PX", "600000"});
        QTRY_VERIFY_WITH_TIMEOUT(seen(marker), 20000);
        watch.terminate(); // the lockctl this test started; it stops on SIGTERM
        QVERIFY(watch.waitForFinished(int(lockscope::test::upperBoundMs(10000))));
        out += watch.readAllStandardOutput();
        m_server.command({"DEL", marker});
        QVERIFY2(!out.contains("stuck") && !out.contains("user:") && !out.contains("legacy:jobs") &&
                     !out.contains("digest:"),
                 out.constData());
    }
}

void TestUiPatternModes::configFileModes()
{
    QFile file(m_dir.filePath(QStringLiteral("modes.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"patterns": ["legacy:*", {"match": "*", "mode": "discover"}]})");
    file.close();
    int code = -1;
    const QJsonObject list = runLockctlJson(
        m_base + QStringList{QStringLiteral("--config"), file.fileName(), QStringLiteral("list")}, &code);
    QCOMPARE(code, 0);
    QCOMPARE(resources(list), QStringList{QStringLiteral("legacy:jobs")} + realLocks);
    QCOMPARE(stuck(list), QStringList{QStringLiteral("legacy:jobs")});
}

void TestUiPatternModes::windowDiscoversTheLocksAmongOrdinaryKeys()
{
    LockScopeConfig config;
    config.masters = {m_server.connectionOptions(2000)};
    config.monitor.patterns = {ScanPattern("*", PatternMode::Discover)};
    config.monitor.pollIntervalMs = 200;
    MainWindow window(config, m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QSignalSpy scanned(&window, &MainWindow::initialScanFinished);
    QVERIFY(scanned.wait(int(lockscope::test::upperBoundMs(10000))));
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), int(realLocks.size()), 3000);
    for (const QString& lock : realLocks)
        QVERIFY2(window.lockModel()->find(lock.toUtf8()), qPrintable(lock));
    QCOMPARE(window.lockModel()->counts()[size_t(LockStatus::Stuck)], 0);

    // A bare token is a lock under a discover pattern only with its TTL: without one it is data (a
    // digest, an id), so it leaves the table rather than turning stuck, and comes back with a TTL.
    QCOMPARE(m_server.command({"PERSIST", "orders"}).integer, 1);
    QTRY_VERIFY_WITH_TIMEOUT(!window.lockModel()->find("orders"), 5000);
    QCOMPARE(window.lockModel()->counts()[size_t(LockStatus::Stuck)], 0);
    QCOMPARE(m_server.command({"PEXPIRE", "orders", "600000"}).integer, 1);
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->find("orders"), 5000);
    QCOMPARE(window.lockModel()->find("orders")->status, LockStatus::Held);
}

void TestUiPatternModes::statusBarNamesThePatternsAndTheKeysTheyMiss()
{
    // A second master whose application names its keys in a way the default patterns miss, and a
    // third whose keys the defaults' *lock* matches but none of which is a lock.
    RedisServer other;
    QVERIFY2(other.start(), qPrintable(other.errorString()));
    for (int i = 0; i < 30; ++i)
        other.command(
            {"SET", "sched:job-" + QByteArray::number(i), "worker-" + QByteArray::number(i), "PX", "600000"});
    RedisServer clocks;
    QVERIFY2(clocks.start(), qPrintable(clocks.errorString()));
    for (int i = 0; i < 12; ++i)
        clocks.command({"SET", "clock:drift-" + QByteArray::number(i), "1"});
    clocks.command({"SET", "other", "1"});
    LockScopeConfig config;
    config.masters = {m_server.connectionOptions(2000), other.connectionOptions(2000),
                      clocks.connectionOptions(2000)};
    config.monitor.pollIntervalMs = 200;
    MainWindow window(config, m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    const QLabel* scope = window.findChild<QLabel*>(QStringLiteral("scanScope"));
    QVERIFY(scope);
    // Before any pass it names what is scanned: the nine default globs in three words, each of
    // them in the tooltip.
    QVERIFY2(scope->text().contains(QStringLiteral("Scanning the default patterns")),
             qPrintable(scope->text()));
    QVERIFY2(scope->toolTip().contains(ScanPattern::listText(ScanPattern::defaults())),
             qPrintable(scope->toolTip()));
    const QString hint = QStringLiteral(":%1: 30 keys, none matched the default patterns — add a "
                                        "pattern in Connections")
                             .arg(other.port());
    // Issue #41: keys matched but judged no locks are not "none matched".
    const QString judged =
        QStringLiteral(":%1: 13 keys, 12 matched the default patterns, none of them a lock")
            .arg(clocks.port());
    QTRY_VERIFY2_WITH_TIMEOUT(
        scope->text().startsWith(QLatin1String("M2 ")) && scope->text().contains(hint) &&
            scope->text().contains(judged),
        qPrintable(scope->text() + QLatin1Char('\n') + hint + QLatin1Char('\n') + judged), 10000);
    // M1's keys did match (report-lock, mutex:payments): no word about it.
    QVERIFY2(!scope->text().contains(QStringLiteral("M1 ")), qPrintable(scope->text()));

    // Once a pattern matches M2's locks, the hint goes and the patterns are what the bar says.
    config.masters.removeLast();
    config.monitor.patterns << ScanPattern("sched:*");
    window.monitor(config, m_dir.filePath(QStringLiteral("audit.jsonl")));
    QTRY_VERIFY2_WITH_TIMEOUT(window.lockModel()->find("sched:job-7"), "sched:job-7", 10000);
    QTRY_COMPARE_WITH_TIMEOUT(scope->text(), QStringLiteral("Scanning the default patterns, sched:*"), 10000);
}

void TestUiPatternModes::theDefaultsTakeNoOrdinaryKeyForAStuckLock()
{
    // Issue #41: under the old default *lock*, `SET clock:drift-config 1` was a stuck lock (a
    // notification after 10 s, a delete button). Under the defaults it is no lock; a lock without
    // a TTL where the defaults name lock layouts is still stuck.
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const QByteArrayList ordinary{"clock:drift-config", "block:42", "unlocked_users"};
    server.command({"SET", "clock:drift-config", "1"});
    server.command({"SET", "block:42", "a-block-of-text"});
    server.command({"SADD", "unlocked_users", "ann", "bob"});
    server.command({"SET", "lock:nottl", "worker-7"});
    server.command({"SET", "lock.cron", "1600000000"}); // the SETNX recipe's lock.foo, long expired
    LockScopeConfig config;
    config.masters = {server.connectionOptions(2000)};
    config.monitor.pollIntervalMs = 200;
    MainWindow window(config, m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QSignalSpy scanned(&window, &MainWindow::initialScanFinished);
    QVERIFY(scanned.wait(int(lockscope::test::upperBoundMs(10000))));
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->find("lock:nottl") && window.lockModel()->find("lock.cron"),
                             5000);
    QCOMPARE(window.lockModel()->find("lock:nottl")->status, LockStatus::Stuck);
    QCOMPARE(window.lockModel()->find("lock.cron")->status, LockStatus::Stuck);
    // Pass after pass (every 200 ms), the ordinary keys never join them.
    QElapsedTimer watched;
    watched.start();
    while (watched.elapsed() < 2000) {
        for (const QByteArray& key : ordinary)
            QVERIFY2(!window.lockModel()->find(key), key.constData());
        QTest::qWait(100);
    }
    QCOMPARE(window.lockModel()->rowCount(), 2);
    QCOMPARE(window.lockModel()->counts()[size_t(LockStatus::Stuck)], 2);
}

LOCKSCOPE_TEST_MAIN(TestUiPatternModes)

} // namespace tst_uipatternmodes

#include "tst_uipatternmodes.moc"
