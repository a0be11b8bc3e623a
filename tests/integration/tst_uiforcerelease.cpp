// SPDX-License-Identifier: Apache-2.0
#include "session/corethread.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "writes/forcereleasedialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uiforcerelease {

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

constexpr char readerA[] = "8e2f2a47-51a1-4c5f-9b0a-1f2d3c4b5a69:57";
constexpr char readerB[] = "0b7c9d12-3e4f-4a5b-8c6d-7e8f9a0b1c2d:12";
constexpr char readerC[] = "5d6e7f80-1a2b-4c3d-9e4f-5a6b7c8d9e0f:3";

// A Redisson read lock's reader, as RedissonReadLock leaves it: field, lease key, mode read.
void addReader(RedisServerGroup& group, const QByteArray& name, const QByteArray& reader)
{
    for (int i = 0; i < group.size(); ++i) {
        group.at(i).command({"HSET", name, "mode", "read"});
        group.at(i).command({"HINCRBY", name, reader, "1"});
        group.at(i).command({"SET", "{" + name + "}:" + reader + ":rwlock_timeout:1", "1", "PX", "60000"});
        group.at(i).command({"PEXPIRE", name, "60000"});
    }
}

// Opens the dialog on a lock and waits for its plan; `choice` picks a holder (-1: as opened).
std::unique_ptr<ForceReleaseDialog> openDialog(Harness& h, const QByteArray& resource, int choice = -1)
{
    auto dialog = std::make_unique<ForceReleaseDialog>(h.core.get(), h.views.value(resource), h.names,
                                                       ForceReleaseDialog::Session{});
    QSignalSpy inspected(dialog.get(), &ForceReleaseDialog::inspected);
    if (!inspected.wait(int(lockscope::test::upperBoundMs(5000))))
        return nullptr;
    if (choice >= 0 && choice != dialog->holderChoice()->currentIndex()) {
        dialog->holderChoice()->setCurrentIndex(choice);
        if (!inspected.wait(int(lockscope::test::upperBoundMs(5000))))
            return nullptr;
    }
    return dialog;
}

bool confirmAndWait(ForceReleaseDialog& dialog, const QByteArray& resource)
{
    dialog.confirmationEdit()->setText(QString::fromUtf8(resource));
    dialog.confirmationBox()->setChecked(true);
    QSignalSpy released(&dialog, &ForceReleaseDialog::released);
    dialog.confirm();
    return released.wait(int(lockscope::test::upperBoundMs(5000)));
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
    void redissonPreviewIsWhatHappens_data();
    void redissonPreviewIsWhatHappens();
    void redissonReaderJoinedAfterTheLook();
    void redissonAllReadersPreviewIsWhatHappens();
    void willIsVisibleBesideALongToken();
    void tokenChangedWhileOpenIsShownBeforeConfirming();
    void anUnrecognisedKeySaysSoPlainly();
};

void TestUiForceRelease::confirmDeletesEverywhereAndIsAudited()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:fr", "tok-1", "PX", "60000"});
    Harness h(group);
    QTRY_VERIFY_WITH_TIMEOUT(h.views.contains("lock:fr") && h.views.value("lock:fr").holding == 3, 5000);

    ForceReleaseDialog dialog(h.core.get(), h.views.value("lock:fr"), h.names, {});
    QSignalSpy inspected(&dialog, &ForceReleaseDialog::inspected);
    QVERIFY(inspected.wait(int(lockscope::test::upperBoundMs(5000))));
    QCOMPARE(dialog.stage(), ForceReleaseDialog::Stage::Ready);
    QCOMPARE(dialog.table()->rowCount(), 3);
    for (int row = 0; row < 3; ++row)
        QCOMPARE(dialog.table()->item(row, 1)->text(),
                 QStringLiteral("delete the key, if it still holds the token shown"));

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
    QVERIFY(released.wait(int(lockscope::test::upperBoundMs(5000))));
    QVERIFY(dialog.outcome().has_value());
    QCOMPARE(dialog.outcome()->verdict, WriteVerdict::Done);
    QCOMPARE(dialog.outcome()->results.size(), 3);
    for (const ForceReleaseMasterResult& r : dialog.outcome()->results) {
        QCOMPARE(r.action, ForceReleaseMasterResult::Action::Deleted);
        QCOMPARE(r.tokenBefore, QByteArray("tok-1"));
    }
    for (int i = 0; i < 3; ++i)
        QCOMPARE(group.at(i).command({"EXISTS", "lock:fr"}).integer, 0);
    // Shown per master, and written to the audit log.
    QVERIFY(dialog.table()->item(0, 1)->text().startsWith(QStringLiteral("deleted")));
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
    ForceReleaseDialog dialog(h.core.get(), h.views.value("lock:keep"), h.names, {});
    QSignalSpy inspected(&dialog, &ForceReleaseDialog::inspected);
    QVERIFY(inspected.wait(int(lockscope::test::upperBoundMs(5000))));
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
    ForceReleaseDialog dialog(h.core.get(), h.views.value("lock:moved"), h.names, {});
    QSignalSpy inspected(&dialog, &ForceReleaseDialog::inspected);
    QVERIFY(inspected.wait(int(lockscope::test::upperBoundMs(5000))));
    QCOMPARE(dialog.expectedToken(), QByteArray("tok-old"));

    // While the admin reads the plan, the lock changes hands everywhere.
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:moved", "tok-new", "PX", "60000"});
    dialog.confirmationEdit()->setText(QStringLiteral("lock:moved"));
    QSignalSpy released(&dialog, &ForceReleaseDialog::released);
    dialog.confirm();
    QVERIFY(released.wait(int(lockscope::test::upperBoundMs(5000))));
    QCOMPARE(dialog.outcome()->verdict, WriteVerdict::NotDone);
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
    ForceReleaseDialog dialog(h.core.get(), h.views.value("lock:ro"), h.names, {.readOnly = true});
    QSignalSpy inspected(&dialog, &ForceReleaseDialog::inspected);
    QVERIFY(inspected.wait(int(lockscope::test::upperBoundMs(5000))));
    dialog.confirmationEdit()->setText(QStringLiteral("lock:ro"));
    QVERIFY(!dialog.releaseButton()->isEnabled());
    QVERIFY(!dialog.canConfirm());
    dialog.confirm();
    QCOMPARE(dialog.stage(), ForceReleaseDialog::Stage::Ready);

    // Even a request that gets past the window is refused by the core, without touching a master.
    // The refusal is sent from the core's thread at once, possibly before this thread would start
    // waiting on a spy (QSignalSpy::wait counts only what arrives while it waits): the report is
    // taken in this thread, queued, and waited for by count.
    QList<ForceReleaseReport> reports;
    QObject::connect(h.core->service(), &CoreService::forceReleaseFinished, &h.context,
                     [&reports](const ForceReleaseReport& r) { reports.append(r); });
    h.core->request(&CoreService::executeForceRelease, *dialog.plan());
    QTRY_COMPARE_WITH_TIMEOUT(reports.size(), 1, int(lockscope::test::upperBoundMs(5000)));
    const ForceReleaseReport& report = reports.first();
    QCOMPARE(report.outcome.verdict, WriteVerdict::Refused);
    QCOMPARE(holdersOf(group, "lock:ro", "tok-ro"), 3);
}

void TestUiForceRelease::partialLockNeedsOnlyAPlainConfirmation()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    // A token of a known format: an unrecognised one asks for the name typed (anUnrecognisedKey…).
    group.at(1).command({"SET", "lock:half", "ops@host:1/0123456789abcdef0123456789abcdef", "PX", "60000"});
    Harness h(group);
    QTRY_VERIFY_WITH_TIMEOUT(h.views.contains("lock:half"), 5000);
    QCOMPARE(h.views.value("lock:half").status, LockStatus::Partial);
    ForceReleaseDialog dialog(h.core.get(), h.views.value("lock:half"), h.names, {});
    QSignalSpy inspected(&dialog, &ForceReleaseDialog::inspected);
    QVERIFY(inspected.wait(int(lockscope::test::upperBoundMs(5000))));
    QVERIFY(!dialog.needsTypedConfirmation());
    QVERIFY(!dialog.confirmationEdit()->isVisibleTo(&dialog));
    QVERIFY(!dialog.releaseButton()->isEnabled());
    dialog.confirmationBox()->setChecked(true);
    QVERIFY(dialog.releaseButton()->isEnabled());
    QSignalSpy released(&dialog, &ForceReleaseDialog::released);
    dialog.confirm();
    QVERIFY(released.wait(int(lockscope::test::upperBoundMs(5000))));
    QCOMPARE(dialog.outcome()->verdict, WriteVerdict::Done);
    QCOMPARE(dialog.outcome()->results.at(1).action, ForceReleaseMasterResult::Action::Deleted);
    QCOMPARE(dialog.outcome()->results.at(0).action, ForceReleaseMasterResult::Action::Absent);
    QCOMPARE(group.at(1).command({"EXISTS", "lock:half"}).integer, 0);
}

void TestUiForceRelease::redissonPreviewIsWhatHappens_data()
{
    QTest::addColumn<QList<QByteArrayList>>("setup");
    QTest::addColumn<int>("choice");
    QTest::addColumn<QString>("will");
    QTest::addColumn<int>("action");
    QTest::addColumn<QByteArrayList>("stays");
    const QByteArray writer = QByteArray(readerA) + ":write";
    QTest::newRow("one holder") << QList<QByteArrayList>{{"HINCRBY", "lock:rs", readerA, "1"},
                                                         {"PEXPIRE", "lock:rs", "60000"}}
                                << -1
                                << QStringLiteral("delete the key; wake its waiters: PUBLISH 0 on "
                                                  "redisson_lock__channel:{lock:rs}")
                                << int(ForceReleaseMasterResult::Action::Deleted) << QByteArrayList{};
    QTest::newRow("re-entered") << QList<QByteArrayList>{{"HINCRBY", "lock:rs", readerA, "3"},
                                                         {"PEXPIRE", "lock:rs", "60000"}}
                                << -1 << QStringLiteral("entered 3 times")
                                << int(ForceReleaseMasterResult::Action::Deleted) << QByteArrayList{};
    QTest::newRow("write lock") << QList<QByteArrayList>{{"HSET", "lock:rs", "mode", "write", writer, "1"},
                                                         {"PEXPIRE", "lock:rs", "60000"}}
                                << -1 << QStringLiteral("PUBLISH 1 on redisson_rwlock:{lock:rs}")
                                << int(ForceReleaseMasterResult::Action::Deleted) << QByteArrayList{};
    // Two readers: the picker's first entry is both, then each; B (sorted first) is entry 1.
    QTest::newRow("two readers, remove one")
        << QList<QByteArrayList>{{"HSET", "lock:rs", "mode", "read", readerA, "1", readerB, "1"},
                                 {"PEXPIRE", "lock:rs", "60000"}}
        << 2 << QStringLiteral("the key stays for 1 other holder(s)")
        << int(ForceReleaseMasterResult::Action::HolderRemoved) << QByteArrayList{readerB};
}

void TestUiForceRelease::redissonPreviewIsWhatHappens()
{
    QFETCH(QList<QByteArrayList>, setup);
    QFETCH(int, choice);
    QFETCH(QString, will);
    QFETCH(int, action);
    QFETCH(QByteArrayList, stays);
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int i = 0; i < 3; ++i)
        for (const QByteArrayList& command : setup)
            QVERIFY(!group.at(i).command(command).isError());
    Harness h(group);
    QTRY_VERIFY_WITH_TIMEOUT(h.views.value("lock:rs").holding == 3, 5000);
    const auto dialog = openDialog(h, "lock:rs", choice);
    QVERIFY(dialog);
    QVERIFY(dialog->plan());
    const ForceReleasePlan plan = *dialog->plan();
    for (int row = 0; row < 3; ++row) {
        // The window shows the core's step, word for word.
        QCOMPARE(dialog->table()->item(row, 1)->text(), plan.targets.at(row).step.summary());
        QVERIFY2(dialog->table()->item(row, 1)->text().contains(will),
                 qPrintable(dialog->table()->item(row, 1)->text()));
    }
    QVERIFY(confirmAndWait(*dialog, "lock:rs"));
    QCOMPARE(dialog->outcome()->verdict, WriteVerdict::Done);
    for (int i = 0; i < 3; ++i) {
        const ForceReleaseMasterResult& r = dialog->outcome()->results.at(i);
        QCOMPARE(int(r.action), action);
        QCOMPARE(r.commands, plan.targets.at(i).step.commands); // what happened is what was shown
        QCOMPARE(group.at(i).command({"EXISTS", "lock:rs"}).integer, stays.isEmpty() ? 0 : 1);
        for (const QByteArray& holder : stays)
            QCOMPARE(group.at(i).command({"HEXISTS", "lock:rs", holder}).integer, 1);
    }
}

void TestUiForceRelease::redissonReaderJoinedAfterTheLook()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    addReader(group, "lock:rs", readerA);
    Harness h(group);
    QTRY_VERIFY_WITH_TIMEOUT(h.views.value("lock:rs").holding == 3, 5000);
    const auto dialog = openDialog(h, "lock:rs");
    QVERIFY(dialog);
    QVERIFY(dialog->table()->item(0, 1)->text().contains(QLatin1String("delete the key")));
    // The preview names its condition: a changed lock gets nothing at all.
    QVERIFY(dialog->table()->item(0, 1)->text().contains(
        QLatin1String("nothing at all if the lock has changed")));
    addReader(group, "lock:rs", readerC); // joins while the admin reads
    QVERIFY(confirmAndWait(*dialog, "lock:rs"));
    QCOMPARE(dialog->outcome()->verdict, WriteVerdict::NotDone);
    for (int i = 0; i < 3; ++i) {
        const ForceReleaseMasterResult& r = dialog->outcome()->results.at(i);
        QCOMPARE(r.action, ForceReleaseMasterResult::Action::Spared);
        QVERIFY(r.commands.isEmpty());
        QCOMPARE(group.at(i).command({"HEXISTS", "lock:rs", readerA}).integer, 1);
        QCOMPARE(group.at(i).command({"HEXISTS", "lock:rs", readerC}).integer, 1);
    }
    QVERIFY(dialog->table()->item(0, 1)->text().contains(QLatin1String("joined")));
}

void TestUiForceRelease::redissonAllReadersPreviewIsWhatHappens()
{
    // Two readers, the dialog opened on the lock as listed (both holders): what the Will column
    // promises is what the masters then do.
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    addReader(group, "lock:rs", readerA);
    addReader(group, "lock:rs", readerB);
    Harness h(group);
    QTRY_VERIFY_WITH_TIMEOUT(h.views.value("lock:rs").holding == 3, 5000);
    const auto dialog = openDialog(h, "lock:rs");
    QVERIFY(dialog);
    QStringList promised;
    for (int row = 0; row < 3; ++row)
        promised << dialog->table()->item(row, 1)->text();
    QVERIFY(confirmAndWait(*dialog, "lock:rs"));
    for (int i = 0; i < 3; ++i) {
        // Every plan that acts here removes the last holders, so it deletes the key.
        const bool promisesDeletion = promised.at(i).contains(QLatin1String("delete"), Qt::CaseInsensitive);
        const bool deleted = group.at(i).command({"EXISTS", "lock:rs"}).integer == 0;
        QVERIFY2(promisesDeletion == deleted,
                 qPrintable(
                     QStringLiteral("promised '%1', the key %2")
                         .arg(promised.at(i), deleted ? QStringLiteral("went") : QStringLiteral("stayed"))));
    }
    QVERIFY(group.at(0).command({"EXISTS", "lock:rs"}).integer == 0);
}

void TestUiForceRelease::willIsVisibleBesideALongToken()
{
    // Issue #41: with a long token "Will" was off the dialog's right edge, and scrolling to it lost
    // the master column. It also said DEL where a token-checked script goes.
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    const QByteArray token = "deploy-bot@" + QByteArray(400, 'x') + ":77/0123456789abcdef0123456789abcdef";
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:long", token, "PX", "60000"});
    Harness h(group);
    QTRY_VERIFY_WITH_TIMEOUT(h.views.value("lock:long").holding == 3, 5000);
    const auto dialog = openDialog(h, "lock:long");
    QVERIFY(dialog);
    dialog->show();
    QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
    QTableWidget* table = dialog->table();
    QCOMPARE(table->horizontalHeaderItem(1)->text(), QStringLiteral("Will"));
    QVERIFY2(table->horizontalHeader()->length() <= table->viewport()->width(),
             qPrintable(QStringLiteral("%1 > %2")
                            .arg(table->horizontalHeader()->length())
                            .arg(table->viewport()->width())));
    for (int row = 0; row < 3; ++row) {
        // Across: within the view (rows scroll down, never sideways).
        const QRect will = table->visualItemRect(table->item(row, 1));
        QVERIFY2(will.left() >= 0 && will.right() <= table->viewport()->width(),
                 qPrintable(QStringLiteral("row %1: %2..%3").arg(row).arg(will.left()).arg(will.right())));
        QVERIFY2(will.width() >= 150, qPrintable(QString::number(will.width())));
        const QRect master = table->visualItemRect(table->item(row, 0));
        QVERIFY(master.left() >= 0 && master.right() <= table->viewport()->width());
        // The token is cut on screen, whole in the tooltip.
        QVERIFY(table->item(row, 2)->toolTip().contains(QString::fromLatin1(token)));
        // What is sent: a script that checks the token first, not a bare DEL.
        const QString will_ = table->item(row, 1)->text();
        QCOMPARE(will_, QStringLiteral("delete the key, if it still holds the token shown"));
        const QString sent = table->item(row, 1)->toolTip();
        QVERIFY2(sent.contains(QStringLiteral("one script (EVALSHA) that checks first, if it still holds the "
                                              "token shown, and only then runs:\n  DEL lock:long")),
                 qPrintable(sent));
    }
}

void TestUiForceRelease::tokenChangedWhileOpenIsShownBeforeConfirming()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:turn", "tok-1", "PX", "60000"});
    Harness h(group);
    QTRY_VERIFY_WITH_TIMEOUT(h.views.value("lock:turn").holding == 3, 5000);
    const auto dialog = openDialog(h, "lock:turn");
    QVERIFY(dialog);
    dialog->confirmationEdit()->setText(QStringLiteral("lock:turn"));
    QVERIFY(dialog->canConfirm());

    // M2 changes hands while the admin reads the plan: the dialog shows it, and asks again.
    group.at(1).command({"SET", "lock:turn", "tok-2", "PX", "60000"});
    QTRY_VERIFY_WITH_TIMEOUT(dialog->table()->item(1, 1)->text().startsWith(QLatin1String("spare")), 5000);
    QVERIFY(dialog->table()->item(1, 1)->font().bold());
    QVERIFY(!dialog->table()->item(0, 1)->font().bold());
    QVERIFY2(dialog->summaryLabel()->text().contains(QLatin1String("Changed while this dialog was open")),
             qPrintable(dialog->summaryLabel()->text()));
    QVERIFY(!dialog->canConfirm());

    QVERIFY(confirmAndWait(*dialog, "lock:turn"));
    QCOMPARE(dialog->outcome()->verdict, WriteVerdict::Done);
    QCOMPARE(dialog->outcome()->results.at(1).action, ForceReleaseMasterResult::Action::Spared);
    QCOMPARE(dialog->outcome()->results.at(0).action, ForceReleaseMasterResult::Action::Deleted);
    QCOMPARE(holdersOf(group, "lock:turn", "tok-2"), 1);
    // Not "done": the result and the audit record say what it was.
    QVERIFY2(dialog->resultLabel()->text().contains(QLatin1String("partial (1 spared)")),
             qPrintable(dialog->resultLabel()->text()));
    QTRY_VERIFY(h.audit().contains("\"outcome\":\"partial\""));
    QVERIFY(h.audit().contains("partial (1 spared)"));
}

void TestUiForceRelease::anUnrecognisedKeySaysSoPlainly()
{
    // A "locks" pattern (lock:* among the defaults) lists a key of no lock format; stuck without a
    // TTL. The dialog says it may be an ordinary key, and asks for its name.
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    group.at(0).command({"SET", "lock:notes", "remember the milk"});
    Harness h(group);
    QTRY_VERIFY_WITH_TIMEOUT(h.views.contains("lock:notes"), 5000);
    QCOMPARE(h.views.value("lock:notes").status, LockStatus::Stuck);
    const auto dialog = openDialog(h, "lock:notes");
    QVERIFY(dialog);
    QVERIFY(dialog->unrecognisedWarning()->isVisibleTo(dialog.get()));
    QVERIFY2(dialog->unrecognisedWarning()->text().contains(QLatin1String("does not recognise this key")),
             qPrintable(dialog->unrecognisedWarning()->text()));
    QVERIFY(dialog->needsTypedConfirmation());
    dialog->confirmationBox()->setChecked(true);
    QVERIFY(!dialog->canConfirm());
    QVERIFY(confirmAndWait(*dialog, "lock:notes"));
    QCOMPARE(group.at(0).command({"EXISTS", "lock:notes"}).integer, 0);
    QTRY_VERIFY(h.audit().contains("a key of no lock format LockScope knows"));

    // A recognised lock has no such warning.
    group.at(0).command({"SET", "lock:known", "ops@host:1/0123456789abcdef0123456789abcdef", "PX", "60000"});
    QTRY_VERIFY_WITH_TIMEOUT(h.views.contains("lock:known"), 5000);
    const auto known = openDialog(h, "lock:known");
    QVERIFY(known);
    QVERIFY(!known->unrecognisedWarning()->isVisibleTo(known.get()));
}

LOCKSCOPE_TEST_MAIN(TestUiForceRelease)

} // namespace tst_uiforcerelease

#include "tst_uiforcerelease.moc"
