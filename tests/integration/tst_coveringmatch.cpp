// SPDX-License-Identifier: Apache-2.0
#include "discovery/scanplan.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QRandomGenerator>
#include <QSet>
#include <QTest>

namespace tst_coveringmatch {

using namespace lockscope;
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

QByteArray randomText(QRandomGenerator& random, QByteArrayView alphabet, int minLength, int maxLength)
{
    QByteArray text;
    const int length = minLength + int(random.bounded(maxLength - minLength + 1));
    for (int i = 0; i < length; ++i)
        text += alphabet.at(int(random.bounded(alphabet.size())));
    return text;
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
    for (int round = 0; round < 60; ++round) {
        QList<ScanPattern> patterns;
        for (int i = 0, n = 2 + int(random.bounded(3)); i < n; ++i)
            patterns << ScanPattern(randomText(random, alphabet, 1, 6));
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
    QVERIFY2(plans >= 20 && theirs >= 200 && turnedAway > 0,
             qPrintable(QStringLiteral("%1 plans, %2 keys of theirs, %3 turned away")
                            .arg(plans)
                            .arg(theirs)
                            .arg(turnedAway)));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestCoveringMatch)

} // namespace tst_coveringmatch

#include "tst_coveringmatch.moc"
