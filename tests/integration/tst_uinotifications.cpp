// SPDX-License-Identifier: Apache-2.0
#include "eventlog/eventlogmodel.h"
#include "monitor/lockmonitor.h"
#include "notifications/desktopnotifier.h"
#include "notifications/lockdiagnosiswatch.h"
#include "support/privatenotificationservice.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QApplication>
#include <QDBusConnection>
#include <QSignalSpy>
#include <QTest>

#include <memory>

namespace tst_uinotifications {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// The window's diagnosis and notifications, fed by a real monitor on real masters, notifying a real
// notification service on a private bus.
struct Watched
{
    Watched(RedisServerGroup& group, const QDBusConnection& bus)
    {
        LockScopeConfig config = quickConfig(group);
        config.monitor.patterns = {ScanPattern("lock:*")};
        masters = std::make_unique<MasterSet>(config.masters);
        monitor = std::make_unique<LockMonitor>(masters.get(), config);
        watch.setEventLog(&events);
        watch.setNotifier(new DesktopNotifier(bus));
        NotificationRules rules;
        rules.rule(NotificationRule::Stuck).afterMs = 0; // at once: the test need not wait 10 s
        rules.rule(NotificationRule::MasterDown).afterMs = 0;
        watch.setRules(rules);
        QObject::connect(monitor.get(), &LockMonitor::locksChanged, &watch, &LockDiagnosisWatch::observe);
        // What CoreService publishes as MasterSnapshot, from the masters themselves.
        QObject::connect(masters.get(), &MasterSet::masterStateChanged, &watch,
                         [this](int index, RedisConnection::State state, const RedisError& reason) {
                             MasterSnapshot m;
                             m.index = index;
                             m.name = masters->at(index)->name();
                             m.state = state;
                             m.error = reason.message;
                             watch.observeMaster(m);
                         });
        masters->open();
        monitor->start();
    }
    int logged() const
    {
        int n = 0;
        for (int i = 0; i < events.rowCount(); ++i)
            n += events.entry(i).kind == EventLogModel::Kind::Notification ? 1 : 0;
        return n;
    }

    EventLogModel events;
    LockDiagnosisWatch watch;
    std::unique_ptr<MasterSet> masters;
    std::unique_ptr<LockMonitor> monitor;
};

} // namespace

class TestUiNotifications : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void oncePerLockPerRuleUntilItClears();
    void silentSendsNone();
    void masterDownOnceUntilItIsBack();
    void manyAtOnceAreThreeAndOneMore();

private:
    QDBusConnection bus() const { return QDBusConnection(QStringLiteral("private-notifications")); }

    PrivateNotificationService m_service;
};

void TestUiNotifications::initTestCase()
{
    if (!m_service.start())
        QSKIP(qPrintable(m_service.errorString()));
    QVERIFY(QDBusConnection::connectToBus(m_service.busAddress(), QStringLiteral("private-notifications"))
                .isConnected());
}

void TestUiNotifications::oncePerLockPerRuleUntilItClears()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    RedisServer& server = group.at(0);
    const int before = int(m_service.notifications().size());
    Watched w(group, bus());
    QSignalSpy delivered(w.watch.notifier(), &DesktopNotifier::delivered);
    // Two holders that set no TTL (stuck), one lock that is fine.
    server.command({"SET", "lock:a", "t1"});
    server.command({"SET", "lock:b", "t2"});
    server.command({"SET", "lock:fine", "t3", "PX", "60000"});
    QTRY_COMPARE_WITH_TIMEOUT(m_service.notifications().size(), before + 2, 10000);
    QStringList seen = m_service.notifications().mid(before);
    seen.sort();
    QCOMPARE(seen, (QStringList{QStringLiteral("Lock stuck: lock:a"), QStringLiteral("Lock stuck: lock:b")}));
    QTRY_COMPARE_WITH_TIMEOUT(delivered.count(), 2, 5000);
    QVERIFY(delivered.at(0).at(0).toUInt() > 0 && delivered.at(0).at(0) != delivered.at(1).at(0));

    // lock:a stays stuck under a new token: the rule still holds, so nothing new. lock:c is the marker
    // that everything before it has been seen.
    server.command({"SET", "lock:a", "t1-again"});
    QTRY_COMPARE_WITH_TIMEOUT(w.monitor->locks().value("lock:a")->token, QByteArray("t1-again"), 5000);
    server.command({"SET", "lock:c", "t4"});
    QTRY_COMPARE_WITH_TIMEOUT(m_service.notifications().size(), before + 3, 10000);
    QCOMPARE(m_service.notifications().constLast(), QStringLiteral("Lock stuck: lock:c"));

    // lock:a goes (the rule clears) and comes back stuck: it notifies again.
    server.command({"DEL", "lock:a"});
    QTRY_VERIFY_WITH_TIMEOUT(!w.monitor->locks().contains("lock:a"), 5000);
    server.command({"SET", "lock:a", "t5"});
    QTRY_COMPARE_WITH_TIMEOUT(m_service.notifications().size(), before + 4, 10000);
    QCOMPARE(m_service.notifications().constLast(), QStringLiteral("Lock stuck: lock:a"));
    QCOMPARE(w.logged(), 4);
    // Logged as what they are (they were logged as errors, in red).
    for (int i = 0; i < w.events.rowCount(); ++i)
        if (w.events.entry(i).kind == EventLogModel::Kind::Notification)
            QCOMPARE(w.events.index(i, EventLogModel::KindColumn).data().toString(),
                     QStringLiteral("notification"));
}

void TestUiNotifications::silentSendsNone()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    const int before = int(m_service.notifications().size());
    Watched w(group, bus());
    w.watch.notifier()->setSilent(true); // review of a recording
    QSignalSpy fired(&w.watch, &LockDiagnosisWatch::notified);
    group.at(0).command({"SET", "lock:quiet", "t1"});
    QTRY_COMPARE_WITH_TIMEOUT(fired.count(), 1, 10000); // the rule did hold ...
    // ... and nothing reached the service: a marker sent afterwards is the only new notification.
    DesktopNotifier marker(bus());
    marker.notify(QStringLiteral("marker"), QStringLiteral("end of the silent part"));
    QTRY_COMPARE_WITH_TIMEOUT(m_service.notifications().size(), before + 1, 10000);
    QCOMPARE(m_service.notifications().constLast(), QStringLiteral("marker"));
    QCOMPARE(w.watch.notifier()->sentCount(), 0);
}

void TestUiNotifications::masterDownOnceUntilItIsBack()
{
    RedisServerGroup group;
    QVERIFY2(group.start(2), qPrintable(group.errorString()));
    const int before = int(m_service.notifications().size());
    Watched w(group, bus());
    QTRY_VERIFY_WITH_TIMEOUT(w.masters->at(1)->isUp(), 5000);
    const QString title = QStringLiteral("Master down: ") + w.masters->at(1)->name();
    group.at(1).stop();
    QTRY_COMPARE_WITH_TIMEOUT(m_service.notifications().size(), before + 1, 10000);
    QCOMPARE(m_service.notifications().constLast(), title);
    // Reconnect attempts keep failing (Down, Reconnecting, Down, ...): still one notification. It
    // clears once the master is back, and the next time it goes down it notifies again.
    QTRY_VERIFY_WITH_TIMEOUT(w.masters->at(1)->retryDelayMs() >= 0, 5000);
    QVERIFY(group.at(1).restart());
    QTRY_VERIFY_WITH_TIMEOUT(w.masters->at(1)->isUp(), 10000);
    QCOMPARE(m_service.notifications().size(), before + 1);
    group.at(1).stop();
    QTRY_COMPARE_WITH_TIMEOUT(m_service.notifications().size(), before + 2, 10000);
    QCOMPARE(m_service.notifications().constLast(), title);
}

void TestUiNotifications::manyAtOnceAreThreeAndOneMore()
{
    // Ten locks stuck from the start are met by one pass and hold the rule together: three reach the
    // desktop on their own, one more says how many others there are; the event log has all ten.
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    QByteArrayList mset{"MSET"};
    for (int i = 0; i < 10; ++i)
        mset << "lock:many" + QByteArray::number(i) << "t";
    QVERIFY(group.at(0).command(mset).isStatus());
    const int before = int(m_service.notifications().size());
    Watched w(group, bus());
    QSignalSpy fired(&w.watch, &LockDiagnosisWatch::notified);
    QTRY_COMPARE_WITH_TIMEOUT(fired.count(), 10, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(m_service.notifications().size(), before + 4, 10000);
    const QStringList seen = m_service.notifications().mid(before);
    QCOMPARE(seen.filter(QStringLiteral("Lock stuck: lock:many")).size(), 3);
    QCOMPARE(seen.constLast(), QStringLiteral("7 more notification(s)"));
    QCOMPARE(w.logged(), 10);
}

LOCKSCOPE_TEST_MAIN(TestUiNotifications)

} // namespace tst_uinotifications

#include "tst_uinotifications.moc"
