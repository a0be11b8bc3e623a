// SPDX-License-Identifier: Apache-2.0
#include "config/configloader.h"
#include "eventlog/eventlogmodel.h"
#include "locks/locktablemodel.h"
#include "masters/mastertablemodel.h"
#include "support/sentinelgroup.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uisentinelwindow {

using namespace lockscope;
using namespace lockscope::test;

// The window on a Sentinel group (1 primary, 1 replica, 3 sentinels) through a requested failover:
// the masters panel names the current primary, and the event log tells the failover and its report.
class TestUiSentinelWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void mastersPanelAndEventLogFollowAFailover();

private:
    static bool logged(const EventLogModel* log, const QString& part, EventLogModel::Entry* found);

    QTemporaryDir m_dir;
};

void TestUiSentinelWindow::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uisentinelwindow"));
}

bool TestUiSentinelWindow::logged(const EventLogModel* log, const QString& part, EventLogModel::Entry* found)
{
    for (int row = 0; row < log->rowCount(); ++row)
        if (log->entry(row).message.contains(part)) {
            *found = log->entry(row);
            return true;
        }
    return false;
}

void TestUiSentinelWindow::mastersPanelAndEventLogFollowAFailover()
{
    SentinelGroup group;
    SentinelGroupOptions options;
    options.failoverTimeoutMs = 2000;
    QVERIFY2(group.start(options), qPrintable(group.errorString()));
    RedisServer& primary = group.dataNode(0);
    RedisServer& replica = group.dataNode(1);
    QCOMPARE(primary.command({"SET", "lock:window", "token-w", "PX", "600000"}).string, QByteArray("OK"));
    QCOMPARE(primary.command({"WAIT", "1", "5000"}).integer, 1);

    LockScopeConfig config;
    Result<ConnectionOptions> master = ConfigLoader::masterFromUrl(group.url(), {}, 1000);
    QVERIFY(master);
    config.masters << *master;
    config.monitor.pollIntervalMs = 200;
    MainWindow window(config, m_dir.filePath(QStringLiteral("audit.jsonl")));
    QAbstractItemModelTester masters(window.masterModel(),
                                     QAbstractItemModelTester::FailureReportingMode::QtTest);
    window.show();
    const QString before = QStringLiteral("M1  %1 → 127.0.0.1:%2").arg(group.url(false)).arg(primary.port());
    // Rows exist once the core has started: look the cell up each time.
    const auto name = [&window] { return window.masterModel()->index(0, MasterTableModel::MasterColumn); };
    QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->upCount(), 1, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(name().data().toString(), before, 5000);
    QVERIFY(name()
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("current primary is 127.0.0.1:%1").arg(primary.port())));
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 1, 10000);

    const RedisReply reply = group.sentinel(0).command({"SENTINEL", "FAILOVER", "mymaster"});
    QVERIFY2(!reply.isError(), reply.string.constData());
    const QString change =
        QStringLiteral("failover 127.0.0.1:%1 → 127.0.0.1:%2").arg(primary.port()).arg(replica.port());
    EventLogModel::Entry entry;
    QTRY_VERIFY_WITH_TIMEOUT(
        logged(window.eventLog(), change + QStringLiteral(": 1 lock(s) at risk"), &entry), 60000);
    QCOMPARE(entry.source, group.url(false));
    QCOMPARE(entry.kind, EventLogModel::Kind::Master);
    // The lock was replicated: nothing lost, nothing changed hands.
    QTRY_VERIFY_WITH_TIMEOUT(logged(window.eventLog(), change + QStringLiteral(" read through"), &entry),
                             30000);
    QVERIFY2(entry.message.contains(QStringLiteral("lost on the new primary: none")),
             qPrintable(entry.message));
    QVERIFY2(entry.message.contains(QStringLiteral("another token: none")), qPrintable(entry.message));
    QCOMPARE(entry.kind, EventLogModel::Kind::Master);
    QTRY_COMPARE_WITH_TIMEOUT(
        name().data().toString(),
        QStringLiteral("M1  %1 → 127.0.0.1:%2").arg(group.url(false)).arg(replica.port()), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->upCount(), 1, 10000);
    QCOMPARE(window.lockModel()->rowCount(), 1);
}

LOCKSCOPE_TEST_MAIN(TestUiSentinelWindow)

} // namespace tst_uisentinelwindow

#include "tst_uisentinelwindow.moc"
