// SPDX-License-Identifier: Apache-2.0
// The demo window as `lockscope --demo` builds it (DemoWindow: main window, demo panel, docks) on a
// real demo session, offscreen: a scenario's numbers agree between its result line and the counters,
// its lock stays in the locks table until its caption is dismissed, "Restore all masters" brings back
// the sample locks a restart wiped, the commentary follows new entries, and the event log sums up
// the demo clients' own keyspace events instead of listing each one.
#include "demo/democlient.h"
#include "demo/demoscenariorunner.h"
#include "demo/demosession.h"
#include "detail/lockdetailpane.h"
#include "eventlog/eventlogmodel.h"
#include "livedemo/demopanel.h"
#include "livedemo/demowindow.h"
#include "locks/lockfilterproxy.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "support/blockingcommand.h"
#include "support/demolabstart.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>

#include <memory>

namespace tst_uidemostory {

using namespace lockscope;
using lockscope::test::blockingCommand;

class TestUiDemoStory : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void majorityResultAndCounterShowTheSameFailures();
    void restartScenarioKeepsItsLockAndRestoreBringsTheSamplesBack();
    void expiredSamplesComeBackFromTheDemoMenu();
    void commentaryFollowsNewEntriesAndShowsSeveralLines();
    void demoClientsKeyspaceEventsAreSummarised();
    void aFailedStartIsToldWithoutStoppingTheWindow();

private:
    void startDemo();
    int holding(const QByteArray& resource) const;
    RedisReply onMaster(int master, const QByteArrayList& argv) const;

    QTemporaryDir m_dir;
    std::unique_ptr<DemoSession> m_session;
    std::unique_ptr<MainWindow> m_window;
    DemoPanel* m_panel = nullptr;
    LockScopeConfig m_config;
};

void TestUiDemoStory::init()
{
    m_session = std::make_unique<DemoSession>();
    m_session->scenarios()->setWatchTimeScale(test::demoWatchTimeScale);
    m_window = std::make_unique<MainWindow>(LockScopeConfig(), m_dir.filePath(QStringLiteral("audit.log")));
    m_panel = DemoWindow::install(m_window.get(), m_session.get(), false,
                                  m_dir.filePath(QStringLiteral("audit.log")));
    connect(m_session.get(), &DemoSession::ready, this, [this](const LockScopeConfig& c) { m_config = c; });
    m_window->resize(1366, 740);
    m_window->show();
}

void TestUiDemoStory::cleanup()
{
    m_window.reset();
    m_session.reset();
}

void TestUiDemoStory::startDemo()
{
    QSignalSpy ready(m_session.get(), &DemoSession::ready);
    m_session->start();
    QVERIFY(ready.wait(int(lockscope::test::upperBoundMs(30000))));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->isInitialScanFinished(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(holding("lock:migrations") == 5, 15000);
}

int TestUiDemoStory::holding(const QByteArray& resource) const
{
    const LockView* v = m_window->lockModel()->find(resource);
    return v ? v->holding : -1;
}

RedisReply TestUiDemoStory::onMaster(int master, const QByteArrayList& argv) const
{
    const RedisUrl& url = m_config.masters.at(master).url;
    return blockingCommand(url.port(), argv, url.password());
}

void TestUiDemoStory::majorityResultAndCounterShowTheSameFailures()
{
    startDemo();
    DemoSimulation* sim = m_session->simulation();
    QSignalSpy finished(m_session->scenarios(), &DemoScenarioRunner::finished);
    m_panel->runScenario(DemoScenario::MajorityFailure);
    QVERIFY(finished.wait(int(lockscope::test::upperBoundMs(60000))));
    QVERIFY2(finished.at(0).at(1).toBool(), qPrintable(finished.at(0).at(2).toString()));
    const QRegularExpressionMatch result = QRegularExpression(QStringLiteral("(\\d+) acquisitions failed"))
                                               .match(m_panel->resultLabel()->text());
    QVERIFY2(result.hasMatch(), qPrintable(m_panel->resultLabel()->text()));
    const int inResult = result.captured(1).toInt();
    QVERIFY(inResult > 0);
    // Three masters stay down after the result: the clients go on failing, and the counter beside the
    // result must still say what the result line says.
    QTRY_VERIFY_WITH_TIMEOUT(
        sim->counters().failures > m_session->scenarios()->baseline().failures + inResult + 2, 30000);
    const QString counters = m_panel->countersLabel()->text();
    const QRegularExpressionMatch counted =
        QRegularExpression(QStringLiteral("failed <b>(\\d+)</b>")).match(counters);
    QVERIFY2(counted.hasMatch(), qPrintable(counters));
    QVERIFY2(counted.captured(1).toInt() == inResult,
             qPrintable(QStringLiteral("result line: %1 failed; counters: %2").arg(inResult).arg(counters)));
    // Both are the one definition in the core.
    QCOMPARE(m_session->scenarios()->measured().failures, inResult);
}

void TestUiDemoStory::restartScenarioKeepsItsLockAndRestoreBringsTheSamplesBack()
{
    startDemo();
    const QByteArray ledger("lock:demo:ledger");
    DemoSimulation* sim = m_session->simulation();
    QSignalSpy finished(m_session->scenarios(), &DemoScenarioRunner::finished);
    QTest::mouseClick(m_panel->scenarioButton(DemoScenario::RestartDuringHold), Qt::LeftButton);
    QVERIFY(finished.wait(int(lockscope::test::upperBoundMs(90000))));
    QVERIFY2(finished.at(0).at(1).toBool(), qPrintable(finished.at(0).at(2).toString()));
    QVERIFY(m_panel->resultLabel()->text().contains(QLatin1String("Double grant")));

    // The scenario's lock leads the table, highlighted, whatever the sort and the quick filters.
    LockFilterProxy* proxy = m_window->lockProxy();
    QTRY_VERIFY_WITH_TIMEOUT(proxy->rowCount() > 0 &&
                                 proxy->index(0, 0).data(LockTableModel::ResourceRole).toByteArray() ==
                                     ledger,
                             10000);
    QVERIFY(proxy->index(0, 0).data(LockTableModel::PinnedRole).toBool());
    QVERIFY(proxy->index(0, 0).data(Qt::BackgroundRole).isValid());
    proxy->setQuickFilters(LockFilterProxy::StuckFilter);
    QCOMPARE(proxy->index(0, 0).data(LockTableModel::ResourceRole).toByteArray(), ledger);
    proxy->setQuickFilters(LockFilterProxy::NoQuickFilter);

    // A and B finish and release: the ledger leaves every master, but stays in view.
    QTRY_VERIFY_WITH_TIMEOUT(!sim->client(DemoSimulation::clientA)->isHolding() &&
                                 !sim->client(DemoSimulation::clientB)->isHolding(),
                             60000);
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int m = 0; m < m_config.masters.size(); ++m)
                if (!onMaster(m, {"GET", ledger}).isNil())
                    return false;
            return true;
        }(),
        30000);
    // Once the monitor has reported it gone (or the table dropped it):
    QTRY_VERIFY_WITH_TIMEOUT(
        m_window->lockModel()->isPinnedGone() || m_window->lockModel()->rowOf(ledger) < 0, 20000);
    QVERIFY2(m_window->lockModel()->rowOf(ledger) >= 0, "lock:demo:ledger left the table before the caption "
                                                        "was dismissed");
    QCOMPARE(proxy->index(0, 0).data(LockTableModel::ResourceRole).toByteArray(), ledger);
    QVERIFY(proxy->index(0, LockTableModel::StatusColumn).data().toString().contains(QLatin1String("gone")));
    QCOMPARE(proxy->index(0, LockTableModel::TtlColumn).data().toString(), QStringLiteral("—"));
    // Issue #41: selected, the gone lock read "held" in the detail pane. It says gone, as the row does.
    m_window->lockView()->selectResource(ledger);
    QTRY_VERIFY(!m_window->detailPane()->view().has_value());
    bool saysGone = false;
    for (QLabel* label : m_window->detailPane()->findChildren<QLabel*>())
        saysGone = saysGone || label->text().contains(QLatin1String("is gone"));
    QVERIFY(saysGone);

    // Dismissed: it goes, and the counts never counted the kept row.
    QVERIFY(m_panel->dismissButton()->isEnabled());
    QTest::mouseClick(m_panel->dismissButton(), Qt::LeftButton);
    QCOMPARE(m_window->lockModel()->rowOf(ledger), -1);

    // The restart wiped the sample locks on masters 3 to 5: partial and stuck rows that never clear.
    QCOMPARE(holding("lock:migrations"), 2);
    QCOMPARE(holding("lock:legacy-cron"), 2);
    QVERIFY(m_window->lockModel()->find("lock:migrations")->atRisk);
    QTest::mouseClick(m_panel->restoreButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(holding("lock:migrations"), 5, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(holding("lock:legacy-cron"), 5, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(holding("lock:{accounts}"), 4, 20000);
    QCOMPARE(m_window->lockModel()->find("lock:migrations")->status, LockStatus::Stuck);
    // The restart's "may have lost it" mark goes too: the restarted masters hold the same token again.
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->lockModel()->find("lock:migrations")->atRisk, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->lockModel()->find("lock:legacy-cron")->atRisk, 20000);
    // Nothing written twice, nothing written where the demo did not seed it.
    for (int m = 0; m < m_config.masters.size(); ++m) {
        const qint64 members = onMaster(m, {"ZCARD", "semaphore:db-pool"}).integer;
        QVERIFY2(members == 0 || members == 2, qPrintable(QString::number(members)));
        QCOMPARE(onMaster(m, {"HLEN", "lock:{accounts}"}).integer, m == 3 ? 0 : 1);
    }
    QVERIFY(onMaster(3, {"GET", "lock:thumbnailer"}).isNil());
    QVERIFY(m_session->mastersWithoutSamples().isEmpty());
}

void TestUiDemoStory::expiredSamplesComeBackFromTheDemoMenu()
{
    // Issue #41: the sample locks expire within a minute, with no way to bring them back.
    startDemo();
    for (int m = 0; m < m_config.masters.size(); ++m)
        onMaster(m, {"DEL", "lock:email:digest", "lock:session:42"}); // as if expired
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->lockModel()->find("lock:email:digest"), 10000);
    auto* renew = m_window->findChild<QAction*>(QStringLiteral("renewSamples"));
    QVERIFY(renew);
    QTRY_VERIFY(renew->isEnabled());
    renew->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(holding("lock:email:digest"), 5, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(holding("lock:session:42"), 5, 10000);
    // Their full TTL again, and the same holders as at the start.
    QVERIFY(onMaster(0, {"PTTL", "lock:email:digest"}).integer > 15000);
    QCOMPARE(onMaster(0, {"GET", "lock:email:digest"}).string,
             QByteArray("0f1e2d3c4b5a69788796a5b4c3d2e1f0"));
    QCOMPARE(holding("lock:migrations"), 5);
}

void TestUiDemoStory::commentaryFollowsNewEntriesAndShowsSeveralLines()
{
    startDemo();
    QPlainTextEdit* notes = m_panel->notes();
    QTRY_VERIFY(notes->isVisible());
    const int line = notes->fontMetrics().lineSpacing();
    QVERIFY2(notes->height() >= line * 6,
             qPrintable(QStringLiteral("%1 px, a line is %2 px").arg(notes->height()).arg(line)));
    DemoSimulation* sim = m_session->simulation();
    QScrollBar* bar = notes->verticalScrollBar();
    // More than the commentary keeps (500 lines): the oldest go as the newest come.
    for (int i = 0; i < 700; ++i)
        emit sim->note(QStringLiteral("entry %1").arg(i));
    QVERIFY(bar->maximum() > 0);
    QCOMPARE(bar->value(), bar->maximum());
    QVERIFY(notes->toPlainText().endsWith(QLatin1String("entry 699")));
    // The panel laid out again with less room for the commentary (a loaded machine settles the
    // window's layout late; a user drags a splitter): it still follows.
    const int minimum = notes->minimumHeight();
    notes->setMinimumHeight(0);
    notes->setMaximumHeight(notes->height() - 2 * line);
    QTRY_VERIFY(notes->height() <= notes->maximumHeight());
    QCOMPARE(bar->value(), bar->maximum());
    emit sim->note(QStringLiteral("after the resize"));
    QCOMPARE(bar->value(), bar->maximum());
    notes->setMaximumHeight(QWIDGETSIZE_MAX);
    notes->setMinimumHeight(minimum);
    // Scrolled up to read: new entries do not pull the reader away.
    // (The oldest lines still go, so the same text stays in view rather than the same position.)
    bar->setValue(bar->maximum() / 2);
    const QString reading = notes->cursorForPosition(QPoint(4, 4)).block().text();
    QVERIFY(reading.contains(QLatin1String("entry")));
    for (int i = 0; i < 20; ++i)
        emit sim->note(QStringLiteral("later %1").arg(i));
    QVERIFY(bar->value() < bar->maximum());
    QCOMPARE(notes->cursorForPosition(QPoint(4, 4)).block().text(), reading);
    // Back at the bottom: it follows again.
    bar->setValue(bar->maximum());
    emit sim->note(QStringLiteral("last"));
    QCOMPARE(bar->value(), bar->maximum());
}

void TestUiDemoStory::demoClientsKeyspaceEventsAreSummarised()
{
    startDemo();
    EventLogModel* log = m_window->eventLog();
    DemoSimulation* sim = m_session->simulation();
    QTRY_VERIFY_WITH_TIMEOUT(sim->counters().acquisitions >= 6, 30000);
    // Another client's lock on master 1: listed on its own line.
    QVERIFY(!onMaster(0, {"SET", "lock:someone:else", "t0k3n", "PX", "60000"}).isError());
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int r = 0; r < log->rowCount(); ++r)
                if (log->entry(r).kind == EventLogModel::Kind::Keyspace &&
                    log->entry(r).message == QLatin1String("set lock:someone:else"))
                    return true;
            return false;
        }(),
        15000);
    // The demo clients' own events: summed up once a second, never one line each.
    const QRegularExpression summary(
        QStringLiteral("^\\d+ keyspace events? in the last second \\((\\w+ \\d+)(, \\w+ \\d+)*\\)$"));
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int r = 0; r < log->rowCount(); ++r)
                if (log->entry(r).source == QLatin1String("demo clients") &&
                    summary.match(log->entry(r).message).hasMatch())
                    return true;
            return false;
        }(),
        15000);
    int summaries = 0;
    for (int r = 0; r < log->rowCount(); ++r) {
        const EventLogModel::Entry& e = log->entry(r);
        if (e.kind != EventLogModel::Kind::Keyspace)
            continue;
        summaries += e.source == QLatin1String("demo clients") ? 1 : 0;
        QVERIFY2(!e.message.contains(QLatin1String("lock:demo:")) &&
                     !e.message.contains(QLatin1String("fencing:")),
                 qPrintable(e.source + QStringLiteral(": ") + e.message));
    }
    QVERIFY(summaries >= 1);
}

// The start fails (no such server program): the window says so in a message box that does not run
// an event loop of its own inside the demo's callbacks, so the window goes on (and this test
// with it: a modal box would wait here for a click that never comes).
void TestUiDemoStory::aFailedStartIsToldWithoutStoppingTheWindow()
{
    QSignalSpy failed(m_session.get(), &DemoSession::failed);
    m_session->start(m_dir.filePath(QStringLiteral("no-such-redis-server")));
    QVERIFY(!failed.isEmpty() || failed.wait(int(lockscope::test::upperBoundMs(30000))));
    QMessageBox* box = nullptr;
    QTRY_VERIFY((box = m_window->findChild<QMessageBox*>(QStringLiteral("demoStartFailed"))) &&
                box->isVisible());
    QVERIFY(box->text().startsWith(QLatin1String("The demo masters could not start: ")));
    QCOMPARE(box->textFormat(), Qt::PlainText);
    box->accept();
    QTRY_VERIFY(!m_window->findChild<QMessageBox*>(QStringLiteral("demoStartFailed")));
}

LOCKSCOPE_TEST_MAIN(TestUiDemoStory)

} // namespace tst_uidemostory

#include "tst_uidemostory.moc"
