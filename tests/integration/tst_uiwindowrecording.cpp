// SPDX-License-Identifier: Apache-2.0
#include "audit/auditlog.h"
#include "history/historydock.h"
#include "history/historytimeline.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "notifications/desktopnotifier.h"
#include "notifications/lockdiagnosiswatch.h"
#include "record/recordingdatabase.h"
#include "record/recordingreader.h"
#include "session/launchoptions.h"
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "widgets/statusstyle.h"
#include "window/mainwindow.h"
#include "window/windowrecording.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace tst_uiwindowrecording {

using namespace lockscope;
using namespace lockscope::test;

// The window's flight recording (issue #15): it records while it runs, a window opened later shows
// what was recorded before it (and the gaps where nobody watched), the switch off records nothing,
// and `lockscope --db FILE` reviews a recording without any master.
class TestUiWindowRecording : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void historyAfterARestartOfTheWindow();
    void switchedOffRecordsNothing();
    void noRecordRecordsNothing();
    void reviewShowsHistoryWithoutMasters();
    void reviewEndsAnOpenLockWhereTheRecordingStopped();
    void theDemoRecordsApart();

private:
    // The window's audit log, in this test's own directory.
    QString auditPath() const { return m_state->filePath(QStringLiteral("audit.jsonl")); }
    QString recordingPath() const { return m_state->filePath(QStringLiteral("lockscope/recording.sqlite")); }
    static QStringList tokens(const QList<Episode>& episodes);
    // `lockctl record --db DB` on the group's masters, once it says it records.
    static bool startRecorder(LockctlProcess& recorder, RedisServerGroup& group, const QString& db);
    // Takes `token` on `resource`, waits until `window` shows it, deletes it and waits until it is gone.
    static bool takeAndRelease(RedisServer& server, MainWindow& window, const QByteArray& resource,
                               const QByteArray& token);
    // INFO stats total_connections_received: every connection the server ever accepted.
    static qint64 connectionsReceived(RedisServer& server);
    // Every event recorded so far (0 when there is no recording).
    int recordedEvents() const;

    std::unique_ptr<QTemporaryDir> m_state;
};

void TestUiWindowRecording::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uiwindowrecording"));
}

void TestUiWindowRecording::init()
{
    // Each test its own state directory (the default recording lives there) and settings.
    m_state = std::make_unique<QTemporaryDir>();
    QVERIFY(m_state->isValid());
    qputenv("XDG_STATE_HOME", QFile::encodeName(m_state->path()));
    QSettings().remove(WindowRecording::settingsKey());
}

bool TestUiWindowRecording::startRecorder(LockctlProcess& recorder, RedisServerGroup& group,
                                          const QString& db)
{
    return recorder.start(group.lockctlArgs() +
                          QStringList{QStringLiteral("record"), QStringLiteral("--db"), db}) &&
           recorder.waitForOutput(QStringLiteral("recording %1 master(s)").arg(group.size()).toUtf8());
}

QStringList TestUiWindowRecording::tokens(const QList<Episode>& episodes)
{
    QStringList out;
    for (const Episode& e : episodes)
        out << QString::fromUtf8(e.token) + QLatin1Char(':') + HistoryTimeline::endText(e.ended);
    return out;
}

bool TestUiWindowRecording::takeAndRelease(RedisServer& server, MainWindow& window,
                                           const QByteArray& resource, const QByteArray& token)
{
    server.command({"SET", resource, token, "PX", "60000"});
    if (!QTest::qWaitFor([&] { return window.lockModel()->find(resource) != nullptr; },
                         int(lockscope::test::upperBoundMs(10000))))
        return false;
    server.command({"DEL", resource});
    return QTest::qWaitFor([&] { return window.lockModel()->find(resource) == nullptr; },
                           int(lockscope::test::upperBoundMs(10000)));
}

qint64 TestUiWindowRecording::connectionsReceived(RedisServer& server)
{
    for (const QByteArray& line : server.command({"INFO", "stats"}).string.split('\n'))
        if (line.startsWith("total_connections_received:"))
            return line.mid(line.indexOf(':') + 1).trimmed().toLongLong();
    return -1;
}

int TestUiWindowRecording::recordedEvents() const
{
    if (!QFile::exists(recordingPath()))
        return 0;
    RecordingReader reader;
    if (reader.open(recordingPath()))
        return -1;
    int n = 0;
    const Result<QList<QByteArray>> resources = reader.resources();
    for (const QByteArray& r : *resources)
        n += int(reader.history(r)->events.size());
    return n;
}

void TestUiWindowRecording::historyAfterARestartOfTheWindow()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    RedisServer& server = group.at(0);
    const LockScopeConfig config = quickConfig(group);

    auto first = std::make_unique<MainWindow>(config, auditPath());
    QVERIFY(first->recording()->isRecording());
    QVERIFY(takeAndRelease(server, *first, "lock:w", "tok-1"));
    QVERIFY(takeAndRelease(server, *first, "lock:w", "tok-2"));
    // A notification the window raises goes into the recording too.
    NotificationEvent notification;
    notification.resource = "lock:w";
    notification.title = QStringLiteral("Lock stuck: lock:w");
    emit first->diagnosisWatch()->notified(notification);
    first.reset(); // closes: the recorder ends its session
    const QDateTime closed = QDateTime::currentDateTime();
    QVERIFY2(QFile::exists(recordingPath()), "the first window kept no recording");
    {
        RecordingReader reader;
        QVERIFY(!reader.open(recordingPath()));
        const Result<ResourceHistory> recorded = reader.history("lock:w");
        QVERIFY(recorded);
        QVERIFY(std::any_of(recorded->events.cbegin(), recorded->events.cend(), [](const HistoryEvent& h) {
            return h.event.kind == RecordEvent::Kind::Notified &&
                   h.event.detail == QLatin1String("Lock stuck: lock:w");
        }));
    }

    // Nobody watches: a holder that comes and goes now is in no recording, and the time is a gap.
    server.command({"SET", "lock:w", "tok-unseen", "PX", "60000"});
    server.command({"DEL", "lock:w"});
    server.command({"SET", "lock:w", "tok-3", "PX", "60000"});
    QTRY_VERIFY_WITH_TIMEOUT(closed.msecsTo(QDateTime::currentDateTime()) > 2 * WatchGap::minimumMs, 5000);

    MainWindow second(config, auditPath());
    QTRY_VERIFY_WITH_TIMEOUT(second.lockModel()->find("lock:w") != nullptr, 10000);
    second.lockView()->selectResource("lock:w");
    HistoryTimeline* timeline = second.historyDock()->timeline();
    QTRY_COMPARE_WITH_TIMEOUT(tokens(timeline->episodes()),
                              (QStringList{QStringLiteral("tok-1:released"), QStringLiteral("tok-2:released"),
                                           QStringLiteral("tok-3:held")}),
                              10000);
    // The time between the two windows is a gap, and only that time.
    QVERIFY(!timeline->gaps().isEmpty());
    const WatchGap gap = timeline->gaps().first();
    QVERIFY2(gap.from <= closed.addMSecs(1000) && gap.to > closed,
             qPrintable(gap.from.toString(Qt::ISODateWithMs)));
    QVERIFY(gap.from.toMSecsSinceEpoch() >= timeline->episodes().at(1).endMs - 1000);
    QVERIFY(gap.to.toMSecsSinceEpoch() <= timeline->episodes().at(2).startMs + 1000);
    // Scroll and zoom: closer in, then back to everything.
    const auto all = timeline->visibleRange();
    timeline->zoom(4, 0);
    const auto close = timeline->visibleRange();
    QVERIFY(close.first.msecsTo(close.second) < all.first.msecsTo(all.second));
    timeline->scroll(1);
    QVERIFY(timeline->visibleRange().second > close.second);
    timeline->showAll();
}

void TestUiWindowRecording::switchedOffRecordsNothing()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    QSettings().setValue(WindowRecording::settingsKey(), false);
    {
        MainWindow window(quickConfig(group), auditPath());
        QVERIFY(!window.recording()->action()->isChecked());
        QVERIFY(!window.recording()->isRecording());
        QVERIFY(takeAndRelease(group.at(0), window, "lock:off", "tok-off"));
    }
    QCOMPARE(recordedEvents(), 0);

    // Turned on in the window (and kept for the next start), it records.
    {
        MainWindow window(quickConfig(group), auditPath());
        window.recording()->action()->setChecked(true);
        QVERIFY(takeAndRelease(group.at(0), window, "lock:on", "tok-on"));
    }
    QVERIFY(QSettings().value(WindowRecording::settingsKey()).toBool());
    QVERIFY(recordedEvents() > 0);
}

void TestUiWindowRecording::noRecordRecordsNothing()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    {
        MainWindow window(quickConfig(group), auditPath());
        window.recording()->disableForThisRun(); // what main() does for --no-record
        QVERIFY(takeAndRelease(group.at(0), window, "lock:nr", "tok-nr"));
    }
    QVERIFY2(!QFile::exists(recordingPath()), "--no-record left a recording");
}

void TestUiWindowRecording::reviewShowsHistoryWithoutMasters()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    RedisServer& server = group.at(0);
    const QString db = m_state->filePath(QStringLiteral("copied.sqlite"));
    {
        LockctlProcess recorder;
        QVERIFY2(startRecorder(recorder, group, db), qPrintable(recorder.describe()));
        const auto recorded = [&db](const QByteArray& text) {
            return QTest::qWaitFor(
                [&] {
                    return runLockctl({QStringLiteral("history"), QStringLiteral("lock:r"),
                                       QStringLiteral("--db"), db})
                        .out.contains(text);
                },
                int(lockscope::test::upperBoundMs(10000)));
        };
        server.command({"SET", "lock:r", "tok-r", "PX", "60000"});
        QVERIFY(recorded("tok-r"));
        server.command({"DEL", "lock:r"});
        QVERIFY(recorded("released"));
        QCOMPARE(recorder.terminate(), 0);
    }
    const qint64 connectionsBefore = connectionsReceived(server);

    LockScopeConfig none;
    none.readOnly = true; // what LaunchOptions makes of `lockscope --db FILE`
    MainWindow window(none, auditPath());
    window.review(db, "lock:r");
    HistoryTimeline* timeline = window.historyDock()->timeline();
    QTRY_COMPARE_WITH_TIMEOUT(tokens(timeline->episodes()), QStringList{QStringLiteral("tok-r:released")},
                              10000);
    QCOMPARE(window.historyDock()->resources()->currentText(), QStringLiteral("lock:r"));
    QVERIFY(window.windowTitle().contains(QStringLiteral("Review of %1").arg(db)));
    // Issue #41: laid out for live monitoring, with empty tables, "Scanning…", "0 of 0 masters up"
    // and the History squeezed to 30 px. A review opens on its recorded story, full height.
    window.resize(1366, 768);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(window.historyDock()->isVisible());
    QVERIFY(!window.lockView()->isVisible());
    QVERIFY(!window.findChild<QDockWidget*>(QStringLiteral("mastersDock"))->isVisible());
    QVERIFY2(window.historyDock()->height() > window.height() / 2,
             qPrintable(QStringLiteral("%1 of %2").arg(window.historyDock()->height()).arg(window.height())));
    for (QLabel* label : window.statusBar()->findChildren<QLabel*>())
        if (label->isVisible())
            QVERIFY2(!label->text().contains(QLatin1String("masters up")) &&
                         !label->text().contains(QLatin1String("Scanning")),
                     qPrintable(label->text()));
    // Nothing to write with, nobody to connect to, nobody to notify, nothing recorded.
    for (QAction* a : {window.acquireAction(), window.extendAction(), window.releaseAction(),
                       window.forceReleaseAction(), window.enableEventsAction(), window.connectionsAction()})
        QVERIFY2(!a->isEnabled(), qPrintable(a->text()));
    QVERIFY(!window.recording()->isRecording());
    QVERIFY(window.diagnosisWatch()->notifier()->isSilent());
    QCOMPARE(window.diagnosisWatch()->notifier()->sentCount(), 0);
    const qint64 connectionsAfter = connectionsReceived(server);
    // Our own INFO is the one connection the master saw (the fixture opens one per command).
    QVERIFY2(connectionsAfter - connectionsBefore <= 1,
             qPrintable(QStringLiteral("%1 → %2").arg(connectionsBefore).arg(connectionsAfter)));
}

void TestUiWindowRecording::reviewEndsAnOpenLockWhereTheRecordingStopped()
{
    // Issue #41: an open lock was drawn held up to "now", past the end of the recording.
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    const QString db = m_state->filePath(QStringLiteral("open.sqlite"));
    QElapsedTimer recording;
    {
        LockctlProcess recorder;
        QVERIFY2(startRecorder(recorder, group, db), qPrintable(recorder.describe()));
        recording.start();
        group.at(0).command({"SET", "lock:o", "tok-o", "PX", "600000"});
        QVERIFY(QTest::qWaitFor(
            [&db] {
                return runLockctl(
                           {QStringLiteral("history"), QStringLiteral("lock:o"), QStringLiteral("--db"), db})
                    .out.contains("tok-o");
            },
            int(lockscope::test::upperBoundMs(10000))));
        QCOMPARE(recorder.terminate(), 0); // still held when the recording stops
    }
    const qint64 recorded = recording.elapsed();
    const qint64 stoppedAt = QDateTime::currentMSecsSinceEpoch();
    // As long again after the recording as it lasted: the bar may cover half the axis at most.
    QTest::qWait(int(qMax<qint64>(3000, recorded)));

    LockScopeConfig none;
    none.readOnly = true;
    MainWindow window(none, auditPath());
    window.review(db, "lock:o");
    HistoryTimeline* timeline = window.historyDock()->timeline();
    QTRY_COMPARE_WITH_TIMEOUT(tokens(timeline->episodes()), QStringList{QStringLiteral("tok-o:held")}, 10000);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 barEnd = timeline->barEndMs(timeline->episodes().first(), now);
    QVERIFY2(barEnd <= stoppedAt,
             qPrintable(QStringLiteral("bar to %1 ms after the recording stopped").arg(barEnd - stoppedAt)));
    // On screen: no colour of its token in the last third of the axis, which nobody recorded.
    timeline->resize(600, 120);
    const QImage image = timeline->grab().toImage();
    const QColor colour = StatusStyle::tokenColor("tok-o", timeline->palette());
    int late = 0;
    for (int x = image.width() * 3 / 4; x < image.width() - 10; ++x)
        for (int y = 0; y < image.height(); ++y)
            late += image.pixelColor(x, y) == colour ? 1 : 0;
    QCOMPARE(late, 0);
}

void TestUiWindowRecording::theDemoRecordsApart()
{
    // A new user's walk (issue #41): after `lockscope --demo`, the History of the user's own
    // lock:migrations showed the demo's force-released holder.
    const Result<LaunchOptions> demo =
        LaunchOptions::parse({QStringLiteral("lockscope"), QStringLiteral("--demo")});
    QVERIFY(demo);
    QCOMPARE(demo->recordingPath, RecordingDatabase::demoPath());
    QCOMPARE(demo->auditLogPath, AuditLog::demoPath());
    QVERIFY(demo->recordingPath.startsWith(m_state->path()) &&
            demo->auditLogPath.startsWith(m_state->path()));
    QVERIFY(demo->recordingPath != RecordingDatabase::defaultPath());
    QVERIFY(demo->auditLogPath != AuditLog::defaultPath());
    // An audit log the user names is the user's choice, also for the demo.
    const Result<LaunchOptions> named = LaunchOptions::parse(
        {QStringLiteral("lockscope"), QStringLiteral("--demo"), QStringLiteral("--audit-log"), auditPath()});
    QVERIFY(named);
    QCOMPARE(named->auditLogPath, auditPath());

    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    {
        // As main() builds the demo's window.
        MainWindow window(quickConfig(group), demo->auditLogPath);
        window.recordInto(demo->recordingPath);
        QVERIFY(takeAndRelease(group.at(0), window, "lock:migrations", "tok-demo"));
    }
    QVERIFY2(QFile::exists(RecordingDatabase::demoPath()), "the demo kept no recording of its own");
    QVERIFY2(!QFile::exists(recordingPath()), "the demo wrote into the user's recording");

    group.at(0).command({"SET", "lock:migrations", "tok-user", "PX", "60000"});
    MainWindow user(quickConfig(group), auditPath());
    QTRY_VERIFY_WITH_TIMEOUT(user.lockModel()->find("lock:migrations") != nullptr, 10000);
    user.lockView()->selectResource("lock:migrations");
    HistoryTimeline* timeline = user.historyDock()->timeline();
    QTRY_COMPARE_WITH_TIMEOUT(tokens(timeline->episodes()), QStringList{QStringLiteral("tok-user:held")},
                              10000);
    QTest::qWait(500); // a late read of a recording must not bring the demo's holder either
    QCOMPARE(tokens(timeline->episodes()), QStringList{QStringLiteral("tok-user:held")});
}

LOCKSCOPE_TEST_MAIN(TestUiWindowRecording)

} // namespace tst_uiwindowrecording

#include "tst_uiwindowrecording.moc"
