// SPDX-License-Identifier: Apache-2.0
// A window on a team database (issue #45): its own writes are recorded there, and its audit log
// dialog shows another process's force-release within a second of its commit, told by PostgreSQL's
// LISTEN/NOTIFY, against a cluster and a redis-server the test starts itself.
#include "audit/teamdatabase.h"
#include "eventlog/eventlogmodel.h"
#include "support/lockctlrun.h"
#include "support/pgcluster.h"
#include "support/redisserver.h"
#include "support/testpaths.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"
#include "writes/acquiredialog.h"
#include "writes/auditlogdialog.h"

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

namespace tst_uiteamaudit {

using namespace lockscope;
using namespace lockscope::test;

namespace {

template <typename W> W* openDialog()
{
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* d = qobject_cast<W*>(w); d && d->isVisible())
            return d;
    return nullptr;
}

// The row of `table` whose action and resource are these, or -1.
int rowOf(QTableWidget* table, const QString& action, const QString& resource)
{
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 2) && table->item(r, 2)->text() == action && table->item(r, 3)->text() == resource)
            return r;
    return -1;
}

} // namespace

class TestUiTeamAudit : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void windowWritesAndSeesAnotherAdminsForceRelease();

private:
    PgCluster m_pg;
    RedisServer m_redis;
    QTemporaryDir m_dir;
    const QString m_writerPassword = distinctTestPassword(QStringLiteral("pg-writer"));
};

void TestUiTeamAudit::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uiteamaudit"));
    QVERIFY2(m_pg.start(), qPrintable(m_pg.errorString()));
    QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
    QFile roles(sourcePath(QStringLiteral("resources/sql/team-roles.sql")));
    QVERIFY(roles.open(QIODevice::ReadOnly));
    bool ok = false;
    m_pg.psql(QString::fromUtf8(roles.readAll()) +
                  QStringLiteral("; ALTER ROLE lockscope_writer PASSWORD '%1'; ALTER ROLE lockscope_owner "
                                 "PASSWORD '%2'")
                      .arg(m_writerPassword, m_pg.adminPassword()),
              PgCluster::adminUser(), {}, &ok);
    QVERIFY2(ok, qPrintable(m_pg.errorString()));
    // The schema, made once by its owner.
    TeamDatabase owner;
    const RedisError made = owner.open(*TeamDatabaseUrl::parse(m_pg.url(QStringLiteral("lockscope_owner"))),
                                       m_pg.adminPassword());
    QVERIFY2(!made.isError(), qPrintable(made.message));
}

void TestUiTeamAudit::windowWritesAndSeesAnotherAdminsForceRelease()
{
    LockScopeConfig config;
    config.masters << m_redis.connectionOptions(1000);
    config.teamDatabase = *TeamDatabaseUrl::parse(m_pg.url(QStringLiteral("lockscope_writer")));
    config.teamDatabasePassword = m_writerPassword;
    MainWindow window(config, m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(window.isInitialScanFinished(), 10000);

    // The window's own acquire, through its dialog.
    QTimer::singleShot(0, &window, [] {
        if (auto* dialog = openDialog<AcquireDialog>()) {
            dialog->findChild<QLineEdit*>()->setText(QStringLiteral("team:window"));
            dialog->accept();
        }
    });
    window.acquireAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(m_redis.command({"EXISTS", "team:window"}).integer, 1LL, 10000);

    QAction* auditAction = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text().contains(QLatin1String("Audit log")))
            auditAction = a;
    QVERIFY(auditAction);
    auditAction->trigger();
    auto* dialog = openDialog<AuditLogDialog>();
    QVERIFY(dialog);
    // The window's write is in the team's trail, with this program as its writer.
    QTRY_VERIFY_WITH_TIMEOUT(
        rowOf(dialog->table(), QStringLiteral("acquire"), QStringLiteral("team:window")) >= 0, 10000);
    QVERIFY2(dialog->statusLabel()->text().startsWith(
                 QLatin1String("Team database postgresql://lockscope_writer@")),
             qPrintable(dialog->statusLabel()->text()));

    // Another admin, another process: a force-release, shown within a second of its commit (the
    // record is committed before lockctl exits, and the dialog was not reloaded by hand).
    QCOMPARE(m_redis.command({"SET", "team:stuck", "their-token"}).string, QByteArray("OK"));
    QProcessEnvironment env = testPasswordEnvironment();
    env.insert(QStringLiteral("TEAM_PW"), m_writerPassword);
    env.insert(QStringLiteral("XDG_STATE_HOME"), m_dir.filePath(QStringLiteral("other")));
    const LockctlRun forced =
        runLockctl(testPasswordArgs() +
                       QStringList{QStringLiteral("-m"), m_redis.url(false), QStringLiteral("--team-db"),
                                   m_pg.url(QStringLiteral("lockscope_writer")),
                                   QStringLiteral("--team-db-password-env"), QStringLiteral("TEAM_PW"),
                                   QStringLiteral("force-release"), QStringLiteral("team:stuck"),
                                   QStringLiteral("--expect-token"), QStringLiteral("their-token"),
                                   QStringLiteral("--yes")},
                   30000, env);
    QVERIFY2(forced.code == 0, qPrintable(forced.describe()));
    QElapsedTimer sinceCommit;
    sinceCommit.start();
    QTRY_VERIFY_WITH_TIMEOUT(
        rowOf(dialog->table(), QStringLiteral("force-release"), QStringLiteral("team:stuck")) >= 0, 1000);
    qInfo("shown %lld ms after lockctl exited", sinceCommit.elapsed());
    const int row = rowOf(dialog->table(), QStringLiteral("force-release"), QStringLiteral("team:stuck"));
    QVERIFY2(dialog->table()->item(row, 1)->text().endsWith(QLatin1String("/lockctl")),
             qPrintable(dialog->table()->item(row, 1)->text()));
    QCOMPARE(row, 0); // newest first
    // The window's event log says so too, naming the other process; its own acquire is not repeated.
    const auto teamLogged = [&](const QString& resource) {
        for (int r = 0; r < window.eventLog()->rowCount(); ++r) {
            const EventLogModel::Entry& e = window.eventLog()->entry(r);
            if (e.source == resource && e.message.startsWith(QLatin1String("force-release by ")) &&
                e.message.contains(QLatin1String("/lockctl (team audit trail): done")))
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(teamLogged(QStringLiteral("team:stuck")), 1000);
    for (int r = 0; r < window.eventLog()->rowCount(); ++r)
        QVERIFY(!window.eventLog()->entry(r).message.contains(QLatin1String("(team audit trail)")) ||
                window.eventLog()->entry(r).source == QLatin1String("team:stuck"));

    // The database restarts under the open dialog: it says so, listens again, and shows what was
    // written meanwhile (a round trip every 5 s notices, a retry 5 s later reconnects).
    QVERIFY2(m_pg.restart(), qPrintable(m_pg.errorString()));
    QCOMPARE(m_redis.command({"SET", "team:after-restart", "their-token"}).string, QByteArray("OK"));
    const LockctlRun again =
        runLockctl(testPasswordArgs() +
                       QStringList{QStringLiteral("-m"), m_redis.url(false), QStringLiteral("--team-db"),
                                   m_pg.url(QStringLiteral("lockscope_writer")),
                                   QStringLiteral("--team-db-password-env"), QStringLiteral("TEAM_PW"),
                                   QStringLiteral("force-release"), QStringLiteral("team:after-restart"),
                                   QStringLiteral("--expect-token"), QStringLiteral("their-token"),
                                   QStringLiteral("--yes")},
                   30000, env);
    QVERIFY2(again.code == 0, qPrintable(again.describe()));
    QTRY_VERIFY_WITH_TIMEOUT(
        rowOf(dialog->table(), QStringLiteral("force-release"), QStringLiteral("team:after-restart")) == 0,
        20000);
    QTRY_VERIFY_WITH_TIMEOUT(teamLogged(QStringLiteral("team:after-restart")), 5000);
    QVERIFY2(dialog->statusLabel()->text().startsWith(QLatin1String("Team database postgresql://")),
             qPrintable(dialog->statusLabel()->text()));
    dialog->close();
}

LOCKSCOPE_TEST_MAIN(TestUiTeamAudit)

} // namespace tst_uiteamaudit

#include "tst_uiteamaudit.moc"
