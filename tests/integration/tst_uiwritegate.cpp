// SPDX-License-Identifier: Apache-2.0
// Issue 14, "Trust in the admin path", in the real window: read-only can only be tightened (launch
// options against a profile chosen with Ctrl+K, a profile locked read-only), enabling keyspace
// events is a write like any other, and every write from the window is checked against the audit
// log before a master is touched and reported loudly when its record could not be written.
#include "connections/productionwrites.h"
#include "connections/profilestore.h"
#include "eventlog/eventlogmodel.h"
#include "locks/locktablemodel.h"
#include "masters/mastertablemodel.h"
#include "session/coreservice.h"
#include "session/corethread.h"
#include "session/launchoptions.h"
#include "support/filesizelimit.h"
#include "support/pollingmasters.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/testsettings.h"
#include "window/mainwindow.h"
#include "writes/forcereleasedialog.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

#include "connections/connectionsdialog.h"

namespace tst_uiwritegate {

using namespace lockscope;
using namespace lockscope::test;

namespace {

ConnectionProfile profileFor(const QString& name, const RedisServer& server, bool readOnly, bool locked)
{
    ConnectionProfile p;
    p.name = name;
    p.readOnly = readOnly;
    p.readOnlyLocked = locked;
    MasterEntry e;
    e.url = server.url(false);
    // The fixture's password, as a profile takes it where no keychain is (this process's environment).
    e.passwordEnv = QString::fromLatin1(testPasswordVar);
    qputenv(testPasswordVar, server.options().password.toUtf8());
    p.masters << e;
    return p;
}

// One master (commands time out after a second) and a window over it, shown; started once the
// master is up.
struct WindowOnOneMaster
{
    RedisServerGroup servers;
    std::unique_ptr<MainWindow> window;

    bool start(const QString& auditLogPath)
    {
        if (!servers.start(1))
            return false;
        LockScopeConfig config;
        config.masters = servers.connectionOptions(1000);
        // The writes here must go through: a Redlock's 50 ms per master, scaled to the machine
        // (quickConfig's reason).
        config.redlock.masterTimeoutMs = int(upperBoundMs(config.redlock.masterTimeoutMs));
        window = std::make_unique<MainWindow>(config, auditLogPath);
        window->show();
        return QTest::qWaitFor([this] { return window->masterModel()->upCount() == 1; },
                               int(upperBoundMs(5000)));
    }
};

// Runs `open`, which shows a modal dialog and returns once it is answered, and answers it with
// `answer`: the first visible top-level widget it takes (returns true for). False if none was.
bool answerModal(const std::function<void()>& open, const std::function<bool(QWidget*)>& answer)
{
    QTimer poll;
    bool answered = false;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (w->isVisible() && answer(w)) {
                poll.stop();
                answered = true;
                return;
            }
    });
    poll.start(20);
    open();
    return answered;
}

// Opens Connections (Ctrl+K) and connects to `profile`, as a user would.
void chooseProfile(MainWindow& window, const QString& profile)
{
    QVERIFY(answerModal([&] { window.connectionsAction()->trigger(); },
                        [&](QWidget* w) {
                            auto* dialog = qobject_cast<ConnectionsDialog*>(w);
                            if (!dialog)
                                return false;
                            auto* box = dialog->findChild<QComboBox*>();
                            box->setCurrentIndex(box->findText(profile));
                            for (QPushButton* b : dialog->findChildren<QPushButton*>())
                                if (b->text() == QObject::tr("&Connect"))
                                    b->click();
                            return true;
                        }));
}

// The window watches `server` (a profile chosen has taken effect) and has finished its first scan.
bool watchesAndScanned(const MainWindow& window, const RedisServer& server)
{
    return window.masterModel()->rowCount() > 0 &&
           window.masterModel()->snapshot(0).name == server.url(false) && window.isInitialScanFinished();
}

bool logged(const MainWindow& window, const QString& part)
{
    for (int r = 0; r < window.eventLog()->rowCount(); ++r)
        if (window.eventLog()->entry(r).message.contains(part))
            return true;
    return false;
}

QList<QJsonObject> auditLines(const QString& path)
{
    QList<QJsonObject> out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray& line : file.readAll().split('\n'))
        if (const QJsonDocument doc = QJsonDocument::fromJson(line); doc.isObject())
            out << doc.object();
    return out;
}

} // namespace

class TestUiWriteGate : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void readOnlyLaunchWinsOverAWritableProfile();
    void lockedProfileKeepsTheProcessReadOnly();
    void enablingEventsIsRefusedByTheCoreWhenReadOnly();
    void enablingEventsIsAudited();
    void enablingEventsNeedsAWritableAuditLog();
    void windowWritesCheckTheAuditLogFirst();
    void unrecordedWriteShowsADialog();
    void productionProfileOpensLockedUntilUnlocked();

private:
    QTemporaryDir m_dir;
};

void TestUiWriteGate::init()
{
    QVERIFY(m_dir.isValid());
    useTestSettings(m_dir.path(), QStringLiteral("tst_uiwritegate"));
}

void TestUiWriteGate::readOnlyLaunchWinsOverAWritableProfile()
{
    RedisServerGroup servers;
    QVERIFY2(servers.start(2), qPrintable(servers.errorString()));
    servers.at(1).command({"SET", "mine:b", "tok", "PX", "60000"});
    servers.at(1).command({"SET", "lock:b", "tok", "PX", "60000"});
    ProfileStore::save({profileFor(QStringLiteral("dev"), servers.at(1), false, false)});
    const QString audit = m_dir.filePath(QStringLiteral("ro/audit.jsonl"));
    // lockscope --read-only --pattern 'mine:*' --timeout-ms 700 -m <first>
    Result<LaunchOptions> options = LaunchOptions::parse(
        {QStringLiteral("lockscope"), QStringLiteral("--read-only"), QStringLiteral("--pattern"),
         QStringLiteral("mine:*"), QStringLiteral("--timeout-ms"), QStringLiteral("700"),
         QStringLiteral("--audit-log"), audit, QStringLiteral("-m"), servers.at(0).url()});
    QVERIFY2(options, qPrintable(options ? QString() : options.error().message));
    MainWindow window(options->config, options->auditLogPath);
    window.setLaunchConfig(options->launch);
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(window.isReadOnly(), 5000);

    chooseProfile(window, QStringLiteral("dev"));
    QTRY_VERIFY_WITH_TIMEOUT(watchesAndScanned(window, servers.at(1)), 15000);
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->rowOf("mine:b") >= 0, 5000);
    // Read-only wins, and the launch's --pattern and --timeout-ms still apply.
    QVERIFY(window.isReadOnly());
    QVERIFY(!window.acquireAction()->isEnabled());
    QCOMPARE(window.lockModel()->rowOf("lock:b"), -1);
    QCOMPARE(window.masterModel()->snapshot(0).timeoutMs, 700);
    // Not only greyed out: the core refuses and nothing reaches the master.
    window.core()->request(&CoreService::acquire, "mine:new", 10000, 0, false);
    QTRY_VERIFY_WITH_TIMEOUT(logged(window, QStringLiteral("read-only mode: acquire refused")), 5000);
    QCOMPARE(servers.at(1).command({"EXISTS", "mine:new"}).integer, 0);
}

void TestUiWriteGate::lockedProfileKeepsTheProcessReadOnly()
{
    RedisServerGroup servers;
    QVERIFY2(servers.start(2), qPrintable(servers.errorString()));
    ProfileStore::save({profileFor(QStringLiteral("ops"), servers.at(1), false, true),
                        profileFor(QStringLiteral("dev"), servers.at(0), false, false),
                        profileFor(QStringLiteral("view"), servers.at(1), true, false)});
    const QString audit = m_dir.filePath(QStringLiteral("locked/audit.jsonl"));
    Result<LaunchOptions> options =
        LaunchOptions::parse({QStringLiteral("lockscope"), QStringLiteral("--audit-log"), audit,
                              QStringLiteral("-m"), servers.at(0).url()});
    QVERIFY(options);
    MainWindow window(options->config, options->auditLogPath);
    window.setLaunchConfig(options->launch);
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(window.isInitialScanFinished(), 10000);
    QVERIFY(!window.isReadOnly());

    // A plain read-only profile, then a writable one: writable again (only the lock binds).
    chooseProfile(window, QStringLiteral("view"));
    QTRY_VERIFY_WITH_TIMEOUT(window.isReadOnly(), 5000);
    chooseProfile(window, QStringLiteral("dev"));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isReadOnly(), 5000);

    // The locked profile: read-only, and for the rest of this process.
    chooseProfile(window, QStringLiteral("ops"));
    QTRY_VERIFY_WITH_TIMEOUT(window.isReadOnly(), 5000);
    chooseProfile(window, QStringLiteral("dev"));
    QTRY_VERIFY_WITH_TIMEOUT(watchesAndScanned(window, servers.at(0)), 15000);
    QVERIFY(window.isReadOnly());
    QVERIFY(!window.acquireAction()->isEnabled());
}

void TestUiWriteGate::enablingEventsIsRefusedByTheCoreWhenReadOnly()
{
    RedisServerGroup servers;
    LockScopeConfig config;
    QVERIFY2(startPollingMasters(servers, 1, config), qPrintable(servers.errorString()));
    config.readOnly = true;
    const QString audit = m_dir.filePath(QStringLiteral("events-ro/audit.jsonl"));
    MainWindow window(config, audit);
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->upCount(), 1, 5000);
    // As if the greyed-out menu entry had been bypassed.
    window.core()->call(&CoreService::enableNotifications, 0);
    QTRY_VERIFY_WITH_TIMEOUT(
        logged(window, QStringLiteral("read-only")) || !notifyFlags(servers.at(0)).isEmpty(), 5000);
    QCOMPARE(notifyFlags(servers.at(0)), QByteArray());
    // The refusal is recorded.
    const QList<QJsonObject> lines = auditLines(audit);
    QVERIFY(!lines.isEmpty());
    QCOMPARE(lines.last().value(QStringLiteral("action")).toString(), QStringLiteral("enable-events"));
    QCOMPARE(lines.last().value(QStringLiteral("outcome")).toString(), QStringLiteral("refused"));
}

void TestUiWriteGate::enablingEventsIsAudited()
{
    RedisServerGroup servers;
    LockScopeConfig config;
    QVERIFY2(startPollingMasters(servers, 1, config), qPrintable(servers.errorString()));
    const QString audit = m_dir.filePath(QStringLiteral("events/audit.jsonl"));
    MainWindow window(config, audit);
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->upCount(), 1, 5000);
    window.core()->call(&CoreService::enableNotifications, 0);
    QTRY_VERIFY_WITH_TIMEOUT(!notifyFlags(servers.at(0)).isEmpty(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!auditLines(audit).isEmpty(), 5000);
    const QJsonObject line = auditLines(audit).last();
    QCOMPARE(line.value(QStringLiteral("action")).toString(), QStringLiteral("enable-events"));
    QCOMPARE(line.value(QStringLiteral("outcome")).toString(), QStringLiteral("done"));
    QCOMPARE(line.value(QStringLiteral("masters")).toArray().first().toString(), servers.at(0).url(false));
}

void TestUiWriteGate::enablingEventsNeedsAWritableAuditLog()
{
    RedisServerGroup servers;
    LockScopeConfig config;
    QVERIFY2(startPollingMasters(servers, 1, config), qPrintable(servers.errorString()));
    const QString blocker = m_dir.filePath(QStringLiteral("events-blocked"));
    {
        QFile file(blocker); // a file where the audit log's directory should be
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    MainWindow window(config, blocker + QStringLiteral("/audit.jsonl"));
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->upCount(), 1, 5000);
    window.core()->call(&CoreService::enableNotifications, 0);
    QTRY_VERIFY_WITH_TIMEOUT(logged(window, QStringLiteral("enable keyspace events refused")) ||
                                 !notifyFlags(servers.at(0)).isEmpty(),
                             5000);
    QCOMPARE(notifyFlags(servers.at(0)), QByteArray()); // nothing sent
}

void TestUiWriteGate::windowWritesCheckTheAuditLogFirst()
{
    const QString where = m_dir.filePath(QStringLiteral("gate"));
    WindowOnOneMaster w;
    QVERIFY2(w.start(where + QStringLiteral("/audit.jsonl")), qPrintable(w.servers.errorString()));
    MainWindow& window = *w.window;
    window.core()->request(&CoreService::acquire, "lock:w", 30000, 0, false);
    QTRY_VERIFY_WITH_TIMEOUT(logged(window, QStringLiteral("acquire: done")), 5000);
    QCOMPARE(w.servers.at(0).command({"EXISTS", "lock:w"}).integer, 1);

    // The audit log becomes unwritable: a file where its directory was.
    QVERIFY(QDir(where).removeRecursively());
    {
        QFile blocker(where);
        QVERIFY(blocker.open(QIODevice::WriteOnly));
    }
    window.core()->request(&CoreService::extend, "lock:w", 600000);
    QTRY_VERIFY_WITH_TIMEOUT(logged(window, QStringLiteral("extend: refused")), 5000);
    QVERIFY(w.servers.at(0).command({"PTTL", "lock:w"}).integer <= 30000); // not extended
    window.core()->request(&CoreService::release, "lock:w");
    QTRY_VERIFY_WITH_TIMEOUT(logged(window, QStringLiteral("release: refused")), 5000);
    QCOMPARE(w.servers.at(0).command({"EXISTS", "lock:w"}).integer, 1); // not released
    window.core()->request(&CoreService::acquire, "lock:w2", 30000, 0, false);
    QTRY_VERIFY_WITH_TIMEOUT(logged(window, QStringLiteral("acquire: refused")), 5000);
    QCOMPARE(w.servers.at(0).command({"EXISTS", "lock:w2"}).integer, 0); // nothing sent
    QVERIFY(logged(window, QStringLiteral("could not be recorded")));
}

void TestUiWriteGate::unrecordedWriteShowsADialog()
{
    const QString audit = m_dir.filePath(QStringLiteral("full/audit.jsonl"));
    WindowOnOneMaster w;
    QVERIFY2(w.start(audit), qPrintable(w.servers.errorString()));
    MainWindow& window = *w.window;
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(audit), 5000); // checked at start, so created
    {
        // The disk is full from now on: the check still opens the file, the append fails.
        const FileSizeLimit full(rlim_t(QFileInfo(audit).size()));
        window.core()->request(&CoreService::acquire, "lock:unrecorded", 30000, 0, false);
        QTRY_VERIFY_WITH_TIMEOUT(window.findChild<QMessageBox*>(QStringLiteral("auditLostDialog")), 5000);
    }
    auto* box = window.findChild<QMessageBox*>(QStringLiteral("auditLostDialog"));
    QVERIFY(box->isVisible());
    QVERIFY2(box->informativeText().contains(QStringLiteral("lock:unrecorded")),
             qPrintable(box->informativeText()));
    QCOMPARE(w.servers.at(0).command({"EXISTS", "lock:unrecorded"}).integer, 1); // it did happen
    QVERIFY(logged(window, QStringLiteral("NOT RECORDED")));
}

// Answers the question File > Unlock writes asks, as a user would.
void unlockWrites(MainWindow& window)
{
    QVERIFY(answerModal([&] { window.productionWrites()->action()->trigger(); },
                        [](QWidget* w) {
                            auto* box = qobject_cast<QMessageBox*>(w);
                            for (QAbstractButton* b : box ? box->buttons() : QList<QAbstractButton*>())
                                if (b->text() == QObject::tr("&Unlock writes")) {
                                    b->click();
                                    return true;
                                }
                            return false;
                        }));
}

// A production profile (#45): read-only when it opens, the core refusing writes; unlocked for the
// session by File > Unlock writes, which the audit log records first (and without which it stays
// locked); a force-release there asks for the resource's name even where it otherwise would not.
void TestUiWriteGate::productionProfileOpensLockedUntilUnlocked()
{
    RedisServerGroup servers;
    QVERIFY2(servers.start(2), qPrintable(servers.errorString()));
    // On one master of two: partial, which outside production needs no typed name.
    QCOMPARE(servers.at(0)
                 .command({"SET", "lock:half", "ops@host:1/0123456789abcdef0123456789abcdef", "PX", "600000"})
                 .string,
             QByteArray("OK"));
    ConnectionProfile prod = profileFor(QStringLiteral("prod"), servers.at(0), false, false);
    prod.masters << profileFor(QStringLiteral("prod"), servers.at(1), false, false).masters;
    prod.production = true;
    ProfileStore::save({prod});
    const QString where = m_dir.filePath(QStringLiteral("production"));
    const QString audit = where + QStringLiteral("/audit.jsonl");
    Result<LaunchOptions> options =
        LaunchOptions::parse({QStringLiteral("lockscope"), QStringLiteral("--audit-log"), audit});
    QVERIFY(options);
    MainWindow window(options->config, options->auditLogPath);
    window.setLaunchConfig(options->launch);
    window.show();
    chooseProfile(window, QStringLiteral("prod"));
    QTRY_VERIFY_WITH_TIMEOUT(watchesAndScanned(window, servers.at(0)), 15000);
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->rowOf("lock:half") >= 0, 5000);
    QVERIFY(window.isReadOnly());
    QVERIFY(window.windowTitle().contains(QStringLiteral("PRODUCTION")));
    QVERIFY(!window.acquireAction()->isEnabled());
    QVERIFY2(window.acquireAction()->toolTip().contains(QStringLiteral("Unlock writes")),
             qPrintable(window.acquireAction()->toolTip()));
    QAction* toggle = window.productionWrites()->action();
    QVERIFY(toggle->isVisible() && toggle->isEnabled());
    // The core refuses, whatever the buttons say.
    window.core()->request(&CoreService::acquire, "lock:new", 10000, 0, false);
    QTRY_VERIFY_WITH_TIMEOUT(logged(window, QStringLiteral("read-only mode: acquire refused")), 5000);
    QCOMPARE(servers.at(0).command({"EXISTS", "lock:new"}).integer, 0);

    unlockWrites(window);
    QTRY_VERIFY_WITH_TIMEOUT(!window.isReadOnly() && window.isInitialScanFinished(), 15000);
    QVERIFY(window.windowTitle().contains(QStringLiteral("PRODUCTION")));
    QCOMPARE(toggle->text(), QObject::tr("&Lock writes again"));
    const QList<QJsonObject> lines = auditLines(audit);
    QVERIFY(!lines.isEmpty());
    QCOMPARE(lines.last().value(QStringLiteral("action")).toString(), QStringLiteral("unlock-writes"));
    QCOMPARE(lines.last().value(QStringLiteral("outcome")).toString(), QStringLiteral("done"));
    QCOMPARE(lines.last().value(QStringLiteral("masters")).toArray().size(), 2);

    // Force-release: the name typed, though the same lock elsewhere would need a tick only.
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->rowOf("lock:half") >= 0, 5000);
    const LockView view = *window.lockModel()->find("lock:half");
    // Partial, of a known format: outside production a tick would do (tst_uiforcerelease).
    QCOMPARE(view.status, LockStatus::Partial);
    QCOMPARE(view.format, LockFormat::LockScope);
    window.selectWhenSeen("lock:half");
    QTRY_VERIFY_WITH_TIMEOUT(window.forceReleaseAction()->isEnabled(), 5000);
    window.forceReleaseAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(window.findChild<ForceReleaseDialog*>() &&
                                 window.findChild<ForceReleaseDialog*>()->stage() ==
                                     ForceReleaseDialog::Stage::Ready,
                             5000);
    auto* dialog = window.findChild<ForceReleaseDialog*>();
    QVERIFY(dialog->needsTypedConfirmation());
    QVERIFY(!dialog->canConfirm());
    dialog->confirm(); // not without the name
    QCOMPARE(servers.at(0).command({"EXISTS", "lock:half"}).integer, 1);
    dialog->confirmationEdit()->setText(QStringLiteral("lock:hal"));
    QVERIFY(!dialog->canConfirm());
    dialog->confirmationEdit()->setText(QStringLiteral("lock:half"));
    QVERIFY(dialog->canConfirm());
    dialog->confirm();
    QTRY_COMPARE_WITH_TIMEOUT(servers.at(0).command({"EXISTS", "lock:half"}).integer, 0, 5000);
    dialog->close();

    // Locked again; then an unlocking the audit log cannot record leaves it locked.
    toggle->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(window.isReadOnly(), 5000);
    QCOMPARE(toggle->text(), QObject::tr("&Unlock writes…"));
    QVERIFY(QDir(where).removeRecursively());
    {
        QFile blocker(where); // a file where the audit log's directory was
        QVERIFY(blocker.open(QIODevice::WriteOnly));
    }
    unlockWrites(window);
    QTRY_VERIFY_WITH_TIMEOUT(logged(window, QStringLiteral("Writes stay locked")), 15000);
    QVERIFY(window.isReadOnly());
    QVERIFY(!window.acquireAction()->isEnabled());
    const auto refusals = [&] {
        int n = 0;
        for (int r = 0; r < window.eventLog()->rowCount(); ++r)
            n += window.eventLog()->entry(r).message.contains(
                QStringLiteral("read-only mode: acquire refused"));
        return n;
    };
    const int before = refusals();
    window.core()->request(&CoreService::acquire, "lock:new", 10000, 0, false);
    QTRY_COMPARE_WITH_TIMEOUT(refusals(), before + 1, 5000);
    QCOMPARE(servers.at(0).command({"EXISTS", "lock:new"}).integer, 0);
}

LOCKSCOPE_TEST_MAIN(TestUiWriteGate)

} // namespace tst_uiwritegate

#include "tst_uiwritegate.moc"
