// SPDX-License-Identifier: Apache-2.0
#include "export/csvfield.h"
#include "export/lockcsv.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_lockcsv {

using namespace lockscope;

class TestLockCsv : public QObject
{
    Q_OBJECT

private slots:
    void quotesCells_data();
    void quotesCells();
    void rowCarriesTheEscapedNameAndCountsDown();
    void rowsSplitBackIntoTheirColumns();
};

void TestLockCsv::quotesCells_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("cell");
    QTest::newRow("plain") << QStringLiteral("lock:orders") << QStringLiteral("lock:orders");
    QTest::newRow("empty") << QString() << QString();
    QTest::newRow("comma") << QStringLiteral("a,b") << QStringLiteral("\"a,b\"");
    QTest::newRow("quote") << QStringLiteral("say \"hi\"") << QStringLiteral("\"say \"\"hi\"\"\"");
    QTest::newRow("newline") << QStringLiteral("a\nb") << QStringLiteral("\"a\nb\"");
    QTest::newRow("carriage return") << QStringLiteral("a\rb") << QStringLiteral("\"a\rb\"");
    QTest::newRow("formula =") << QStringLiteral("=HYPERLINK(\"x\")")
                               << QStringLiteral("\"'=HYPERLINK(\"\"x\"\")\"");
    QTest::newRow("formula +") << QStringLiteral("+1") << QStringLiteral("'+1");
    QTest::newRow("formula -") << QStringLiteral("-2+3") << QStringLiteral("'-2+3");
    QTest::newRow("formula @") << QStringLiteral("@SUM(A1)") << QStringLiteral("'@SUM(A1)");
    QTest::newRow("equals later is fine") << QStringLiteral("a=b") << QStringLiteral("a=b");
}

void TestLockCsv::quotesCells()
{
    QFETCH(QString, text);
    QFETCH(QString, cell);
    QCOMPARE(csvField(text), cell);
}

void TestLockCsv::rowCarriesTheEscapedNameAndCountsDown()
{
    LockView v;
    v.resource = QByteArray("lock:\xff,x\n", 9);
    v.status = LockStatus::Held;
    v.format = LockFormat::PlainToken;
    v.token = "tok";
    v.owner = QStringLiteral("alice, at home");
    v.holding = 3;
    v.needed = 3;
    v.total = 5;
    v.validityMs = 10'000;
    v.computedAtMs = 1'000;
    QCOMPARE(LockCsv::row(v, 4'000), QStringLiteral("\"lock:\\xff,x\\x0a\",held,3,3,5,\"alice, at home\","
                                                    "token,tok,7000,false"));
    v.validityMs = -1;
    v.atRisk = true;
    QVERIFY(LockCsv::row(v, 4'000).endsWith(QStringLiteral(",-1,true")));
}

void TestLockCsv::rowsSplitBackIntoTheirColumns()
{
    const int columns = LockCsv::header().split(QLatin1Char(',')).size();
    LockView v;
    v.resource = "plain";
    v.owner = QStringLiteral("no commas");
    v.token = "t";
    QCOMPARE(LockCsv::row(v, 0).split(QLatin1Char(',')).size(), columns);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockCsv)

} // namespace tst_lockcsv

#include "tst_lockcsv.moc"
