// SPDX-License-Identifier: Apache-2.0
#include "base/threadpriority.h"
#include "detail/lockdetailpane.h"
#include "notifications/lockdiagnosiswatch.h"
#include "session/corethread.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QLabel>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace tst_uidiagnosispane {

using namespace lockscope;
using namespace lockscope::test;

// The detail pane as the window drives it: the core in its own thread, every batch to the
// diagnosis watch, the selected lock's view to the pane; the waiters and the owner's connection
// are read through the core thread, never on this one.
class TestUiDiagnosisPane : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void paneSaysWhyTheSelectedLockIsStuck();

private:
    QTemporaryDir m_dir;
};

void TestUiDiagnosisPane::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uidiagnosispane"));
}

void TestUiDiagnosisPane::paneSaysWhyTheSelectedLockIsStuck()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    RedisServer& server = group.at(0);
    server.command({"SET", "lock:forever", "c0ffee"});
    server.command({"HSET", "orders", "b3f1c9e2-5a4d-4e0b-9c1f-7d2e8a6b4c10:57", "1"});
    server.command({"PEXPIRE", "orders", "60000"});
    // A real client waiting for the Redisson lock.
    QProcess waiter;
    waiter.setProcessEnvironment(server.cliEnvironment());
    waiter.setStandardOutputFile(QProcess::nullDevice());
    waiter.start(QStringLiteral("redis-cli"),
                 {QStringLiteral("-p"), QString::number(server.adminPort()), QStringLiteral("SUBSCRIBE"),
                  QStringLiteral("redisson_lock__channel:{orders}")});
    QTRY_COMPARE_WITH_TIMEOUT(
        server.command({"PUBSUB", "NUMSUB", "redisson_lock__channel:{orders}"}).elements.value(1).integer, 1,
        5000);

    LockScopeConfig config = quickConfig(group);
    config.monitor.patterns = {ScanPattern("*")};
    CoreThread core(config, m_dir.filePath(QStringLiteral("audit.jsonl")));
    LockDetailPane pane;
    pane.setMasterNames({QStringLiteral("M1")});
    LockDiagnosisWatch watch;
    watch.setPane(&pane);
    watch.setMasterNames({QStringLiteral("M1")});
    QByteArray selected = "orders";
    QHash<QByteArray, LockView> views;
    connect(core.service(), &CoreService::locksChanged, &watch, [&](const LockBatch& b) {
        for (const QList<SharedLockView>* list : {&b.added, &b.changed})
            for (const LockView& v : *list)
                views.insert(v.resource, v);
        watch.observe(b);
        if (views.contains(selected))
            pane.setView(views.value(selected));
    });
    watch.attach(&core);
    core.start();
    pane.show();

    QTRY_VERIFY_WITH_TIMEOUT(
        pane.diagnosisLabel()->text().contains(QStringLiteral("Waiters: 1 client(s) wait for it")), 10000);
    QVERIFY(pane.diagnosisLabel()->isVisible());
    QCOMPARE(pane.diagnoses().size(), 1);

    // Another lock selected: its own diagnosis, never the previous one's.
    selected = "lock:forever";
    pane.setView(views.value(selected));
    QTRY_VERIFY_WITH_TIMEOUT(
        pane.diagnosisLabel()->text().contains(QStringLiteral("Stuck: token c0ffee holds it with no "
                                                              "TTL on M1")),
        5000);
    QVERIFY(!pane.diagnosisLabel()->text().contains(QStringLiteral("Waiters")));
    // The core thread, which read all this, yields the CPU to this one: nice 5, or this thread's
    // own if that is more (a suite run under nice).
    int coreNice = -1;
    QMetaObject::invokeMethod(
        core.service(), [&] { coreNice = ThreadPriority::currentNice(); }, Qt::BlockingQueuedConnection);
    QVERIFY2(coreNice == qMax(5, ThreadPriority::currentNice()), qPrintable(QString::number(coreNice)));
    waiter.kill();
    waiter.waitForFinished(int(lockscope::test::upperBoundMs(5000)));
}

LOCKSCOPE_TEST_MAIN(TestUiDiagnosisPane)

} // namespace tst_uidiagnosispane

#include "tst_uidiagnosispane.moc"
