// SPDX-License-Identifier: Apache-2.0
#include "base/durationformat.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_durationformat {

using namespace lockscope;

// The one duration formatter, in each of its styles.
class TestDurationFormat : public QObject
{
    Q_OBJECT

private slots:
    void eachStyle_data();
    void eachStyle();
};

void TestDurationFormat::eachStyle_data()
{
    QTest::addColumn<qint64>("ms");
    QTest::addColumn<QString>("spaced");
    QTest::addColumn<QString>("compact");
    QTest::addColumn<QString>("milliseconds");
    QTest::newRow("negative") << qint64(-1) << QString() << QString() << QString();
    QTest::newRow("zero") << qint64(0) << QStringLiteral("0.0 s") << QStringLiteral("0.0s")
                          << QStringLiteral("0ms");
    QTest::newRow("433 ms") << qint64(433) << QStringLiteral("0.4 s") << QStringLiteral("0.4s")
                            << QStringLiteral("433ms");
    QTest::newRow("a second") << qint64(1000) << QStringLiteral("1.0 s") << QStringLiteral("1.0s")
                              << QStringLiteral("1.0s");
    QTest::newRow("123 s") << qint64(123000) << QStringLiteral("2 m 03 s") << QStringLiteral("2m03s")
                           << QStringLiteral("2m03s");
    QTest::newRow("two days") << qint64(2 * 86400000 + 3600000) << QStringLiteral("2 d 1 h")
                              << QStringLiteral("49h00m") << QStringLiteral("49h00m");
}

void TestDurationFormat::eachStyle()
{
    QFETCH(qint64, ms);
    QFETCH(QString, spaced);
    QFETCH(QString, compact);
    QFETCH(QString, milliseconds);
    QCOMPARE(formatDuration(ms, DurationStyle::Spaced), spaced);
    QCOMPARE(formatDuration(ms, DurationStyle::Compact), compact);
    QCOMPARE(formatDuration(ms, DurationStyle::CompactMilliseconds), milliseconds);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestDurationFormat)

} // namespace tst_durationformat

#include "tst_durationformat.moc"
