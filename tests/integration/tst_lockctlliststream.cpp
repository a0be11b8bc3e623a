// SPDX-License-Identifier: Apache-2.0
// `lockctl list` streams (issue #19 part 3): a master may hold a million short-lived per-entity
// locks. Over three masters every lock is printed exactly once with its quorum status (a lock held
// by a later master only, a partial and a contested one included), the first rows come out while
// the scan is still running, and lockctl's peak memory does not follow the lock count.
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/overlappingpatternkeys.h"
#include "support/rediscliprocess.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QScopeGuard>
#include <QSet>
#include <QTest>

namespace tst_lockctlliststream {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// Per-entity locks lock:s0 .. lock:s<n-1> on master `master` of three: by i % 10, 1 only on the
// third master (partial), 2 contested (another token on the first), 3 on the second and third only
// (held, first met by the second master's scan), 4 on the first only (partial); the rest on all.
bool fillLocks(RedisServer& server, int master, int n, int firstIndex = 0)
{
    static const QByteArray script = R"(
local first, n, m = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
for i = first, first + n - 1 do
    local r, tok, on = i % 10, string.format('%032x', i), true
    if r == 1 then on = (m == 2)
    elseif r == 3 then on = (m ~= 0)
    elseif r == 4 then on = (m == 0)
    elseif r == 2 and m == 0 then tok = string.format('%032x', i + 100000000) end
    if on then redis.call('SET', 'lock:s' .. i, tok, 'PX', 3600000) end
end
return 1)";
    return server
               .command({"EVAL", script, "0", QByteArray::number(firstIndex), QByteArray::number(n),
                         QByteArray::number(master)})
               .integer == 1;
}

QString expectedStatus(int i)
{
    switch (i % 10) {
    case 1:
    case 4:
        return QStringLiteral("partial");
    case 2:
        return QStringLiteral("contested");
    default:
        return QStringLiteral("held");
    }
}

qint64 scanCalls(RedisServer& server)
{
    const QByteArray info = server.command({"INFO", "commandstats"}).string;
    const qsizetype at = info.indexOf("cmdstat_scan:calls=");
    if (at < 0)
        return 0;
    const qsizetype start = at + qsizetype(qstrlen("cmdstat_scan:calls="));
    return info.mid(start, info.indexOf(',', start) - start).toLongLong();
}

// At full speed: the pace of a scan is not what these tests are about (the default paces it).
QStringList masterArgs(RedisServerGroup& group, int count)
{
    QStringList args = testPasswordArgs() << QStringLiteral("--scan-rate") << QStringLiteral("max");
    for (int i = 0; i < count; ++i)
        args << QStringLiteral("-m") << group.at(i).url(false);
    return args;
}

} // namespace

class TestLockctlListStream : public QObject
{
    Q_OBJECT

private slots:
    void everyLockOnceOverThreeMastersWhileScanning();
    void memoryDoesNotFollowTheLockCount();
    void pacedListingYieldsTheCpu();
    void overlappingPatternsAreOneWalk();
    void aMasterOtherClientsUseIsListedInShortTurns();
};

void TestLockctlListStream::everyLockOnceOverThreeMastersWhileScanning()
{
    constexpr int locks = 45000;
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int m = 0; m < 3; ++m)
        QVERIFY(fillLocks(group.at(m), m, locks));
    LockctlProcess lockctl;
    QVERIFY(lockctl.start(masterArgs(group, 3) << QStringLiteral("list")));
    // The masters are read in turn: the third has not finished its scan (nor, usually, begun it)
    // when the first rows are out.
    QVERIFY2(lockctl.waitForOutput("\n", 60000), qPrintable(lockctl.describe()));
    const qint64 lastScansAtFirstRow = scanCalls(group.at(2));
    QCOMPARE(lockctl.waitForExit(120000), 0);
    const qint64 lastScansAtEnd = scanCalls(group.at(2));
    QVERIFY2(lastScansAtFirstRow < lastScansAtEnd,
             qPrintable(QStringLiteral("the third master's SCAN calls: %1 at the first row, %2 at the end")
                            .arg(lastScansAtFirstRow)
                            .arg(lastScansAtEnd)));

    const QList<QByteArray> lines = lockctl.out().split('\n');
    QVERIFY2(lines.value(0).startsWith("RESOURCE"), qPrintable(lockctl.describe()));
    QHash<QByteArray, int> seen;
    int wrong = 0;
    QString firstWrong;
    for (qsizetype l = 1; l < lines.size(); ++l) {
        const QList<QByteArray> cells = lines.at(l).simplified().split(' ');
        if (cells.size() < 2)
            continue;
        ++seen[cells.at(0)];
        const int i = cells.at(0).mid(qstrlen("lock:s")).toInt();
        if (QString::fromUtf8(cells.at(1)) != expectedStatus(i) && wrong++ == 0)
            firstWrong = QString::fromUtf8(lines.at(l));
    }
    QCOMPARE(seen.size(), locks);
    for (auto it = seen.cbegin(); it != seen.cend(); ++it)
        QVERIFY2(it.value() == 1,
                 qPrintable(
                     QStringLiteral("%1 printed %2 times").arg(QString::fromUtf8(it.key())).arg(it.value())));
    QVERIFY2(wrong == 0,
             qPrintable(QStringLiteral("%1 wrong statuses, first: %2").arg(wrong).arg(firstWrong)));
    // The quorum column of a lock only the later masters hold, and of a contested one.
    for (const QByteArray& line : lines) {
        if (line.startsWith("lock:s3 "))
            QVERIFY2(line.contains("2/3 (need 2)") && line.contains(QStringLiteral("○●●").toUtf8()),
                     line.constData());
        if (line.startsWith("lock:s2 "))
            QVERIFY2(line.contains("2/3 (need 2)") && line.contains(QStringLiteral("◐●●").toUtf8()),
                     line.constData());
    }
}

void TestLockctlListStream::memoryDoesNotFollowTheLockCount()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    // Under AddressSanitizer freed memory waits in a quarantine (256 MB) before it is used again: a
    // listing that frees as it goes would look like one that keeps every lock. Off for lockctl here.
    const QByteArray asan = qgetenv("ASAN_OPTIONS");
    qputenv("ASAN_OPTIONS", asan + (asan.isEmpty() ? "" : ":") + "quarantine_size_mb=0");
    const auto restore = qScopeGuard([&] { qputenv("ASAN_OPTIONS", asan); });
    // All on the one master (i % 10 == 1 would be on a third master only: index it as the third).
    const auto listPeak = [&](int expected, qint64* peakKiB) {
        LockctlProcess lockctl;
        QVERIFY(lockctl.start(masterArgs(group, 1) << QStringLiteral("--json") << QStringLiteral("list")));
        qint64 peak = 0;
        const int code = lockctl.waitForExit(120000, [&] { peak = qMax(peak, lockctl.peakRssKiB()); });
        QCOMPARE(code, 0);
        // Counted, not parsed: each lock has one "resource" (its observations have none).
        QCOMPARE(int(lockctl.out().count("\"resource\":")), expected);
        QVERIFY2(lockctl.out().trimmed().endsWith("]}"), qPrintable(lockctl.describe()));
        *peakKiB = peak;
    };
    QVERIFY(fillLocks(group.at(0), 2, 20000));
    qint64 small = 0;
    listPeak(20000 - 2000, &small); // the 4s (first master only) are not on this one
    QVERIFY(!QTest::currentTestFailed());
    QVERIFY(fillLocks(group.at(0), 2, 180000, 20000));
    qint64 large = 0;
    listPeak(200000 - 20000, &large);
    QVERIFY(!QTest::currentTestFailed());
    qInfo("peak RSS: %lld KiB at 18k locks, %lld KiB at 180k", small, large);
    QVERIFY(small > 0 && large > 0);
    // Ten times the locks: a whole-picture listing took ten times the memory (6 KB a lock).
    QVERIFY2(large < small + 64 * 1024,
             qPrintable(QStringLiteral("%1 KiB, then %2 KiB").arg(small).arg(large)));
    QVERIFY2(large < 300 * 1024, qPrintable(QStringLiteral("%1 KiB").arg(large)));
}

namespace {

// The nice value of a running process (the main thread's: list does its work there), -100 once
// it is gone.
int niceOf(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return -100;
    const QByteArray line = stat.readAll();
    // Fields after the command name (which may hold spaces), from the 3rd: nice is the 19th.
    const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
    return fields.size() > 16 ? fields.at(16).toInt() : -100;
}

} // namespace

// A paced listing (the default) gives this machine's CPU to the server and its other clients first;
// `--scan-rate max` keeps its priority.
void TestLockctlListStream::pacedListingYieldsTheCpu()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    QVERIFY(fillLocks(group.at(0), 2, 6000));
    const int ours = niceOf(QCoreApplication::applicationPid());
    QVERIFY(ours > -100);
    const auto nicesWhileListing = [&](const QString& rate) {
        LockctlProcess lockctl;
        QStringList args = testPasswordArgs() << QStringLiteral("--scan-rate") << rate << QStringLiteral("-m")
                                              << group.at(0).url(false) << QStringLiteral("list");
        QSet<int> seen;
        if (!lockctl.start(args))
            return seen;
        const int code = lockctl.waitForExit(120000, [&] {
            if (const int nice = niceOf(lockctl.pid()); nice > -100)
                seen << nice;
        });
        if (code != 0)
            seen << -100;
        return seen;
    };
    // 6k keys at 3k a second: two seconds of listing to look at (more when the pacer backs off).
    const QSet<int> paced = nicesWhileListing(QStringLiteral("3000"));
    QStringList shown;
    for (int nice : paced)
        shown << QString::number(nice);
    QVERIFY2(paced.contains(qMax(ours, 10)) && !paced.contains(-100),
             qPrintable(QStringLiteral("nice values seen: %1").arg(shown.join(QLatin1Char(' ')))));
    const QSet<int> full = nicesWhileListing(QStringLiteral("max"));
    QCOMPARE(full, QSet<int>{ours});
}

void TestLockctlListStream::overlappingPatternsAreOneWalk()
{
    // Three patterns that overlap: each lock once, from one SCAN run over the keyspace (a run per
    // pattern walked the whole keyspace once per pattern).
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    QVERIFY(writeOverlappingPatternKeys(group.at(0)));
    group.at(0).command({"CONFIG", "RESETSTAT"});
    LockctlProcess lockctl;
    QVERIFY(lockctl.start(masterArgs(group, 1)
                          << QStringLiteral("list") << QStringLiteral("--pattern") << QStringLiteral("lock:*")
                          << QStringLiteral("--pattern") << QStringLiteral("*lock*")
                          << QStringLiteral("--pattern") << QStringLiteral("mutex:*")));
    QCOMPARE(lockctl.waitForExit(60000), 0);
    QHash<QByteArray, int> seen;
    const QList<QByteArray> lines = lockctl.out().split('\n');
    for (qsizetype l = 1; l < lines.size(); ++l) {
        const QByteArray resource = lines.at(l).simplified().split(' ').value(0);
        if (!resource.isEmpty())
            ++seen[resource];
    }
    QCOMPARE(seen.size(), 3000);
    QVERIFY(!seen.contains("other:1"));
    for (auto it = seen.cbegin(); it != seen.cend(); ++it)
        QVERIFY2(it.value() == 1, it.key().constData());
    // 5,000 keys at COUNT 1000: about five pages, not fifteen.
    const qint64 scans = scanCalls(group.at(0));
    QVERIFY2(scans <= 5000 / 1000 + 3, qPrintable(QString::number(scans)));
}

void TestLockctlListStream::aMasterOtherClientsUseIsListedInShortTurns()
{
    // Issue #19: a paced listing counts the commands the master runs for others (INFO stats, less its
    // own); while another client runs thousands a second it asks for pages of 16 keys, one short
    // turn of the server each. Alone on the master, the same listing takes pages of 50.
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    RedisServer& server = group.at(0);
    QVERIFY(fillLocks(server, 2, 6000));
    const qint64 keys = server.command({"DBSIZE"}).integer;
    QCOMPARE(keys, qint64(5400));
    // 5,000 keys a second: pages of 50 (the least COUNT), a listing of about a second, ten counts.
    const auto listedWithScans = [&](qint64* scans) {
        server.command({"CONFIG", "RESETSTAT"});
        LockctlProcess lockctl;
        if (!lockctl.start(testPasswordArgs()
                           << QStringLiteral("--scan-rate") << QStringLiteral("5000") << QStringLiteral("-m")
                           << server.url(false) << QStringLiteral("list")))
            return -1;
        if (lockctl.waitForExit(120000) != 0)
            return -2;
        *scans = scanCalls(server);
        return int(lockctl.out().count('\n')) - 1; // the header line
    };
    qint64 alone = 0;
    QCOMPARE(listedWithScans(&alone), 5400);
    QVERIFY2(alone <= keys / 50 + 10, qPrintable(QString::number(alone)));

    auto neighbour = startCli(server, {QStringLiteral("-r"), QStringLiteral("-1"), QStringLiteral("-i"),
                                       QStringLiteral("0"), QStringLiteral("PING")});
    const auto cleanup = qScopeGuard([&] { stopCli(neighbour); });
    QTRY_VERIFY_WITH_TIMEOUT(server.command({"INFO", "commandstats"}).string.contains("cmdstat_ping:calls="),
                             10000);
    qint64 shared = 0;
    QCOMPARE(listedWithScans(&shared), 5400);
    QVERIFY2(shared >= keys / 25,
             qPrintable(QStringLiteral("%1 SCANs shared, %2 alone").arg(shared).arg(alone)));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockctlListStream)

} // namespace tst_lockctlliststream

#include "tst_lockctlliststream.moc"
