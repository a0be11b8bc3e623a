// SPDX-License-Identifier: Apache-2.0
#include "formats/lockformatrecognizer.h"
#include "support/recognizersamples.h"
#include "support/testregistry.h"

#include <QTest>

#include <limits>

namespace tst_lockformatsemaphores {

using namespace lockscope;
using namespace lockscope::test;

// The semaphore family of LockFormatRecognizer (formats/semaphoreformats): redis-semaphore's sorted
// sets of permits, and sorted sets of no known shape. Its mutex strings are with the strings
// (tst_lockformatstrings).
class TestLockFormatSemaphores : public QObject
{
    Q_OBJECT

private slots:
    void recognizesSemaphores_data();
    void recognizesSemaphores();
    void survivesHugeSemaphores();
};

void TestLockFormatSemaphores::recognizesSemaphores_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArrayList>("members");
    QTest::addColumn<QList<double>>("scores");
    QTest::addColumn<int>("format");
    QTest::addColumn<QByteArray>("token");
    QTest::addColumn<QString>("owner");
    QTest::addColumn<QString>("detail");
    QTest::addColumn<QStringList>("holders");

    const QByteArray u1 = "0b8e8c52-6a3c-4a55-9d1e-2f2d9b6a0c11";
    const QByteArray u2 = "5d0f3a44-1e2b-4c6d-8e9f-a0b1c2d3e4f5";
    const QByteArray u3 = "e2a1b3c4-d5e6-4f70-8192-a3b4c5d6e7f8";
    const double t = 1750000000123.0;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();

    // Under "semaphore:pool": `detail` is "N holders, M permits".
    auto pool = [](const char* name, const QByteArrayList& members, const QList<double>& scores,
                   const QByteArray& token, const QString& owner, const char* detail,
                   const QStringList& holders) {
        QTest::newRow(name) << QByteArray("semaphore:pool") << members << scores << int(LockFormat::Semaphore)
                            << token << owner << QString::fromLatin1(detail) << holders;
    };

    pool("one holder", {u2}, {t}, u2, {}, "1 holders, 1 permits", {holderText(u2, {}, 1, 1750000000123LL)});
    pool("three holders sorted into the token", {u3, u1, u2}, {t + 2, t, t + 1}, u1 + ',' + u2 + ',' + u3,
         QStringLiteral("3 holders"), "3 holders, 3 permits",
         {holderText(u1, {}, 1, 1750000000123LL), holderText(u2, {}, 1, 1750000000124LL),
          holderText(u3, {}, 1, 1750000000125LL)});
    pool("multi-permit holder grouped", {u1 + "_0", u1 + "_1", u1 + "_2"}, {t, t, t}, u1, {},
         "1 holders, 3 permits", {holderText(u1, {}, 3, 1750000000123LL)});
    pool("multi-permit and single holders", {u2 + "_1", u3, u2 + "_0"}, {t + 5, t, t + 4}, u2 + ',' + u3,
         QStringLiteral("2 holders"), "2 holders, 3 permits",
         {holderText(u2, {}, 2, 1750000000127LL), holderText(u3, {}, 1, 1750000000123LL)});
    pool("underscore without a number is part of the id", {"worker_a", "worker_"}, {t, t}, "worker_,worker_a",
         QStringLiteral("2 holders"), "2 holders, 2 permits",
         {holderText("worker_", {}, 1, 1750000000123LL), holderText("worker_a", {}, 1, 1750000000123LL)});
    pool("infinite and NaN scores have no time", {"a", "b", "c"}, {inf, nan, -inf}, "a,b,c",
         QStringLiteral("3 holders"), "3 holders, 3 permits",
         {holderText("a", {}), holderText("b", {}), holderText("c", {})});
    QTest::newRow("zset outside semaphore: is unknown")
        << QByteArray("leaderboard-lock") << QByteArrayList{u2, u1} << QList<double>{t, t}
        << int(LockFormat::Unknown) << QByteArray(u1 + ',' + u2) << QString() << QStringLiteral("sorted set")
        << QStringList();
}

void TestLockFormatSemaphores::recognizesSemaphores()
{
    QFETCH(QByteArray, key);
    QFETCH(QByteArrayList, members);
    QFETCH(QList<double>, scores);
    QFETCH(int, format);
    QFETCH(QByteArray, token);
    QFETCH(QString, owner);
    QFETCH(QString, detail);
    QFETCH(QStringList, holders);

    const RecognizedLock lock =
        LockFormatRecognizer::recognize(key, zsetObservation(members, scores), {}, kNowMs);
    QCOMPARE(describeLock(lock), expectedLock(LockFormat(format), token, owner, detail, holders));
}

void TestLockFormatSemaphores::survivesHugeSemaphores()
{
    const int n = 100000;
    QByteArrayList members;
    QList<double> scores;
    for (int i = 0; i < n; ++i) {
        members << QByteArray::number(i) + "-id_" + QByteArray::number(i % 3);
        scores << 1750000000000.0 + i;
    }
    const RecognizedLock semaphore =
        LockFormatRecognizer::recognize("semaphore:big", zsetObservation(members, scores), {}, kNowMs);
    QCOMPARE(semaphore.format, LockFormat::Semaphore);
    QCOMPARE(semaphore.holderList().size(), n);
    QCOMPARE(semaphore.holderList().first().id, QByteArray("0-id"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockFormatSemaphores)

} // namespace tst_lockformatsemaphores

#include "tst_lockformatsemaphores.moc"
