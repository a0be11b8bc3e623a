// SPDX-License-Identifier: Apache-2.0
#include "config/lockscopeconfig.h"
#include "discovery/scanplan.h"
#include "monitor/lockmonitor.h"
#include "support/lockctlrun.h"
#include "support/monitorrun.h"
#include "support/randomtext.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace tst_coveringmatch {

using namespace lockscope;
using lockscope::test::randomPatterns;
using lockscope::test::randomText;
using lockscope::test::RedisServer;
using lockscope::test::RedisServerGroup;

namespace {

// Every key a full SCAN run with this MATCH returns, by the server's own matcher.
QSet<QByteArray> scanAll(const RedisServer& server, const QByteArray& match)
{
    QSet<QByteArray> keys;
    QByteArray cursor = "0";
    do {
        const RedisReply page = server.command({"SCAN", cursor, "MATCH", match, "COUNT", "500"});
        if (page.elements.size() != 2)
            return {};
        cursor = page.elements.at(0).string;
        for (const RedisReply& key : page.elements.at(1).elements)
            keys.insert(key.string);
    } while (cursor != "0");
    return keys;
}

// From now on the server logs every command (SLOWLOG with no threshold); scanPages() reads it back
// and puts the threshold back.
void logEveryCommand(const RedisServer& server)
{
    server.command({"CONFIG", "SET", "slowlog-max-len", "100000"});
    server.command({"CONFIG", "SET", "slowlog-log-slower-than", "0"});
    server.command({"SLOWLOG", "RESET"});
}

// The SCAN pages the server ran since logEveryCommand(), oldest first: for each, whether it carried
// a MATCH; a page with cursor 0 begins a pass.
QList<QPair<QByteArray, bool>> scanPages(const RedisServer& server)
{
    QList<QPair<QByteArray, bool>> pages;
    const RedisReply log = server.command({"SLOWLOG", "GET", "100000"});
    for (qsizetype i = log.elements.size() - 1; i >= 0; --i) {
        const QList<RedisReply>& argv = log.elements.at(i).elements.value(3).elements;
        if (argv.size() >= 2 && argv.at(0).string.compare("scan", Qt::CaseInsensitive) == 0)
            pages.append({argv.at(1).string, std::any_of(argv.cbegin(), argv.cend(), [](const RedisReply& a) {
                              return a.string.compare("match", Qt::CaseInsensitive) == 0;
                          })});
    }
    server.command({"CONFIG", "SET", "slowlog-log-slower-than", "10000"});
    return pages;
}

// The locks a monitor scanning at full speed (pages of COUNT 1000, as lockctl list asks) finds on
// the group's masters in its first pass; -1 when it did not finish one.
qsizetype locksAMonitorFinds(RedisServerGroup& group)
{
    LockScopeConfig config;
    config.masters = group.connectionOptions(5000);
    config.monitor.scanRate = ScanRate::max();
    lockscope::test::MonitorRun run(config);
    if (!run.startAndScan(int(lockscope::test::upperBoundMs(30000))))
        return -1;
    return run.monitor().locks().size();
}

} // namespace

// A pass over several patterns sends the server one MATCH that covers them all (coveringGlob): here
// the server itself judges that nothing a pattern matches is turned away.
class TestCoveringMatch : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void theDefaultsTurnAwayOnlyOtherKeys();
    void randomPatternsLoseNoKeyOfTheirs();
    void amongLocksOnlyTheMatchGoesOncePerPass();
    void amongOtherKeysTheMatchGoesWithEveryPage();

private:
    RedisServerGroup m_group;
};

void TestCoveringMatch::initTestCase()
{
    QVERIFY2(m_group.start(1), qPrintable(m_group.errorString()));
}

void TestCoveringMatch::theDefaultsTurnAwayOnlyOtherKeys()
{
    RedisServer& server = m_group.at(0);
    server.command({"FLUSHALL"});
    const QByteArrayList mine{"lock:a",    "lock.b",  "locks:c",     "d:lock",      "e.lock",
                              "redlock:f", "mutex:g", "semaphore:h", "jobs-lock-7", "BLOCK:lock"};
    const QByteArrayList others{"key:1", "session:9f2", "user:7:profile", "cache:x", "mutex", "Lock:1"};
    for (const QByteArray& key : mine + others)
        server.command({"SET", key, "t"});
    const ScanPlan plan(ScanPattern::defaults());
    QVERIFY(!plan.match().isEmpty());
    const QSet<QByteArray> sent = scanAll(server, plan.match());
    for (const QByteArray& key : mine)
        QVERIFY2(sent.contains(key) && plan.keeps(key), key.constData());
    for (const QByteArray& key : others)
        QVERIFY2(!plan.keeps(key), key.constData());
    // Those without the covering bytes never come back; the rest are turned away here.
    for (const char* key : {"key:1", "session:9f2", "user:7:profile"})
        QVERIFY2(!sent.contains(key), key);
    QCOMPARE(sent.size(), mine.size() + 3); // cache:x, mutex and Lock:1 hold c or m, then k, p or x
}

void TestCoveringMatch::randomPatternsLoseNoKeyOfTheirs()
{
    RedisServer& server = m_group.at(0);
    server.command({"FLUSHALL"});
    // Keys and patterns from the bytes that make globs hard: classes, ranges, escapes, open brackets.
    constexpr QByteArrayView alphabet = "ab:*?[]\\^-";
    QRandomGenerator random(61);
    QByteArrayList writes{"MSET"};
    for (int i = 0; i < 400; ++i)
        writes << randomText(random, alphabet, 1, 6) << "v";
    server.command(writes);
    int plans = 0, theirs = 0, turnedAway = 0;
    const qsizetype all = scanAll(server, "*").size();
    for (int round = 0; round < 150; ++round) {
        const QList<ScanPattern> patterns = randomPatterns(random, alphabet, 1, 6);
        const ScanPlan plan(patterns);
        if (plan.match().isEmpty())
            continue;
        ++plans;
        const QSet<QByteArray> sent = scanAll(server, plan.match());
        turnedAway += int(all - sent.size());
        for (const ScanPattern& p : std::as_const(patterns))
            for (const QByteArray& key : scanAll(server, p.match)) {
                ++theirs;
                if (!sent.contains(key))
                    QFAIL(qPrintable(QStringLiteral("MATCH %1 turned away %2, which %3 matches")
                                         .arg(QString::fromLatin1(plan.match()), QString::fromLatin1(key),
                                              QString::fromLatin1(p.match))));
            }
    }
    QVERIFY2(plans >= 50 && theirs >= 200 && turnedAway > 0,
             qPrintable(QStringLiteral("%1 plans, %2 keys of theirs, %3 turned away")
                            .arg(plans)
                            .arg(theirs)
                            .arg(turnedAway)));
}

void TestCoveringMatch::amongLocksOnlyTheMatchGoesOncePerPass()
{
    // A keyspace of little but locks: the first page's MATCH lets nearly every key through, so the
    // rest of the pass goes without (the server's matcher would only add to its work); every lock
    // is found either way, by the monitor and by lockctl list.
    RedisServer& server = m_group.at(0);
    server.command({"FLUSHALL"});
    server.command(
        {"EVAL", "for i = 1, 5000 do redis.call('SET', 'lock:' .. i, 't', 'PX', 600000) end", "0"});
    logEveryCommand(server);
    QCOMPARE(locksAMonitorFinds(m_group), 5000);
    QTemporaryDir dir;
    const lockscope::test::LockctlRun list =
        lockscope::test::runLockctl(lockscope::test::testPasswordArgs() +
                                    QStringList{"-m", server.url(false), "--audit-log",
                                                dir.filePath("audit.jsonl"), "list", "--scan-rate", "max"});
    QVERIFY2(list.code == 0 && list.out.count("\nlock:") == 5000, qPrintable(list.describe()));
    const QList<QPair<QByteArray, bool>> pages = scanPages(server);
    int passes = 0;
    for (qsizetype i = 0; i < pages.size(); ++i) {
        const bool passStarts = pages.at(i).first == "0";
        passes += passStarts ? 1 : 0;
        QVERIFY2(pages.at(i).second == passStarts,
                 qPrintable(QStringLiteral("page %1 of %2").arg(i).arg(pages.size())));
    }
    QVERIFY2(passes >= 2 && pages.size() >= 2 * 4, qPrintable(QStringLiteral("%1 pages").arg(pages.size())));
}

void TestCoveringMatch::amongOtherKeysTheMatchGoesWithEveryPage()
{
    RedisServer& server = m_group.at(0);
    server.command({"FLUSHALL"});
    server.command({"EVAL",
                    "for i = 1, 5000 do redis.call('SET', 'session:' .. i, 'x') end "
                    "for i = 1, 50 do redis.call('SET', 'lock:' .. i, 't', 'PX', 600000) end",
                    "0"});
    logEveryCommand(server);
    QCOMPARE(locksAMonitorFinds(m_group), 50);
    const QList<QPair<QByteArray, bool>> pages = scanPages(server);
    QVERIFY2(pages.size() >= 4, qPrintable(QString::number(pages.size())));
    for (const auto& [cursor, matched] : pages)
        QVERIFY2(matched, cursor.constData());
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestCoveringMatch)

} // namespace tst_coveringmatch

#include "tst_coveringmatch.moc"
