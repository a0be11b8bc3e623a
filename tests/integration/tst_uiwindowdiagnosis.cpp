// SPDX-License-Identifier: Apache-2.0
#include "detail/lockdetailpane.h"
#include "eventlog/eventlogmodel.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "notifications/desktopnotifier.h"
#include "notifications/lockdiagnosiswatch.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"

#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uiwindowdiagnosis {

using namespace lockscope;
using namespace lockscope::test;

// The window itself: the selected lock's diagnosis in the detail pane, and a rule that starts to
// hold logged in the event log (the desktop side is tst_uinotifications).
class TestUiWindowDiagnosis : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void selectedStuckLockIsExplained();

private:
    QTemporaryDir m_dir;
};

void TestUiWindowDiagnosis::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uiwindowdiagnosis"));
}

void TestUiWindowDiagnosis::selectedStuckLockIsExplained()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    group.at(0).command({"SET", "lock:fine", "t1", "PX", "60000"});
    group.at(0).command({"SET", "lock:stuck", "c0ffee"});
    MainWindow window(quickConfig(group), m_dir.filePath(QStringLiteral("audit.jsonl")));
    // No desktop here: nothing must reach the developer's own notification service.
    window.diagnosisWatch()->notifier()->setSilent(true);
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 2, 5000);

    window.lockView()->selectResource("lock:fine");
    QTRY_COMPARE(window.detailPane()->view()->resource, QByteArray("lock:fine"));
    QVERIFY(window.detailPane()->diagnoses().isEmpty());
    QVERIFY(!window.detailPane()->diagnosisLabel()->isVisible());

    window.lockView()->selectResource("lock:stuck");
    QTRY_VERIFY_WITH_TIMEOUT(window.detailPane()->diagnosisLabel()->text().contains(
                                 QStringLiteral("Stuck: token c0ffee holds it with no TTL on M1")),
                             5000);
    QVERIFY(window.detailPane()->diagnosisLabel()->isVisible());
    // The stuck rule (after its 10 s by default) is not due yet; the log gets it once it is.
}

LOCKSCOPE_TEST_MAIN(TestUiWindowDiagnosis)

} // namespace tst_uiwindowdiagnosis

#include "tst_uiwindowdiagnosis.moc"
