// SPDX-License-Identifier: Apache-2.0
// Issue #20, the force-release dialog as a user meets it from the window: the cursor waits in the
// confirmation field, the placeholder is a hint and not the answer, and once it is done it says what
// happened on each master, in the past tense.
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "masters/mastertablemodel.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"
#include "writes/forcereleasedialog.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uiforcereleasedialog {

using namespace lockscope;
using namespace lockscope::test;

class TestUiForceReleaseDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void confirmFocusHintAndPastTense();

private:
    QTemporaryDir m_dir;
};

void TestUiForceReleaseDialog::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uiforcereleasedialog"));
}

void TestUiForceReleaseDialog::confirmFocusHintAndPastTense()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    // Held with a quorum (2 of 3): the name must be typed.
    group.at(0).command({"SET", "lock:orders", "tok-1", "PX", "60000"});
    group.at(1).command({"SET", "lock:orders", "tok-1", "PX", "60000"});
    LockScopeConfig config;
    config.masters = group.connectionOptions(1000);
    config.monitor.pollIntervalMs = 200;
    MainWindow window(config, m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 1, 5000);
    window.lockView()->selectResource("lock:orders");
    QTRY_VERIFY(window.forceReleaseAction()->isEnabled());
    window.forceReleaseAction()->trigger();
    auto* dialog = window.findChild<ForceReleaseDialog*>();
    QVERIFY(dialog);
    QVERIFY(dialog->needsTypedConfirmation());
    QTRY_COMPARE_WITH_TIMEOUT(dialog->stage(), ForceReleaseDialog::Stage::Ready, 5000);

    // The cursor is where the answer goes.
    QCOMPARE(dialog->focusWidget(), dialog->confirmationEdit());
    // A hint, not the answer.
    const QString placeholder = dialog->confirmationEdit()->placeholderText();
    QVERIFY2(!placeholder.isEmpty(), "no hint in the confirmation field");
    QVERIFY2(!placeholder.contains(QStringLiteral("lock:orders")), qPrintable(placeholder));
    QVERIFY2(placeholder.contains(QStringLiteral("type"), Qt::CaseInsensitive), qPrintable(placeholder));

    QTest::keyClicks(dialog->confirmationEdit(), QStringLiteral("lock:orders"));
    QVERIFY(dialog->canConfirm());
    QSignalSpy released(dialog, &ForceReleaseDialog::released);
    dialog->confirm();
    QVERIFY(released.wait(int(lockscope::test::upperBoundMs(5000))));
    QCOMPARE(group.at(0).command({"EXISTS", "lock:orders"}).integer, 0);

    // What happened, per master, in the past tense; nothing about what "will" be done.
    const QString m1 = dialog->outcome()->results.at(0).master;
    const QString m2 = dialog->outcome()->results.at(1).master;
    const QString m3 = dialog->outcome()->results.at(2).master;
    QString shown;
    for (QLabel* label : dialog->findChildren<QLabel*>())
        if (label->isVisible())
            shown += label->text() + QLatin1Char('\n');
    QVERIFY2(!shown.contains(QStringLiteral("will be touched")), qPrintable(shown));
    const QString summary = dialog->summaryLabel()->text();
    QVERIFY2(summary.startsWith(QStringLiteral("Deleted on ")), qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("not present on ")), qPrintable(summary));
    QCOMPARE(summary, QStringLiteral("Deleted on %1, %2; not present on %3.").arg(m1, m2, m3));
    QVERIFY2(!dialog->confirmationEdit()->isVisible(), "the confirmation field stays after the deletion");
}

LOCKSCOPE_TEST_MAIN(TestUiForceReleaseDialog)

} // namespace tst_uiforcereleasedialog

#include "tst_uiforcereleasedialog.moc"
