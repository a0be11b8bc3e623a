// SPDX-License-Identifier: Apache-2.0
#include "base/monotonicclock.h"
#include "detail/lockdetailpane.h"
#include "detail/quorumdiagram.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uidetailcountdown {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// "58123 ms" (any space) -> 58123; -1 when it is not a number of ms.
qint64 msOf(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("^(\\d+)\\s*ms$"));
    const QRegularExpressionMatch m = re.match(QString(text).replace(QChar::Nbsp, QLatin1Char(' ')));
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

// The validity the pane shows ("validity 58.1 s", "validity 1 m 58 s") in ms; -1 when absent.
qint64 summaryValidityMs(const QString& summary)
{
    const QString text = QString(summary).replace(QChar::Nbsp, QLatin1Char(' '));
    static const QRegularExpression seconds(QStringLiteral("validity (\\d+\\.\\d) s"));
    static const QRegularExpression minutes(QStringLiteral("validity (\\d+) m (\\d+) s"));
    if (const auto m = seconds.match(text); m.hasMatch())
        return qint64(m.captured(1).toDouble() * 1000);
    if (const auto m = minutes.match(text); m.hasMatch())
        return (m.captured(1).toLongLong() * 60 + m.captured(2).toLongLong()) * 1000;
    return -1;
}

qint64 panePttl(MainWindow& window, int master)
{
    QTableWidgetItem* item = window.detailPane()->mastersTable()->item(master, LockDetailPane::PttlColumn);
    return item ? msOf(item->text()) : -1;
}

qint64 tableValidity(MainWindow& window, const QByteArray& resource)
{
    const int row = window.lockModel()->rowOf(resource);
    return window.lockModel()->index(row, 0).data(LockTableModel::ValidityRole).toLongLong();
}

} // namespace

class TestUiDetailCountdown : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void pttlAndValidityCountDownWithTheTable();

private:
    QTemporaryDir m_dir;
};

void TestUiDetailCountdown::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uidetailcountdown"));
}

void TestUiDetailCountdown::pttlAndValidityCountDownWithTheTable()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int i = 0; i < 3; ++i)
        QVERIFY(!group.at(i).command({"SET", "lock:c", "tok-c", "PX", "60000"}).isError());
    MainWindow window(quickConfig(group), m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 1, 5000);
    window.lockView()->selectResource("lock:c");
    QVERIFY(window.detailPane()->view().has_value());
    QVERIFY(panePttl(window, 0) > 0);

    // Time passes on the server: well past the reads the pane started from.
    QTRY_VERIFY_WITH_TIMEOUT(group.at(0).command({"PTTL", "lock:c"}).integer < 57500, 10000);
    for (int master = 0; master < 3; ++master) {
        // The pane's text is from its last tick, which ran before this blocking read: the read's own
        // time (long on a loaded machine) is part of the allowance.
        QElapsedTimer reading;
        reading.start();
        const qint64 server = group.at(master).command({"PTTL", "lock:c"}).integer;
        const qint64 slack = LockDetailPane::tickMs + 200 + reading.elapsed();
        // Read after the server's answer: never more than what the server said, but for the tick
        // since the pane last counted (and a loaded machine's delay in running it).
        const qint64 pane = panePttl(window, master);
        QVERIFY2(pane >= 0 && pane <= server + slack,
                 qPrintable(
                     QStringLiteral("M%1: pane %2 ms, server %3 ms").arg(master + 1).arg(pane).arg(server)));
        const qint64 drawn = msOf(window.detailPane()->diagram()->nodeTtlText(master, monotonicMs()));
        QVERIFY2(
            drawn >= 0 && drawn <= server + slack,
            qPrintable(
                QStringLiteral("diagram M%1: %2 ms, server %3 ms").arg(master + 1).arg(drawn).arg(server)));
    }
    // The validity in the pane is the table's, counted down alike (one tick and the 0.1 s rounding apart).
    const qint64 paneValidity = summaryValidityMs(window.detailPane()->validityLabel()->text());
    const qint64 table = tableValidity(window, "lock:c");
    QVERIFY2(paneValidity >= 0 && paneValidity <= table + LockDetailPane::tickMs + 300,
             qPrintable(QStringLiteral("pane %1 ms, table %2 ms").arg(paneValidity).arg(table)));

    // And both keep going down without any news from the masters.
    const qint64 pttlBefore = panePttl(window, 0);
    QTRY_VERIFY_WITH_TIMEOUT(panePttl(window, 0) < pttlBefore - 300, 3000);
    QTRY_VERIFY_WITH_TIMEOUT(
        summaryValidityMs(window.detailPane()->validityLabel()->text()) < paneValidity - 300, 3000);

    // Extended (another client's PEXPIRE): the pane shows the new PTTL without reselecting.
    for (int i = 0; i < 3; ++i)
        QVERIFY(!group.at(i).command({"PEXPIRE", "lock:c", "240000"}).isError());
    QTRY_VERIFY_WITH_TIMEOUT(panePttl(window, 0) > 200000, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(panePttl(window, 2) > 200000, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(summaryValidityMs(window.detailPane()->validityLabel()->text()) > 200000, 5000);
    // Each master's extension arrives on its own: the diagram's middle node may still be on its way.
    QTRY_VERIFY_WITH_TIMEOUT(msOf(window.detailPane()->diagram()->nodeTtlText(1, monotonicMs())) > 200000,
                             5000);
    QCOMPARE(window.lockView()->currentResource(), QByteArray("lock:c"));
    const qint64 extended = panePttl(window, 0);
    QTRY_VERIFY_WITH_TIMEOUT(panePttl(window, 0) < extended - 300, 3000);
}

LOCKSCOPE_TEST_MAIN(TestUiDetailCountdown)

} // namespace tst_uidetailcountdown

#include "tst_uidetailcountdown.moc"
