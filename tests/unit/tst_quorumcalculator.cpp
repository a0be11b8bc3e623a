// SPDX-License-Identifier: Apache-2.0
#include "monitor/quorumcalculator.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_quorumcalculator {

using namespace lockscope;

namespace {

// A compact way to describe one master: "" absent, "?" unreachable, "tok" present with PTTL,
// "tok!" present without expiry.
QList<MasterObservation> masters(const QStringList& spec, qint64 pttl = 10000, qint64 readAt = 1000)
{
    QList<MasterObservation> out;
    for (const QString& s : spec) {
        KeyObservation key;
        RecognizedLock lock;
        key.readAtMs = readAt;
        if (s == QLatin1String("?")) {
            key.error = RedisError(ErrorKind::Timeout, QStringLiteral("m"), QStringLiteral("no reply"));
        } else if (!s.isEmpty()) {
            key.present = true;
            key.type = "string";
            const bool noExpiry = s.endsWith(QLatin1Char('!'));
            lock.token = (noExpiry ? s.chopped(1) : s).toUtf8();
            lock.format = LockFormat::PlainToken;
            key.value = lock.token;
            key.pttlMs = noExpiry ? -1 : pttl;
        } else {
            key.pttlMs = -2;
        }
        out << MasterObservation(key, lock);
    }
    return out;
}

} // namespace

class TestQuorumCalculator : public QObject
{
    Q_OBJECT

private slots:
    void status_data();
    void status();
    void validityUsesNeededThLongestTtl();
    void validityCountsDownFromReadTime();
    void legacyTimestamps();
    void tieBreakIsDeterministic();
};

void TestQuorumCalculator::status_data()
{
    QTest::addColumn<QStringList>("spec");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("holding");
    QTest::addColumn<int>("needed");
    QTest::addColumn<QList<int>>("holders");

    const int held = int(LockStatus::Held), partial = int(LockStatus::Partial),
              contested = int(LockStatus::Contested), stuck = int(LockStatus::Stuck),
              unknown = int(LockStatus::Unknown);
    QTest::newRow("single master held") << QStringList{"a"} << held << 1 << 1 << QList<int>{0};
    QTest::newRow("single master no expiry") << QStringList{"a!"} << stuck << 1 << 1 << QList<int>{0};
    QTest::newRow("single master unreachable") << QStringList{"?"} << unknown << 0 << 1 << QList<int>{};
    QTest::newRow("5/5 held") << QStringList{"a", "a", "a", "a", "a"} << held << 5 << 3
                              << QList<int>{0, 1, 2, 3, 4};
    QTest::newRow("3/5 held, rest absent")
        << QStringList{"a", "", "a", "", "a"} << held << 3 << 3 << QList<int>{0, 2, 4};
    QTest::newRow("3/5 held, 2 down")
        << QStringList{"a", "?", "a", "?", "a"} << held << 3 << 3 << QList<int>{0, 2, 4};
    QTest::newRow("2/5 partial leftovers")
        << QStringList{"a", "a", "", "", ""} << partial << 2 << 3 << QList<int>{0, 1};
    QTest::newRow("2/5 with 1 down could be held")
        << QStringList{"a", "a", "", "", "?"} << unknown << 2 << 3 << QList<int>{0, 1};
    QTest::newRow("1/5 with 3 down") << QStringList{"a", "?", "?", "?", ""} << unknown << 1 << 3
                                     << QList<int>{0};
    QTest::newRow("contested 3 vs 2")
        << QStringList{"a", "a", "a", "b", "b"} << contested << 3 << 3 << QList<int>{0, 1, 2};
    QTest::newRow("contested split 2/2/1")
        << QStringList{"a", "b", "a", "b", "c"} << contested << 2 << 3 << QList<int>{0, 2};
    QTest::newRow("contested beats unknown")
        << QStringList{"a", "b", "?", "?", "?"} << contested << 1 << 3 << QList<int>{0};
    QTest::newRow("stuck on quorum") << QStringList{"a!", "a!", "a!"} << stuck << 3 << 2
                                     << QList<int>{0, 1, 2};
    QTest::newRow("stuck when one holder lost its ttl")
        << QStringList{"a", "a!", "a"} << stuck << 3 << 2 << QList<int>{0, 1, 2};
    QTest::newRow("partial and stuck") << QStringList{"a!", "", ""} << stuck << 1 << 2 << QList<int>{0};
    QTest::newRow("even N needs strict majority")
        << QStringList{"a", "a", "", ""} << partial << 2 << 3 << QList<int>{0, 1};
}

void TestQuorumCalculator::status()
{
    QFETCH(QStringList, spec);
    QFETCH(int, status);
    QFETCH(int, holding);
    QFETCH(int, needed);
    QFETCH(QList<int>, holders);
    const LockView v = QuorumCalculator::compute("r", masters(spec), RedlockSettings(), 1000);
    QCOMPARE(lockStatusName(v.status), lockStatusName(LockStatus(status)));
    QCOMPARE(v.holding, holding);
    QCOMPARE(v.needed, needed);
    QCOMPARE(v.total, int(spec.size()));
    QCOMPARE(v.holders, holders);
    QCOMPARE(v.observations.size(), spec.size());
}

void TestQuorumCalculator::validityUsesNeededThLongestTtl()
{
    QList<MasterObservation> obs = masters({"a", "a", "a", "a", ""});
    obs[0].setExpiry(9000, obs[0].readAtMs());
    obs[1].setExpiry(5000, obs[1].readAtMs());
    obs[2].setExpiry(7000, obs[2].readAtMs());
    obs[3].setExpiry(1000, obs[3].readAtMs());
    // Sorted: 9000, 7000, 5000, 1000: the lock is valid while 3 masters hold it, i.e. 5000 ms,
    // less the drift allowance of 5000 * 0.01 + 2.
    const LockView v = QuorumCalculator::compute("r", obs, RedlockSettings(), 1000);
    QCOMPARE(v.validityMs, qint64(5000 - 52));
}

void TestQuorumCalculator::validityCountsDownFromReadTime()
{
    const LockView v = QuorumCalculator::compute("r", masters({"a"}, 10000, 1000), RedlockSettings(), 4000);
    QCOMPARE(v.validityMs, qint64(7000 - 72));
    QCOMPARE(v.validityAt(5000), qint64(7000 - 72 - 1000));
    QCOMPARE(v.validityAt(100000), qint64(0));
    const LockView endless = QuorumCalculator::compute("r", masters({"a!"}), RedlockSettings(), 1000);
    QCOMPARE(endless.validityMs, qint64(-1));
    QCOMPARE(endless.validityAt(999999), qint64(-1));
}

void TestQuorumCalculator::legacyTimestamps()
{
    const MasterObservation read = masters({"1700000000!"}).first();
    auto legacy = [&read](bool expired) {
        RecognizedLock lock = read.lock();
        lock.format = LockFormat::LegacyTimestamp;
        lock.setExpiresAtMs(1700000000000);
        lock.expiredByTimestamp = expired;
        return QList<MasterObservation>{MasterObservation(read.key(), lock)};
    };
    QCOMPARE(QuorumCalculator::compute("r", legacy(true), RedlockSettings(), 1000).status, LockStatus::Stuck);
    QCOMPARE(QuorumCalculator::compute("r", legacy(false), RedlockSettings(), 1000).status, LockStatus::Held);

    // Its timestamp is its expiry: 30 s ahead when read (at 1000 ms), the validity counts down from
    // it like a TTL's (less the drift allowance), not "no expiry" ...
    QList<MasterObservation> ahead = legacy(false);
    RecognizedLock lock = ahead.first().lock();
    lock.setTimestampLeftMs(30000);
    ahead = {MasterObservation(read.key(), lock)};
    const LockView held = QuorumCalculator::compute("r", ahead, RedlockSettings(), 1000);
    QCOMPARE(held.status, LockStatus::Held);
    QCOMPARE(held.validityMs, qint64(30000 - 302));
    QCOMPARE(QuorumCalculator::compute("r", ahead, RedlockSettings(), 11000).validityMs, qint64(20000 - 202));
    // ... and once the timestamp has passed with no TTL, it is stuck: nothing will ever remove it.
    const LockView passed = QuorumCalculator::compute("r", ahead, RedlockSettings(), 31001);
    QCOMPARE(passed.status, LockStatus::Stuck);
    QCOMPARE(passed.validityMs, qint64(-1));
}

void TestQuorumCalculator::tieBreakIsDeterministic()
{
    QList<MasterObservation> obs = masters({"b", "a", "", ""});
    obs[0].setExpiry(9000, obs[0].readAtMs());
    obs[1].setExpiry(4000, obs[1].readAtMs());
    // Equal counts: the token that lasts longer is the one shown.
    QCOMPARE(QuorumCalculator::compute("r", obs, RedlockSettings(), 1000).token, QByteArray("b"));
    obs[1].setExpiry(9000, obs[1].readAtMs());
    QCOMPARE(QuorumCalculator::compute("r", obs, RedlockSettings(), 1000).token, QByteArray("a"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestQuorumCalculator)

} // namespace tst_quorumcalculator

#include "tst_quorumcalculator.moc"
