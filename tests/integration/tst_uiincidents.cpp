// SPDX-License-Identifier: Apache-2.0
#include "detail/lockdetailpane.h"
#include "eventlog/eventlogmodel.h"
#include "history/historydock.h"
#include "history/historytimeline.h"
#include "incidents/incidentsdock.h"
#include "incidents/incidentsmodel.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "notifications/desktopnotifier.h"
#include "notifications/lockdiagnosiswatch.h"
#include "support/quickconfig.h"
#include "support/recordedsession.h"
#include "support/recordevents.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"
#include "window/windowincidents.h"
#include "window/windowrecording.h"

#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <memory>

namespace tst_uiincidents {

using namespace lockscope;
using namespace lockscope::test;

namespace {

using test::lockEvent;

RecordEvent restarted(qint64 ms, int master)
{
    return test::masterEvent(ms, RecordEvent::Kind::MasterRestarted, master,
                             QStringLiteral("run_id a1 → 9c"));
}

} // namespace

// Two holders at once in the window (issue #42): the Incidents dock, its count in the status bar
// and the double-grant notification, live from the window's own recording on real masters, and in
// the review of a recording (`lockscope --db`).
class TestUiIncidents : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void aReviewListsTheRecordingsIncidents();
    void liveARestartThatGrantsTwiceIsListedAndNotified();
    void aFencingRegressionSaysItsCounterValues();

private:
    QString auditPath() const { return m_state->filePath(QStringLiteral("audit.jsonl")); }
    static QToolButton* badge(MainWindow& window)
    {
        return window.statusBar()->findChild<QToolButton*>(QStringLiteral("incidentsBadge"));
    }

    std::unique_ptr<QTemporaryDir> m_state;
};

void TestUiIncidents::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uiincidents"));
}

void TestUiIncidents::init()
{
    m_state = std::make_unique<QTemporaryDir>();
    QVERIFY(m_state->isValid());
    qputenv("XDG_STATE_HOME", QFile::encodeName(m_state->path()));
    QSettings().remove(WindowRecording::settingsKey());
}

void TestUiIncidents::aReviewListsTheRecordingsIncidents()
{
    // A recording from elsewhere: a clean handover on lock:q; on lock:r, A on three masters, two
    // of them restarted empty, B on those two while A's validity runs.
    const QString db = m_state->filePath(QStringLiteral("copied.sqlite"));
    const qint64 t = QDateTime::currentMSecsSinceEpoch() - 60000;
    using Kind = RecordEvent::Kind;
    QVERIFY(recordSession(db,
                          {QStringLiteral("redis://127.0.0.1:7001"), QStringLiteral("redis://127.0.0.1:7002"),
                           QStringLiteral("redis://127.0.0.1:7003")},
                          {lockEvent(t, Kind::Acquired, "lock:q", "Q1", 0b111, 5000),
                           lockEvent(t + 10, Kind::Released, "lock:q", "Q1"),
                           lockEvent(t + 11, Kind::Acquired, "lock:q", "Q2", 0b111, 5000),
                           lockEvent(t + 100, Kind::Acquired, "lock:r", "tok-A", 0b111, 60000),
                           restarted(t + 1000, 0), restarted(t + 1000, 1),
                           lockEvent(t + 1100, Kind::Holders, "lock:r", "tok-A", 0b100),
                           lockEvent(t + 2000, Kind::Contested, "lock:r", "tok-B", 0b011, 60000)}));
    LockScopeConfig none;
    none.readOnly = true;
    MainWindow window(none, auditPath());
    window.review(db);
    IncidentsModel* incidents = window.incidents()->model();
    QTRY_COMPARE_WITH_TIMEOUT(incidents->rowCount(), 1, 10000);
    const auto cell = [&](int column) { return incidents->index(0, column).data().toString(); };
    QCOMPARE(cell(IncidentsModel::Confidence), QStringLiteral("proven"));
    QCOMPARE(cell(IncidentsModel::Kind), QStringLiteral("majority-overlap"));
    QCOMPARE(cell(IncidentsModel::Lock), QStringLiteral("lock:r"));
    QCOMPARE(cell(IncidentsModel::Holders), QStringLiteral("tok-A and tok-B"));
    QVERIFY(cell(IncidentsModel::Cause).contains(QLatin1String("restart")));
    QVERIFY(
        incidents->index(0, 0).data(Qt::ToolTipRole).toString().contains(QLatin1String("contested tok-B")));
    QVERIFY(badge(window)->isVisibleTo(&window));
    QCOMPARE(badge(window)->text(), QStringLiteral("Two holders at once: 1"));
    // A file from the past notifies nobody.
    QCOMPARE(window.diagnosisWatch()->notifier()->sentCount(), 0);
    // Activating the row shows that lock's story.
    IncidentsDock* dock = window.incidents()->dock();
    emit dock->view()->activated(incidents->index(0, 0));
    QTRY_COMPARE(window.historyDock()->resources()->currentText(), QStringLiteral("lock:r"));
    // Its story too, not only its name in the list (which may have been still read meanwhile).
    HistoryTimeline* timeline = window.historyDock()->timeline();
    QTRY_VERIFY(std::any_of(timeline->episodes().cbegin(), timeline->episodes().cend(),
                            [](const Episode& e) { return e.token == "tok-B"; }));
}

void TestUiIncidents::liveARestartThatGrantsTwiceIsListedAndNotified()
{
    RedisServerGroup group;
    RedisServerOptions options;
    options.notifications = true;
    QVERIFY2(group.start(3, options), qPrintable(group.errorString()));
    MainWindow window(quickConfig(group), auditPath());
    QVERIFY(window.recording()->isRecording());
    const QString incidentsTab = window.incidents()->dock()->windowTitle();
    QCOMPARE(incidentsTab, QStringLiteral("Incidents"));
    QVERIFY(!badge(window)->isVisibleTo(&window));

    // A holds lock:x on all three masters for a minute.
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:x", "tok-A", "PX", "60000"});
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->find("lock:x") != nullptr, 10000);
    QTest::qWait(500); // recorded with its quorum
    // Two of them restart without persistence: A is left on one; B takes the two.
    QVERIFY(group.at(0).restart());
    QVERIFY(group.at(1).restart());
    QTest::qWait(1500); // the window sees them back (new run_id) and A on one master
    for (int i : {0, 1})
        group.at(i).command({"SET", "lock:x", "tok-B", "NX", "PX", "60000"});

    IncidentsModel* incidents = window.incidents()->model();
    QTRY_COMPARE_WITH_TIMEOUT(incidents->rowCount(), 1, 15000);
    const SafetyIncident& i = incidents->incidentAt(0);
    QCOMPARE(i.firstToken, QByteArray("tok-A"));
    QCOMPARE(i.secondToken, QByteArray("tok-B"));
    QCOMPARE(i.confidence, SafetyIncident::Confidence::Proven);
    QCOMPARE(badge(window)->text(), QStringLiteral("Two holders at once: 1"));
    // The double-grant rule: one notification, in the event log as a notification.
    bool logged = false;
    for (int r = 0; r < window.eventLog()->rowCount(); ++r) {
        const EventLogModel::Entry& e = window.eventLog()->entry(r);
        logged |= e.kind == EventLogModel::Kind::Notification &&
                  e.message.contains(QLatin1String("Two holders at once"));
    }
    QVERIFY(logged);
    // The detail pane names it for the lock.
    window.lockView()->selectResource("lock:x");
    QLabel* named = window.detailPane()->incidentsLabel();
    QTRY_VERIFY(named->isVisibleTo(window.detailPane()));
    QVERIFY2(named->text().contains(
                 QLatin1String("Two holders at once (proven, majority-overlap): tok-A and tok-B")),
             qPrintable(named->text()));
    // Clicking the count shows the dock.
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    badge(window)->click();
    QTRY_VERIFY(window.incidents()->dock()->isVisible());
}

void TestUiIncidents::aFencingRegressionSaysItsCounterValues()
{
    // Its "tokens" are the counter's two values: the list and the tooltip say so, not "holders".
    IncidentsModel model;
    SafetyIncident i;
    i.kind = SafetyIncident::Kind::FencingRegression;
    i.resource = "orders";
    i.firstToken = "5";
    i.secondToken = "1";
    i.cause = QStringLiteral("its fencing counter (redisson_lock_token:{orders}) read 1 on M1 after 5 there");
    QVERIFY(model.add(i));
    QCOMPARE(model.index(0, IncidentsModel::Kind).data().toString(), QStringLiteral("fencing-regression"));
    QCOMPARE(model.index(0, IncidentsModel::Holders).data().toString(),
             QStringLiteral("fencing counter 5, then 1"));
    const QString tip = model.index(0, IncidentsModel::Holders).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QLatin1String("counter's highest before: 5")) &&
                 tip.contains(QLatin1String("then read: 1")) && !tip.contains(QLatin1String("holder:")),
             qPrintable(tip));
}

LOCKSCOPE_TEST_MAIN(TestUiIncidents)

} // namespace tst_uiincidents

#include "tst_uiincidents.moc"
