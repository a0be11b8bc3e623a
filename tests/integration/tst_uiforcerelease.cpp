#include "corethread.h"
#include "forcereleasedialog.h"
#include "redisservergroup.h"

#include <QCheckBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace lockscope;
using namespace lockscope::test;

namespace {

// Three real masters, the core in its own thread, and the latest view of every lock as the
// window would have it.
struct Harness
{
    explicit Harness(RedisServerGroup& group, bool readOnly = false)
    {
        config.masters = group.connectionOptions(1000);
        for (ConnectionOptions& m : config.masters)
            m.healthIntervalMs = 200;
        config.monitor.pollIntervalMs = 100;
        config.readOnly = readOnly;
        auditPath = dir.filePath(QStringLiteral("audit.jsonl"));
        core = std::make_unique<CoreThread>(config, auditPath);
        QObject::connect(core->service(), &CoreService::started, &context,
                         [this](const QStringList& masters) { names = masters; });
        QObject::connect(core->service(), &CoreService::locksChanged, &context, [this](const LockBatch& b) {
            for (const LockView& v : b.added)
                views.insert(v.resource, v);
            for (const LockView& v : b.changed)
                views.insert(v.resource, v);
            for (const QByteArray& r : b.removed)
                views.remove(r);
        });
        core->start();
    }

    QByteArray audit() const
    {
        QFile f(auditPath);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    QTemporaryDir dir;
    LockScopeConfig config;
    QString auditPath;
    QObject context;
    std::unique_ptr<CoreThread> core;
    QStringList names;
    QHash<QByteArray, LockView> views;
};

int holdersOf(RedisServerGroup& group, const QByteArray& key, const QByteArray& token)
{
    int n = 0;
    for (int i = 0; i < group.size(); ++i)
        n += group.at(i).command({"GET", key}).string == token ? 1 : 0;
    return n;
}

} // namespace

class TestUiForceRelease : public QObject
{
    Q_OBJECT

private slots:
    void confirmDeletesEverywhereAndIsAudited();
    void cancelDeletesNothingAndIsAudited();
    void tokenChangedInBetweenIsSpared();
    void readOnlyRefuses();
    void partialLockNeedsOnlyAPlainConfirmation();
};

void TestUiForceRelease::confirmDeletesEverywhereAndIsAudited()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:fr", "tok-1", "PX", "60000"});
    Harness h(group);
    QTRY_VERIFY_WITH_TIMEOUT(h.views.contains("lock:fr") && h.views.value("lock:fr").holding == 3, 5000);

    ForceReleaseDialog dialog(h.core.get(), h.views.value("lock:fr"), h.names, false);
    QSignalSpy inspected(&dialog, &ForceReleaseDialog::inspected);
    QVERIFY(inspected.wait(5000));
    QCOMPARE(dialog.stage(), ForceReleaseDialog::Stage::Ready);
    QCOMPARE(dialog.table()->rowCount(), 3);
    for (int row = 0; row < 3; ++row)
        QCOMPARE(dialog.table()->item(row, 2)->text(), QStringLiteral("DELETE"));

    // Held with a quorum: only the typed resource name unlocks the button.
    QVERIFY(dialog.needsTypedConfirmation());
    QVERIFY(!dialog.releaseButton()->isEnabled());
    dialog.confirmationEdit()->setText(QStringLiteral("lock:f"));
    QVERIFY(!dialog.releaseButton()->isEnabled());
    dialog.confirm(); // refused while unconfirmed
    QCOMPARE(dialog.stage(), ForceReleaseDialog::Stage::Ready);
    dialog.confirmationEdit()->setText(QStringLiteral("lock:fr"));
    QVERIFY(dialog.releaseButton()->isEnabled());

    QSignalSpy released(&dialog, &ForceReleaseDialog::released);
    QTest::mouseClick(dialog.releaseButton(), Qt::LeftButton);
    QVERIFY(released.wait(5000));
    QVERIFY(dialog.outcome().has_value());
    QCOMPARE(dialog.outcome()->verdict, ForceReleaseOutcome::Verdict::Done);
    QCOMPARE(dialog.outcome()->results.size(), 3);
    for (const ForceReleaseMasterResult& r : dialog.outcome()->results) {
        QCOMPARE(r.action, ForceReleaseMasterResult::Action::Deleted);
        QCOMPARE(r.tokenBefore, QByteArray("tok-1"));
    }
    for (int i = 0; i < 3; ++i)
        QCOMPARE(group.at(i).command({"EXISTS", "lock:fr"}).integer, 0);
    // Shown per master, and written to the audit log.
    QVERIFY(dialog.table()->item(0, 2)->text().startsWith(QStringLiteral("deleted")));
    QTRY_VERIFY(h.audit().contains("\"force-release\""));
    QVERIFY(h.audit().contains("\"done\""));
    QVERIFY(h.audit().contains("tok-1"));
}

void TestUiForceRelease::cancelDeletesNothingAndIsAudited()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:keep", "tok-k", "PX", "60000"});
    Harness h(group);
    QTRY_VERIFY_WITH_TIMEOUT(h.views.value("lock:keep").holding == 3, 5000);
    ForceReleaseDialog dialog(h.core.get(), h.views.value("lock:keep"), h.names, false);
    QSignalSpy inspected(&dialog, &ForceReleaseDialog::inspected);
    QVERIFY(inspected.wait(5000));
    dialog.confirmationEdit()->setText(QStringLiteral("lock:keep"));
    dialog.reject();
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    QTRY_VERIFY_WITH_TIMEOUT(h.audit().contains("\"cancelled\""), 3000);
    QCOMPARE(holdersOf(group, "lock:keep", "tok-k"), 3);
    QVERIFY(!dialog.outcome().has_value());
}

void TestUiForceRelease::tokenChangedInBetweenIsSpared()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:moved", "tok-old", "PX", "60000"});
    Harness h(group);
    QTRY_VERIFY_WITH_TIMEOUT(h.views.value("lock:moved").holding == 3, 5000);
    ForceReleaseDialog dialog(h.core.get(), h.views.value("lock:moved"), h.names, false);
    QSignalSpy inspected(&dialog, &ForceReleaseDialog::inspected);
    QVERIFY(inspected.wait(5000));
    QCOMPARE(dialog.expectedToken(), QByteArray("tok-old"));

    // While the admin reads the plan, the lock changes hands everywhere.
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:moved", "tok-new", "PX", "60000"});
    dialog.confirmationEdit()->setText(QStringLiteral("lock:moved"));
    QSignalSpy released(&dialog, &ForceReleaseDialog::released);
    dialog.confirm();
    QVERIFY(released.wait(5000));
    QCOMPARE(dialog.outcome()->verdict, ForceReleaseOutcome::Verdict::NothingDeleted);
    for (const ForceReleaseMasterResult& r : dialog.outcome()->results) {
        QCOMPARE(r.action, ForceReleaseMasterResult::Action::Spared);
        QCOMPARE(r.tokenBefore, QByteArray("tok-new"));
    }
    QCOMPARE(holdersOf(group, "lock:moved", "tok-new"), 3); // the new holder keeps its lock
}

void TestUiForceRelease::readOnlyRefuses()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:ro", "tok-ro", "PX", "60000"});
    Harness h(group, true);
    QTRY_VERIFY_WITH_TIMEOUT(h.views.value("lock:ro").holding == 3, 5000);
    ForceReleaseDialog dialog(h.core.get(), h.views.value("lock:ro"), h.names, true);
    QSignalSpy inspected(&dialog, &ForceReleaseDialog::inspected);
    QVERIFY(inspected.wait(5000));
    dialog.confirmationEdit()->setText(QStringLiteral("lock:ro"));
    QVERIFY(!dialog.releaseButton()->isEnabled());
    QVERIFY(!dialog.canConfirm());
    dialog.confirm();
    QCOMPARE(dialog.stage(), ForceReleaseDialog::Stage::Ready);

    // Even a request that gets past the window is refused by the core, without touching a master.
    QSignalSpy finished(h.core->service(), &CoreService::forceReleaseFinished);
    h.core->executeForceRelease(*dialog.plan());
    QVERIFY(finished.wait(5000));
    const auto report = finished.first().first().value<ForceReleaseReport>();
    QCOMPARE(report.outcome.verdict, ForceReleaseOutcome::Verdict::Refused);
    QCOMPARE(holdersOf(group, "lock:ro", "tok-ro"), 3);
}

void TestUiForceRelease::partialLockNeedsOnlyAPlainConfirmation()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    group.at(1).command({"SET", "lock:half", "tok-h", "PX", "60000"});
    Harness h(group);
    QTRY_VERIFY_WITH_TIMEOUT(h.views.contains("lock:half"), 5000);
    QCOMPARE(h.views.value("lock:half").status, LockStatus::Partial);
    ForceReleaseDialog dialog(h.core.get(), h.views.value("lock:half"), h.names, false);
    QSignalSpy inspected(&dialog, &ForceReleaseDialog::inspected);
    QVERIFY(inspected.wait(5000));
    QVERIFY(!dialog.needsTypedConfirmation());
    QVERIFY(!dialog.confirmationEdit()->isVisibleTo(&dialog));
    QVERIFY(!dialog.releaseButton()->isEnabled());
    dialog.confirmationBox()->setChecked(true);
    QVERIFY(dialog.releaseButton()->isEnabled());
    QSignalSpy released(&dialog, &ForceReleaseDialog::released);
    dialog.confirm();
    QVERIFY(released.wait(5000));
    QCOMPARE(dialog.outcome()->verdict, ForceReleaseOutcome::Verdict::Done);
    QCOMPARE(dialog.outcome()->results.at(1).action, ForceReleaseMasterResult::Action::Deleted);
    QCOMPARE(dialog.outcome()->results.at(0).action, ForceReleaseMasterResult::Action::Absent);
    QCOMPARE(group.at(1).command({"EXISTS", "lock:half"}).integer, 0);
}

QTEST_MAIN(TestUiForceRelease)
#include "tst_uiforcerelease.moc"
