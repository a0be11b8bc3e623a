// SPDX-License-Identifier: Apache-2.0
#include "discovery/masterscanner.h"
#include "discovery/observationsink.h"
#include "support/redisservergroup.h"
#include "support/scaledtry.h"
#include "support/testregistry.h"

#include <QSignalSpy>
#include <QTest>

namespace tst_overlappingevents {

using namespace lockscope;
using namespace lockscope::test;

namespace {

class NullSink final : public ObservationSink
{
public:
    void keyObserved(int, const HashedKey&, KeyObservation&&) override {}
    void keyRemoved(int, const HashedKey&) override {}
};

// How often the scanner reported `event` on `key`.
int eventsOf(const QSignalSpy& spy, const QByteArray& key, const QByteArray& event)
{
    int n = 0;
    for (const QList<QVariant>& e : spy)
        n += e.at(1).toByteArray() == key && e.at(2).toByteArray() == event ? 1 : 0;
    return n;
}

} // namespace

// The default patterns overlap (lock:* and *lock*): Redis sends a keyspace event once per pattern
// that matches its key. The scanner reports each event once, and two events as two.
class TestOverlappingEvents : public QObject
{
    Q_OBJECT

private slots:
    void eachEventOnceWhateverPatternsMatchIt();
};

void TestOverlappingEvents::eachEventOnceWhateverPatternsMatchIt()
{
    RedisServerGroup group;
    RedisServerOptions withEvents;
    withEvents.notifications = true;
    QVERIFY2(group.start(1, withEvents), qPrintable(group.errorString()));
    RedisServer& server = group.at(0);

    MonitorSettings settings;
    settings.patterns = ScanPattern::defaults(); // lock:*, lock.* ... and *lock* (discover)
    settings.pollIntervalMs = 3600000;
    RedisConnection master(server.connectionOptions(2000));
    NullSink sink;
    MasterScanner scanner(0, &master, settings, &sink);
    QSignalSpy events(&scanner, &MasterScanner::keyspaceEvent);
    master.open();
    scanner.start();
    QTRY_COMPARE_WITH_TIMEOUT(scanner.mode(), NotificationMode::Live, 10000);

    server.command({"SET", "lock:a", "t1", "PX", "60000"});   // lock:* and *lock*
    server.command({"SET", "lock:a", "t2", "PX", "60000"});   // the same again: a second event
    server.command({"SET", "jobs.lock", "t", "PX", "60000"}); // *.lock and *lock*
    server.command({"SET", "mylock", "t", "PX", "60000"});    // *lock* alone
    server.command({"SET", "mutex:m", "t", "PX", "60000"});   // mutex:* alone
    server.command({"SET", "session:1", "t"});                // no pattern
    // Events reach a subscriber in the order they happened: once the last one is in, all are.
    server.command({"SET", "lock:end", "t", "PX", "60000"});
    QTRY_VERIFY_WITH_TIMEOUT(eventsOf(events, "lock:end", "set") > 0, 10000);

    QCOMPARE(eventsOf(events, "lock:a", "set"), 2);
    // SET … PX may also tell "expire" (Redis 7 does): once per SET too, never once per pattern.
    const int expires = eventsOf(events, "lock:a", "expire");
    QVERIFY2(expires == 0 || expires == 2, qPrintable(QString::number(expires)));
    QCOMPARE(eventsOf(events, "jobs.lock", "set"), 1);
    QCOMPARE(eventsOf(events, "mylock", "set"), 1);
    QCOMPARE(eventsOf(events, "mutex:m", "set"), 1);
    QCOMPARE(eventsOf(events, "session:1", "set"), 0);
    QCOMPARE(eventsOf(events, "lock:end", "set"), 1);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestOverlappingEvents)

} // namespace tst_overlappingevents

#include "tst_overlappingevents.moc"
