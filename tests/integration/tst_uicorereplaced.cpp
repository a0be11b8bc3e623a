// SPDX-License-Identifier: Apache-2.0
// The window replaces its core (a reconnect, switching profile, `--demo -m URL` once the demo is up)
// while a dialog that talks to the core is open: the dialog must not touch the old core afterwards
// (run under ASan: a dangling pointer shows as heap-use-after-free), and must say that the
// connection changed instead of acting on masters the user no longer sees.
#include "eventlog/eventlogmodel.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "session/corethread.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"
#include "writes/acquiredialog.h"
#include "writes/forcereleasedialog.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

namespace tst_uicorereplaced {

using namespace lockscope;
using namespace lockscope::test;

namespace {

LockScopeConfig configFor(RedisServerGroup& group)
{
    LockScopeConfig config;
    config.masters = group.connectionOptions(1000);
    for (ConnectionOptions& m : config.masters)
        m.healthIntervalMs = 200;
    config.monitor.pollIntervalMs = 200;
    return config;
}

template <typename W> W* openDialog()
{
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* d = qobject_cast<W*>(w); d && d->isVisible())
            return d;
    return nullptr;
}

bool labelSays(QWidget* dialog, const QString& text)
{
    for (const QLabel* label : dialog->findChildren<QLabel*>())
        if (label->text().contains(text))
            return true;
    return false;
}

} // namespace

class TestUiCoreReplaced : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void forceReleaseDialogOutlivesItsCore();
    void acquireDialogOutlivesItsCore();

private:
    QTemporaryDir m_dir;
};

void TestUiCoreReplaced::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uicorereplaced"));
}

void TestUiCoreReplaced::forceReleaseDialogOutlivesItsCore()
{
    RedisServerGroup first;
    RedisServerGroup second;
    QVERIFY2(first.start(2), qPrintable(first.errorString()));
    QVERIFY2(second.start(2), qPrintable(second.errorString()));
    for (int i = 0; i < 2; ++i)
        first.at(i).command({"SET", "lock:fr", "tok-1", "PX", "60000"});
    const QString audit = m_dir.filePath(QStringLiteral("audit.jsonl"));
    MainWindow window(configFor(first), audit);
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->find("lock:fr"), 5000);
    window.lockView()->selectResource("lock:fr");
    window.forceReleaseAction()->trigger();
    auto* dialog = openDialog<ForceReleaseDialog>();
    QVERIFY(dialog);
    QPointer<ForceReleaseDialog> guard = dialog;
    QTRY_COMPARE_WITH_TIMEOUT(dialog->stage(), ForceReleaseDialog::Stage::Ready, 5000);
    dialog->confirmationEdit()->setText(QStringLiteral("lock:fr"));

    // Another profile: the old core (and everything the dialog was given) is deleted now.
    window.monitor(configFor(second), audit);
    QVERIFY(guard);
    // As if the button had been pressed just before it greyed out: nothing may go through the old
    // core (with a dangling pointer, ASan reports a heap-use-after-free here) ...
    dialog->confirm();
    QVERIFY(labelSays(dialog, QStringLiteral("The connection changed")));
    QVERIFY(!dialog->releaseButton()->isEnabled());
    QCOMPARE(first.at(0).command({"GET", "lock:fr"}).string, QByteArray("tok-1"));
    dialog->reject();    // ... nor be recorded through it as cancelled
    QTRY_VERIFY(!guard); // closed (deleted on close)
    for (int i = 0; i < 2; ++i)
        QCOMPARE(first.at(i).command({"GET", "lock:fr"}).string, QByteArray("tok-1"));
}

void TestUiCoreReplaced::acquireDialogOutlivesItsCore()
{
    RedisServerGroup first;
    RedisServerGroup second;
    QVERIFY2(first.start(2), qPrintable(first.errorString()));
    QVERIFY2(second.start(2), qPrintable(second.errorString()));
    const QString audit = m_dir.filePath(QStringLiteral("audit-acquire.jsonl"));
    MainWindow window(configFor(first), audit);
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(window.isInitialScanFinished(), 5000);
    bool sawChange = false;
    bool okEnabledAfter = true;
    // The dialog runs its own event loop; the profile switch happens inside it.
    QTimer::singleShot(0, &window, [&] {
        auto* dialog = openDialog<AcquireDialog>();
        if (!dialog)
            return;
        dialog->findChild<QLineEdit*>()->setText(QStringLiteral("lock:acq"));
        window.monitor(configFor(second), audit);
        sawChange = labelSays(dialog, QStringLiteral("The connection changed"));
        okEnabledAfter = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled();
        dialog->accept(); // as if OK had been pressed before the button greyed out
    });
    window.acquireAction()->trigger();
    QVERIFY(sawChange);
    QVERIFY(!okEnabledAfter);
    for (int r = 0; r < window.eventLog()->rowCount(); ++r)
        QVERIFY2(!window.eventLog()->entry(r).message.contains(QStringLiteral("acquire requested")),
                 qPrintable(window.eventLog()->entry(r).message));
    // Nothing was acquired anywhere (an acquire is answered within a second on live masters).
    QTRY_VERIFY_WITH_TIMEOUT(window.isInitialScanFinished(), 5000);
    for (RedisServerGroup* group : {&first, &second})
        for (int i = 0; i < 2; ++i)
            QCOMPARE(group->at(i).command({"EXISTS", "lock:acq"}).integer, 0);
}

LOCKSCOPE_TEST_MAIN(TestUiCoreReplaced)

} // namespace tst_uicorereplaced

#include "tst_uicorereplaced.moc"
