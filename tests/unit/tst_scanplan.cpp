// SPDX-License-Identifier: Apache-2.0
#include "config/keyglob.h"
#include "discovery/scanplan.h"
#include "support/randomtext.h"
#include "support/testregistry.h"

#include <QRandomGenerator>
#include <QTest>

namespace tst_scanplan {

using namespace lockscope;
using lockscope::test::randomPatterns;
using lockscope::test::randomText;

namespace {

bool anyGlob(const QList<ScanPattern>& patterns, const QByteArray& key)
{
    return std::any_of(patterns.cbegin(), patterns.cend(),
                       [&key](const ScanPattern& p) { return KeyGlob::matches(p.match, key); });
}

} // namespace

class TestScanPlan : public QObject
{
    Q_OBJECT

private slots:
    void onePatternIsTheServersMatch();
    void severalPatternsAreOneRunMatchedHere_data();
    void severalPatternsAreOneRunMatchedHere();
    void aMatchAllPatternKeepsEveryKey();
    void agreesWithRedisGlobOnRandomPatterns();
    void theDefaultsGoWithOneCoveringMatch();
    void aPatternThatRequiresNoByteMeansNoMatch();
    void theCoveringMatchLetsEveryKeptKeyThrough();
    void aLongPatternIsReadOnce();
    void aPassMayLeaveTheCoveringMatchOut();
};

void TestScanPlan::onePatternIsTheServersMatch()
{
    const ScanPlan plan({ScanPattern("lock:*")});
    QCOMPARE(plan.match(), QByteArray("lock:*"));
    // The server filtered the page already: whatever it sent is kept.
    QVERIFY(plan.keeps("lock:a"));
}

void TestScanPlan::severalPatternsAreOneRunMatchedHere_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<bool>("kept");
    QTest::newRow("contains") << QByteArray("jobs.lock.7") << true;
    QTest::newRow("contains, at the start") << QByteArray("lock") << true;
    QTest::newRow("prefix") << QByteArray("mutex:a") << true;
    QTest::newRow("prefix alone") << QByteArray("mutex:") << true;
    QTest::newRow("suffix") << QByteArray("orders:guard") << true;
    QTest::newRow("exact") << QByteArray("the-one") << true;
    QTest::newRow("exact, longer") << QByteArray("the-one2") << false;
    QTest::newRow("class") << QByteArray("job7:x") << true;
    QTest::newRow("class, other") << QByteArray("jobx:x") << false;
    QTest::newRow("escaped star") << QByteArray("star*") << true;
    QTest::newRow("escaped star is literal") << QByteArray("starry") << false;
    QTest::newRow("case sensitive") << QByteArray("JOBS.LOCK") << false;
    QTest::newRow("binary") << QByteArray("mutex:\x00\xff", 8) << true;
    QTest::newRow("none") << QByteArray("session:42") << false;
}

void TestScanPlan::severalPatternsAreOneRunMatchedHere()
{
    QFETCH(QByteArray, key);
    QFETCH(bool, kept);
    const QList<ScanPattern> patterns{"*lock*", "mutex:*", "*:guard", "the-one", "job[0-9]:*", "star\\*"};
    const ScanPlan plan(patterns);
    // One SCAN run, not one run per pattern; its MATCH lets through every key of theirs (and more).
    // Of each pattern two of its rarer bytes in key names, in its order: c k, m x, g u, h n, j b, r *.
    QCOMPARE(plan.match(), QByteArray("*[\\c\\g\\h\\j\\m\\r]*[\\*\\b\\k\\n\\u\\x]*"));
    QCOMPARE(plan.keeps(key), kept);
    QCOMPARE(plan.keeps(key), anyGlob(patterns, key));
    if (kept)
        QVERIFY(KeyGlob::matches(plan.match(), key));
}

void TestScanPlan::aMatchAllPatternKeepsEveryKey()
{
    const ScanPlan plan({ScanPattern("lock:*"), ScanPattern("*", PatternMode::Discover)});
    QVERIFY(plan.match().isEmpty());
    QVERIFY(plan.keeps("anything"));
    QVERIFY(plan.keeps(QByteArray()));
}

void TestScanPlan::agreesWithRedisGlobOnRandomPatterns()
{
    // The shortcuts for the common shapes must judge every key as Redis's own matcher does.
    QRandomGenerator random(19);
    for (int round = 0; round < 2000; ++round) {
        const QList<ScanPattern> patterns = randomPatterns(random, "ab:*?[]\\^-", 0, 6);
        const ScanPlan plan(patterns);
        for (int k = 0; k < 20; ++k) {
            const QByteArray key = randomText(random, "ab:*?[\\", 0, 7);
            if (plan.keeps(key) != anyGlob(patterns, key)) {
                QByteArrayList texts;
                for (const ScanPattern& p : patterns)
                    texts << p.match;
                QFAIL(qPrintable(QStringLiteral("patterns %1, key %2: kept %3")
                                     .arg(QString::fromLatin1(texts.join(' ')), QString::fromLatin1(key))
                                     .arg(plan.keeps(key))));
            }
        }
    }
}

void TestScanPlan::theDefaultsGoWithOneCoveringMatch()
{
    const ScanPlan plan(ScanPattern::defaults());
    // Of *lock* c and k, of mutex:* m and x, of semaphore:* m and p (the others are *lock*'s).
    QCOMPARE(plan.match(), QByteArray("*[\\c\\m]*[\\k\\p\\x]*"));
    for (const char* key : {"lock:a", "app.lock", "redlock:r", "mutex:m", "semaphore:s", "x:lock"})
        QVERIFY2(KeyGlob::matches(plan.match(), key) && plan.keeps(key), key);
    // What the server no longer sends: keys of no pattern, most of them.
    for (const char* key : {"key:42", "session:9f2", "user:7:profile", "cache:item:3"})
        QVERIFY2(!KeyGlob::matches(plan.match(), key) && !plan.keeps(key), key);
}

void TestScanPlan::aPatternThatRequiresNoByteMeansNoMatch()
{
    // "?" and "[ab]*" match keys without a byte in common with anything: every key comes back.
    QVERIFY(ScanPlan({ScanPattern("lock:*"), ScanPattern("?")}).match().isEmpty());
    QVERIFY(ScanPlan({ScanPattern("lock:*"), ScanPattern("[ab]*")}).match().isEmpty());
    // One byte each at least: a class of one byte per pattern.
    QCOMPARE(ScanPlan({ScanPattern("lock:*"), ScanPattern("[ab]z*")}).match(), QByteArray("*[\\k\\z]*"));
}

void TestScanPlan::theCoveringMatchLetsEveryKeptKeyThrough()
{
    // Against Redis's own matcher (KeyGlob, its port; tst_coveringmatch asks a real server): every
    // key a pattern matches, the covering MATCH matches too, whatever the patterns' classes, ranges,
    // escapes and open brackets.
    QRandomGenerator random(47);
    int kept = 0, turnedAway = 0;
    for (int round = 0; round < 4000; ++round) {
        const QList<ScanPattern> patterns = randomPatterns(random, "ab:*?[]\\^-", 0, 7);
        const ScanPlan plan(patterns);
        if (plan.match().isEmpty())
            continue;
        for (int k = 0; k < 40; ++k) {
            const QByteArray key = randomText(random, "ab:*?[]\\^-", 0, 6);
            const bool through = KeyGlob::matches(plan.match(), key);
            if (plan.keeps(key) && !through)
                QFAIL(qPrintable(QStringLiteral("match %1 turns away %2, which a pattern keeps")
                                     .arg(QString::fromLatin1(plan.match()), QString::fromLatin1(key))));
            kept += plan.keeps(key) ? 1 : 0;
            turnedAway += through ? 0 : 1;
        }
    }
    // Both sides met often enough for the check to mean something.
    QVERIFY2(kept > 1000 && turnedAway > 10000,
             qPrintable(QStringLiteral("%1 %2").arg(kept).arg(turnedAway)));
}

void TestScanPlan::aLongPatternIsReadOnce()
{
    // A pattern is configuration: a megabyte of it is read in one walk (pairing every byte with every
    // later one would not end), and its rarest pair is still found: the q and z at its ends.
    const QByteArray longOne = "q" + QByteArray(1 << 20, 'e') + "z*";
    const ScanPlan plan({ScanPattern("lock:*"), ScanPattern(longOne)});
    QCOMPARE(plan.match(), QByteArray("*[\\c\\q]*[\\k\\z]*"));
    QVERIFY(plan.keeps(QByteArray(longOne.chopped(1) + "tail")));
}

void TestScanPlan::aPassMayLeaveTheCoveringMatchOut()
{
    const ScanPlan several(ScanPattern::defaults());
    QCOMPARE(several.scanCommand("0", 1000),
             QByteArrayList({"SCAN", "0", "MATCH", several.match(), "COUNT", "1000"}));
    QCOMPARE(several.scanCommand("17", 500, false), QByteArrayList({"SCAN", "17", "COUNT", "500"}));
    // A single pattern's MATCH is its filter: it always goes.
    const ScanPlan one({ScanPattern("lock:*")});
    QCOMPARE(one.scanCommand("0", 1000, false),
             QByteArrayList({"SCAN", "0", "MATCH", "lock:*", "COUNT", "1000"}));
    // Worth it while fewer than three keys in four get through.
    QVERIFY(ScanPlan::coverPays(0, 1000) && ScanPlan::coverPays(749, 1000));
    QVERIFY(!ScanPlan::coverPays(750, 1000) && !ScanPlan::coverPays(1200, 1000));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestScanPlan)

} // namespace tst_scanplan

#include "tst_scanplan.moc"
