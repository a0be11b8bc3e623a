// SPDX-License-Identifier: Apache-2.0
#include "insights/insightscharts.h"
#include "insights/insightsdock.h"
#include "insights/insightsmodel.h"
#include "locks/locktablemodel.h"
#include "support/quickconfig.h"
#include "support/recordedsession.h"
#include "support/recordevents.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/timebound.h"
#include "window/mainwindow.h"
#include "window/windowinsights.h"
#include "window/windowrecording.h"

#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <algorithm>
#include <cmath>
#include <memory>

namespace tst_uiinsights {

using namespace lockscope;
using namespace lockscope::test;

namespace {

using Kind = RecordEvent::Kind;

// The nearest-rank percentile of the test's own holds (the oracle: not the product's Spread).
qint64 nearestRank(QList<qint64> holds, double share)
{
    std::sort(holds.begin(), holds.end());
    const qsizetype rank =
        qBound<qsizetype>(1, qsizetype(std::ceil(share * double(holds.size()))), holds.size());
    return holds.at(rank - 1);
}

// The series of `chart` named `prefix`..., or null.
template <typename Series> Series* seriesNamed(QChart* chart, const QString& prefix)
{
    for (QAbstractSeries* s : chart->series())
        if (s->name().startsWith(prefix))
            return qobject_cast<Series*>(s);
    return nullptr;
}

} // namespace

// How locks behave, in the window (issue #44): the Insights dock over a review of a recording
// whose tenures the test wrote itself, and over the window's own recording of a real master.
class TestUiInsights : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void aReviewShowsEachFamilyRiskiestFirstWithItsPictures();
    void aNewSpanReadsAgainAndKeepsTheSelection();
    void aFileThatIsNoRecordingSaysSo();
    void liveTheWindowsOwnRecordingIsRead();

private:
    QString auditPath() const { return m_state->filePath(QStringLiteral("audit.jsonl")); }
    // A read-only window reviewing the recording `db` (`lockscope --db`), shown with its Insights
    // dock once the dock's pass is done; null when it was not.
    std::unique_ptr<MainWindow> review(const QString& db) const;
    // The same over a recording `name` of `events`, on one master; null when it cannot be written.
    std::unique_ptr<MainWindow> reviewOf(const QString& name, const RecordEventList& events) const;
    // Shows the dock and waits for its pass to finish.
    static bool showAndWait(MainWindow& window);

    std::unique_ptr<QTemporaryDir> m_state;
};

void TestUiInsights::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uiinsights"));
}

void TestUiInsights::init()
{
    m_state = std::make_unique<QTemporaryDir>();
    QVERIFY(m_state->isValid());
    qputenv("XDG_STATE_HOME", QFile::encodeName(m_state->path()));
    QSettings().remove(WindowRecording::settingsKey());
}

std::unique_ptr<MainWindow> TestUiInsights::review(const QString& db) const
{
    LockScopeConfig none;
    none.readOnly = true;
    auto window = std::make_unique<MainWindow>(none, auditPath());
    window->review(db);
    return showAndWait(*window) ? std::move(window) : nullptr;
}

std::unique_ptr<MainWindow> TestUiInsights::reviewOf(const QString& name, const RecordEventList& events) const
{
    const QString db = m_state->filePath(name);
    return recordSession(db, {QStringLiteral("redis://127.0.0.1:7001")}, events) ? review(db) : nullptr;
}

bool TestUiInsights::showAndWait(MainWindow& window)
{
    WindowInsights* insights = window.insights();
    QSignalSpy refreshed(insights, &WindowInsights::refreshed);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    insights->dock()->show();
    insights->dock()->raise();
    return refreshed.wait(20000) || (!refreshed.isEmpty());
}

void TestUiInsights::aReviewShowsEachFamilyRiskiestFirstWithItsPictures()
{
    // steady:N held 10, 20, ... 1000 ms on a 2 s lease, every one released; overrun:N held up to
    // 480 ms on a 500 ms lease, and 6 of 56 left to expire.
    const qint64 t = QDateTime::currentMSecsSinceEpoch() - 600000;
    RecordEventList events;
    QList<qint64> steady, overrun;
    for (int i = 1; i <= 100; ++i) {
        const QByteArray r = "steady:" + QByteArray::number(i), tok = "s" + QByteArray::number(i);
        events << lockEvent(t + i * 3000, Kind::Acquired, r, tok, 0b1, 2000)
               << lockEvent(t + i * 3000 + i * 10, Kind::Released, r, tok);
        steady << i * 10;
    }
    for (int i = 1; i <= 56; ++i) {
        const QByteArray r = "overrun:" + QByteArray::number(i), tok = "o" + QByteArray::number(i);
        const bool expires = i > 50;
        const qint64 hold = expires ? 500 : 230 + i * 5;
        events << lockEvent(t + i * 3000 + 1, Kind::Acquired, r, tok, 0b1, 500)
               << lockEvent(t + i * 3000 + 1 + hold, expires ? Kind::Expired : Kind::Released, r, tok);
        if (!expires)
            overrun << hold;
    }
    std::stable_sort(events.begin(), events.end(),
                     [](const RecordEvent& a, const RecordEvent& b) { return a.timeMs < b.timeMs; });
    const std::unique_ptr<MainWindow> reviewed = reviewOf(QStringLiteral("copied.sqlite"), events);
    QVERIFY(reviewed);
    MainWindow& window = *reviewed;
    InsightsModel* model = window.insights()->model();
    QCOMPARE(model->rowCount(), 2);
    const auto cell = [&](int row, int column) { return model->index(row, column).data().toString(); };
    // The flagged family first.
    QCOMPARE(cell(0, InsightsModel::Family), QStringLiteral("overrun:*"));
    QCOMPARE(cell(1, InsightsModel::Family), QStringLiteral("steady:*"));
    QCOMPARE(cell(0, InsightsModel::Locks), QStringLiteral("56"));
    QCOMPARE(cell(0, InsightsModel::Lease), QStringLiteral("500ms"));
    const qint64 overrunP99 = nearestRank(overrun, 0.99);
    QCOMPARE(cell(0, InsightsModel::HoldP99), QStringLiteral("%1ms").arg(overrunP99));
    QCOMPARE(cell(0, InsightsModel::Headroom), QString::number(double(overrunP99) / 500, 'f', 2));
    QCOMPARE(cell(0, InsightsModel::Expired), QStringLiteral("%1%").arg(std::round(600.0 / 56)));
    // Flagged cells in the warning colour, with the reason; the steady family's not.
    QVERIFY(model->index(0, InsightsModel::Headroom).data(Qt::ForegroundRole).isValid());
    QVERIFY(model->index(0, InsightsModel::Expired).data(Qt::ForegroundRole).isValid());
    QVERIFY(model->index(0, InsightsModel::Headroom)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QLatin1String("expire this lock under its holder")));
    QVERIFY(!model->index(1, InsightsModel::Headroom).data(Qt::ForegroundRole).isValid());
    QCOMPARE(cell(1, InsightsModel::HoldP50), QStringLiteral("%1ms").arg(nearestRank(steady, 0.5)));
    QCOMPARE(cell(1, InsightsModel::Expired), QStringLiteral("0.0%"));

    // The steady family's pictures: every released tenure in the histogram, the lease at 2 s.
    InsightsDock* dock = window.insights()->dock();
    dock->view()->selectRow(1);
    QChart* holds = dock->charts()->chart(InsightsCharts::Holds);
    auto* area = seriesNamed<QAreaSeries>(holds, QStringLiteral("tenures"));
    QVERIFY(area);
    qint64 counted = 0;
    const QList<QPointF> outline = area->upperSeries()->points();
    for (qsizetype i = 0; i < outline.size(); i += 2) // two points per bin: its top edge
        counted += qint64(outline.at(i).y());
    QCOMPARE(counted, steady.size());
    auto* lease = seriesNamed<QLineSeries>(holds, QStringLiteral("lease"));
    QVERIFY(lease);
    QCOMPARE(lease->name(), QStringLiteral("lease 2.0s"));
    QCOMPARE(lease->at(0).x(), 2.0); // in seconds: the axis reaches past two seconds
    auto* p99 = seriesNamed<QLineSeries>(holds, QStringLiteral("p99"));
    QVERIFY(p99);
    QCOMPARE(p99->at(0).x(), double(nearestRank(steady, 0.99)) / 1000);
    // Acquisitions over time: all 100, none lost.
    QChart* activity = dock->charts()->chart(InsightsCharts::Activity);
    auto* acquired = seriesNamed<QLineSeries>(activity, QStringLiteral("acquired"));
    QVERIFY(acquired);
    double total = 0;
    for (const QPointF& p : acquired->points())
        total += p.y();
    QCOMPARE(total, 100.0);
    QVERIFY(!seriesNamed<QLineSeries>(activity, QStringLiteral("expired")));
    QVERIFY(seriesNamed<QLineSeries>(activity, QStringLiteral("released")));
}

void TestUiInsights::aNewSpanReadsAgainAndKeepsTheSelection()
{
    // job:N every minute for an hour, held 100 ms; cache:N only in its first minutes.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    RecordEventList events;
    for (int i = 0; i < 60; ++i) {
        const qint64 at = now - 3600000 + i * 60000 + 30000; // half a minute clear of the cut
        events << lockEvent(at, Kind::Acquired, "job:" + QByteArray::number(i), "j", 0b1, 5000)
               << lockEvent(at + 100, Kind::Released, "job:" + QByteArray::number(i), "j");
        if (i < 5)
            events << lockEvent(at + 200, Kind::Acquired, "cache:" + QByteArray::number(i), "c", 0b1, 5000)
                   << lockEvent(at + 300, Kind::Released, "cache:" + QByteArray::number(i), "c");
    }
    const std::unique_ptr<MainWindow> reviewed = reviewOf(QStringLiteral("hour.sqlite"), events);
    QVERIFY(reviewed);
    MainWindow& window = *reviewed;
    InsightsModel* model = window.insights()->model();
    QCOMPARE(model->rowCount(), 2);
    InsightsDock* dock = window.insights()->dock();
    dock->view()->selectRow(model->rowOf("job:*"));
    QCOMPARE(dock->selectedFamily(), QByteArray("job:*"));
    // The last 15 minutes: job's last 15 tenures, cache's none; job stays selected.
    QSignalSpy refreshed(window.insights(), &WindowInsights::refreshed);
    dock->since()->setCurrentIndex(0);
    QVERIFY(refreshed.wait(20000));
    QCOMPARE(model->rowCount(), 1);
    QCOMPARE(model->index(0, InsightsModel::Family).data().toString(), QStringLiteral("job:*"));
    QCOMPARE(model->familyAt(0).acquisitions, 15);
    QCOMPARE(dock->selectedFamily(), QByteArray("job:*"));
}

void TestUiInsights::aFileThatIsNoRecordingSaysSo()
{
    const QString db = m_state->filePath(QStringLiteral("notes.sqlite"));
    QFile file(db);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("these are my notes, not a recording\n");
    file.close();
    const std::unique_ptr<MainWindow> reviewed = review(db);
    QVERIFY(reviewed);
    QCOMPARE(reviewed->insights()->model()->rowCount(), 0);
    auto* empty = reviewed->insights()->dock()->findChild<QLabel*>(QStringLiteral("insightsEmpty"));
    QVERIFY(empty);
    QVERIFY2(empty->text().startsWith(QLatin1String("The recording could not be read")),
             qPrintable(empty->text()));
    // Nothing was written to it.
    QFile again(db);
    QVERIFY(again.open(QIODevice::ReadOnly));
    QCOMPARE(again.readAll(), QByteArray("these are my notes, not a recording\n"));
}

void TestUiInsights::liveTheWindowsOwnRecordingIsRead()
{
    RedisServerGroup group;
    RedisServerOptions options;
    options.notifications = true;
    QVERIFY2(group.start(1, options), qPrintable(group.errorString()));
    MainWindow window(quickConfig(group), auditPath());
    QVERIFY(window.recording()->isRecording());
    // A lock the first discovery finds was taken before anyone looked: not an acquisition seen.
    QTRY_VERIFY_WITH_TIMEOUT(window.isInitialScanFinished(), 10000);
    // Three tenures of lock:report:N taken and released by another client, one left to expire.
    for (int i = 0; i < 3; ++i) {
        const QByteArray key = "lock:report:" + QByteArray::number(i);
        group.at(0).command({"SET", key, "tok-" + QByteArray::number(i), "NX", "PX", "30000"});
        QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->find(key) != nullptr, 10000);
        group.at(0).command({"DEL", key});
        QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->find(key) == nullptr, 10000);
    }
    // Long enough for the window to read it before it expires, scaled: a loaded machine reads late.
    group.at(0).command({"SET", "lock:report:9", "tok-9", "NX", "PX", QByteArray::number(upperBoundMs(300))});
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->find("lock:report:9") != nullptr, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->find("lock:report:9") == nullptr, 10000);
    QTest::qWait(1500); // committed by the recorder (its batches)
    QVERIFY(showAndWait(window));
    InsightsModel* model = window.insights()->model();
    const int row = model->rowOf("lock:report:*");
    QVERIFY2(
        row >= 0,
        qPrintable(window.insights()->dock()->findChild<QLabel*>(QStringLiteral("insightsEmpty"))->text()));
    const FamilyFigures& f = model->familyAt(row);
    QCOMPARE(f.acquisitions, 4);
    QCOMPARE(f.released, 3);
    QCOMPARE(f.expired, 1);
    // The TTL as first read, a moment after the SET.
    QVERIFY2(f.leaseMs <= 30000 && f.leaseMs > 30000 - upperBoundMs(2000),
             qPrintable(QString::number(f.leaseMs)));
    // Refresh reads it again: a fourth released tenure is counted.
    group.at(0).command({"SET", "lock:report:5", "tok-5", "NX", "PX", "30000"});
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->find("lock:report:5") != nullptr, 10000);
    group.at(0).command({"DEL", "lock:report:5"});
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->find("lock:report:5") == nullptr, 10000);
    QTest::qWait(1500);
    QSignalSpy refreshed(window.insights(), &WindowInsights::refreshed);
    window.insights()->dock()->refreshButton()->click();
    QVERIFY(refreshed.wait(20000));
    QCOMPARE(model->familyAt(model->rowOf("lock:report:*")).released, 4);
}

LOCKSCOPE_TEST_MAIN(TestUiInsights)

} // namespace tst_uiinsights

#include "tst_uiinsights.moc"
