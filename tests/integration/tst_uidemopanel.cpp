// SPDX-License-Identifier: Apache-2.0
// The demo panel on a real demo session (five redis-servers, the simulation), offscreen: its controls
// act on the real cluster and clients, the timeline draws what the simulation recorded, and closing
// the session stops every server it started.
#include "demo/democlient.h"
#include "demo/demofailover.h"
#include "demo/demoscenariorunner.h"
#include "demo/demosession.h"
#include "livedemo/demopanel.h"
#include "livedemo/demotimeline.h"
#include "support/demolabstart.h"
#include "support/processexists.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QCheckBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <csignal>
#include <memory>

namespace tst_uidemopanel {

using namespace lockscope;
using lockscope::test::processExists;

namespace {

int pixelsOf(const QImage& image, const QColor& colour)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += image.pixelColor(x, y).rgb() == colour.rgb() ? 1 : 0;
    return n;
}

} // namespace

class TestUiDemoPanel : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void opensAtOnceAndFillsInWhenUp();
    void masterButtonsActOnTheCluster();
    void clientPauseIsAStopTheWorld();
    void restartScenarioDrawsTheOverlapInRed();
    void driftScenarioShowsItsGapAndANarrowLegendFits();
    void failoverScenarioShowsBothHoldersThenTheQuorumRefusing();
    void closingStopsEveryServer();

private:
    std::unique_ptr<DemoSession> m_session;
    std::unique_ptr<DemoPanel> m_panel;
};

void TestUiDemoPanel::init()
{
    m_session = std::make_unique<DemoSession>();
    m_session->scenarios()->setWatchTimeScale(test::demoWatchTimeScale);
    m_panel = std::make_unique<DemoPanel>(m_session.get());
    m_panel->resize(1400, 700);
    m_panel->show();
}

void TestUiDemoPanel::cleanup()
{
    m_panel.reset();
    m_session.reset();
}

void TestUiDemoPanel::opensAtOnceAndFillsInWhenUp()
{
    QSignalSpy ready(m_session.get(), &DemoSession::ready);
    QElapsedTimer clock;
    clock.start();
    m_session->start();
    // start() only launches: it returns long before the servers accept connections.
    QVERIFY2(clock.elapsed() < lockscope::test::upperBoundMs(1000),
             qPrintable(QString::number(clock.elapsed())));
    QVERIFY(!m_session->isReady());
    QVERIFY(!m_panel->masterButton(0, QStringLiteral("kill"))->isEnabled());
    QVERIFY(ready.wait(int(lockscope::test::upperBoundMs(30000))));
    QVERIFY(m_panel->masterButton(0, QStringLiteral("kill"))->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(m_session->simulation()->counters().acquisitions > 0, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->countersLabel()->text().contains(QLatin1String("Acquisitions <b>")),
                             5000);
}

void TestUiDemoPanel::masterButtonsActOnTheCluster()
{
    QSignalSpy ready(m_session.get(), &DemoSession::ready);
    m_session->start();
    QVERIFY(ready.wait(int(lockscope::test::upperBoundMs(30000))));
    DemoCluster* cluster = m_session->cluster();
    const qint64 before = cluster->pid(1);
    QTest::mouseClick(m_panel->masterButton(1, QStringLiteral("pause")), Qt::LeftButton);
    QCOMPARE(cluster->state(1), DemoCluster::MasterState::Paused);
    QVERIFY(m_panel->masterButton(1, QStringLiteral("resume"))->isEnabled());
    QTest::mouseClick(m_panel->masterButton(1, QStringLiteral("resume")), Qt::LeftButton);
    QCOMPARE(cluster->state(1), DemoCluster::MasterState::Running);
    QTest::mouseClick(m_panel->masterButton(1, QStringLiteral("kill")), Qt::LeftButton);
    QCOMPARE(cluster->state(1), DemoCluster::MasterState::Killed);
    QVERIFY(!processExists(before));
    QTest::mouseClick(m_panel->masterButton(1, QStringLiteral("restart")), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(cluster->state(1), DemoCluster::MasterState::Running, 15000);
    QVERIFY(cluster->pid(1) != before);
    // Each outage (pause, kill) is on the timeline.
    QCOMPARE(m_session->simulation()->outages().size(), 2);
    m_panel->timeline()->grab();
    QCOMPARE(m_panel->timeline()->outagesDrawn(), 2);
}

void TestUiDemoPanel::clientPauseIsAStopTheWorld()
{
    QSignalSpy ready(m_session.get(), &DemoSession::ready);
    m_session->start();
    QVERIFY(ready.wait(int(lockscope::test::upperBoundMs(30000))));
    DemoClient* c = m_session->simulation()->client(0);
    QTest::mouseClick(m_panel->clientPauseButton(0), Qt::LeftButton);
    QVERIFY(c->isPaused());
    QVERIFY(!m_panel->clientPauseButton(0)->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(c->state(), DemoClient::State::Paused, 10000);
}

void TestUiDemoPanel::restartScenarioDrawsTheOverlapInRed()
{
    QSignalSpy ready(m_session.get(), &DemoSession::ready);
    m_session->start();
    QVERIFY(ready.wait(int(lockscope::test::upperBoundMs(30000))));
    DemoScenarioRunner* runner = m_session->scenarios();
    QSignalSpy finished(runner, &DemoScenarioRunner::finished);
    QTest::mouseClick(m_panel->scenarioButton(DemoScenario::RestartDuringHold), Qt::LeftButton);
    QVERIFY(m_panel->captionLabel()->text().contains(QLatin1String("restarts without persistence")));
    QVERIFY(finished.wait(int(lockscope::test::upperBoundMs(90000))));
    QVERIFY2(finished.at(0).at(1).toBool(), qPrintable(finished.at(0).at(2).toString()));
    const QImage image = m_panel->timeline()->grab().toImage();
    QVERIFY(m_panel->timeline()->overlapsDrawn() >= 1);
    QVERIFY(pixelsOf(image, DemoTimeline::overlapColor()) > 20);
    QVERIFY(m_panel->timeline()->outagesDrawn() >= 3);
    QVERIFY(m_session->simulation()->counters().doubleHolds >= 1);
    QTRY_VERIFY(m_panel->countersLabel()->text().contains(
        QStringLiteral("two holders <b>%1</b>").arg(m_session->simulation()->counters().doubleHolds)));
}

void TestUiDemoPanel::driftScenarioShowsItsGapAndANarrowLegendFits()
{
    // Issue #41: the clock-drift gap the caption points at was under a pixel wide, and the legend
    // was cut off in a narrow dock.
    QSignalSpy ready(m_session.get(), &DemoSession::ready);
    m_session->start();
    QVERIFY(ready.wait(int(lockscope::test::upperBoundMs(30000))));
    QSignalSpy finished(m_session->scenarios(), &DemoScenarioRunner::finished);
    QTest::mouseClick(m_panel->scenarioButton(DemoScenario::ClockDrift), Qt::LeftButton);
    QVERIFY(finished.wait(int(lockscope::test::upperBoundMs(60000))));
    QVERIFY2(finished.at(0).at(1).toBool(), qPrintable(finished.at(0).at(2).toString()));
    DemoTimeline* timeline = m_panel->timeline();
    timeline->grab();
    QVERIFY(timeline->gapsMarked() >= 1);
    // The smallest the demo dock lets it be: every legend key inside.
    timeline->resize(timeline->minimumSizeHint());
    timeline->grab();
    QVERIFY2(timeline->rect().contains(timeline->legendRect()),
             qPrintable(QStringLiteral("legend %1,%2 %3x%4 in %5x%6")
                            .arg(timeline->legendRect().x())
                            .arg(timeline->legendRect().y())
                            .arg(timeline->legendRect().width())
                            .arg(timeline->legendRect().height())
                            .arg(timeline->width())
                            .arg(timeline->height())));
}

void TestUiDemoPanel::failoverScenarioShowsBothHoldersThenTheQuorumRefusing()
{
    QSignalSpy ready(m_session.get(), &DemoSession::ready);
    m_session->start();
    QVERIFY(ready.wait(int(lockscope::test::upperBoundMs(30000))));
    DemoSimulation* sim = m_session->simulation();
    DemoScenarioRunner* runner = m_session->scenarios();
    QSignalSpy finished(runner, &DemoScenarioRunner::finished);
    QPushButton* button = m_panel->scenarioButton(DemoScenario::FailoverWithoutQuorum);
    QVERIFY(button);
    QCOMPARE(button->text(), demoScenarioTitle(DemoScenario::FailoverWithoutQuorum));
    QVERIFY(!m_panel->failoverLabel()->isVisible());
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(m_panel->captionLabel()->text().contains(QLatin1String("Sentinel promotes the replica")));
    // The WAIT answer is in the progress line before the primary goes.
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->resultLabel()->text().contains(QLatin1String("WAIT 1 100 answered 0")),
                             90000);
    QVERIFY(finished.wait(int(lockscope::test::upperBoundMs(240000))));
    QVERIFY2(finished.at(0).at(1).toBool(), qPrintable(finished.at(0).at(2).toString()));
    // The outcome line states both results.
    const QString outcome = m_panel->resultLabel()->text();
    QVERIFY2(outcome.contains(QLatin1String("Sentinel:")) && outcome.contains(QLatin1String("two holders")) &&
                 outcome.contains(QLatin1String("Redlock:")) && outcome.contains(QLatin1String("refused")),
             qPrintable(outcome));
    // Both holders, with their tokens, and the at-risk mark.
    QLabel* holders = m_panel->failoverLabel();
    QVERIFY(holders->isVisible());
    const DemoFailover* f = sim->failover();
    QVERIFY2(holders->text().contains(QLatin1String("A believes it holds")) &&
                 holders->text().contains(QString::fromUtf8(f->tokenA().left(12))) &&
                 holders->text().contains(QLatin1String("B holds it")) &&
                 holders->text().contains(QString::fromUtf8(f->tokenB().left(12))) &&
                 holders->text().contains(QLatin1String("at risk")),
             qPrintable(holders->text()));
    // The timeline draws the Sentinel part's two holders overlapping, in red.
    const QImage image = m_panel->timeline()->grab().toImage();
    QVERIFY(m_panel->timeline()->overlapsDrawn() >= 1);
    QVERIFY(pixelsOf(image, DemoTimeline::overlapColor()) > 20);
    // Closing the window stops the Sentinel group too.
    const QList<qint64> pids = f->group()->startedPids();
    QCOMPARE(pids.size(), 5);
    m_panel.reset();
    m_session.reset();
    for (qint64 pid : pids)
        QTRY_VERIFY_WITH_TIMEOUT(!processExists(pid), 10000);
}

void TestUiDemoPanel::closingStopsEveryServer()
{
    QSignalSpy ready(m_session.get(), &DemoSession::ready);
    m_session->start();
    QVERIFY(ready.wait(int(lockscope::test::upperBoundMs(30000))));
    QList<qint64> pids;
    for (int i = 0; i < m_session->cluster()->size(); ++i)
        pids << m_session->cluster()->pid(i);
    QCOMPARE(pids.size(), 5);
    m_panel.reset();
    m_session.reset();
    for (qint64 pid : pids)
        QTRY_VERIFY_WITH_TIMEOUT(!processExists(pid), 10000);
}

LOCKSCOPE_TEST_MAIN(TestUiDemoPanel)

} // namespace tst_uidemopanel

#include "tst_uidemopanel.moc"
