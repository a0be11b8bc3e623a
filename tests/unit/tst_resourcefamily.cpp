// SPDX-License-Identifier: Apache-2.0
#include "record/resourcefamily.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_resourcefamily {

using namespace lockscope;

class TestResourceFamily : public QObject
{
    Q_OBJECT

private slots:
    void folds_data();
    void folds();
};

void TestResourceFamily::folds_data()
{
    QTest::addColumn<QByteArray>("resource");
    QTest::addColumn<QByteArray>("family");
    QTest::newRow("digits") << QByteArray("order:1234") << QByteArray("order:*");
    QTest::newRow("hex id") << QByteArray("order:88aa77bb66cc") << QByteArray("order:*");
    QTest::newRow("uuid") << QByteArray("job:3f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b:run")
                          << QByteArray("job:*:run");
    QTest::newRow("two ids") << QByteArray("user:12:order:34") << QByteArray("user:*:order:*");
    QTest::newRow("a word with a digit") << QByteArray("v2api:lock") << QByteArray("v2api:lock");
    QTest::newRow("hex-looking word, no digit") << QByteArray("cafe:deadbeef") << QByteArray("cafe:deadbeef");
    QTest::newRow("short hex with a digit") << QByteArray("shard:a1") << QByteArray("shard:a1");
    QTest::newRow("no variable part") << QByteArray("lock:{accounts}") << QByteArray("lock:{accounts}");
    QTest::newRow("legacy SETNX name") << QByteArray("lock.day:cron") << QByteArray("lock.day:cron");
    QTest::newRow("empty") << QByteArray() << QByteArray();
    QTest::newRow("binary bytes stay") << QByteArray("k:\xff\x00:7", 6) << QByteArray("k:\xff\x00:*", 6);
}

void TestResourceFamily::folds()
{
    QFETCH(QByteArray, resource);
    QFETCH(QByteArray, family);
    QCOMPARE(ResourceFamily::of(resource), family);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestResourceFamily)

} // namespace tst_resourcefamily

#include "tst_resourcefamily.moc"
