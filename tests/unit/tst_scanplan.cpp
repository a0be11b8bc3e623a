// SPDX-License-Identifier: Apache-2.0
#include "config/keyglob.h"
#include "discovery/scanplan.h"
#include "support/testregistry.h"

#include <QRandomGenerator>
#include <QTest>

namespace tst_scanplan {

using namespace lockscope;

namespace {

bool anyGlob(const QList<ScanPattern>& patterns, const QByteArray& key)
{
    return std::any_of(patterns.cbegin(), patterns.cend(),
                       [&key](const ScanPattern& p) { return KeyGlob::matches(p.match, key); });
}

QByteArray randomText(QRandomGenerator& random, const QByteArray& alphabet, int maxLength)
{
    QByteArray text;
    const int length = int(random.bounded(maxLength + 1));
    for (int i = 0; i < length; ++i)
        text += alphabet.at(int(random.bounded(alphabet.size())));
    return text;
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
    QVERIFY(plan.match().isEmpty()); // one SCAN run without MATCH, not one run per pattern
    QCOMPARE(plan.keeps(key), kept);
    QCOMPARE(plan.keeps(key), anyGlob(patterns, key));
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
        QList<ScanPattern> patterns;
        const int n = 2 + int(random.bounded(3));
        for (int i = 0; i < n; ++i)
            patterns << ScanPattern(randomText(random, "ab:*?[]\\^-", 6));
        const ScanPlan plan(patterns);
        for (int k = 0; k < 20; ++k) {
            const QByteArray key = randomText(random, "ab:*?[\\", 7);
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

LOCKSCOPE_TEST_GUILESS_MAIN(TestScanPlan)

} // namespace tst_scanplan

#include "tst_scanplan.moc"
