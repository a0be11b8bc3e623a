// SPDX-License-Identifier: Apache-2.0
#include "record/recordingreader.h"
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

namespace tst_fencingregression {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// One master with keyspace events under `lockctl record` (with `extra` arguments) until the test ends.
struct RecordedMaster
{
    bool start(const QStringList& extra = {})
    {
        RedisServerOptions options;
        options.notifications = true;
        if (!group.start(1, options)) {
            problem = group.errorString();
            return false;
        }
        const bool recording =
            recorder.start(testPasswordArgs() +
                           QStringList{QStringLiteral("-m"), group.urls(false).first(),
                                       QStringLiteral("record"), QStringLiteral("--db"), db} +
                           extra) &&
            recorder.waitForOutput("recording");
        problem = recorder.describe();
        return recording;
    }
    RedisServer& server() { return group.at(0); }

    RedisServerGroup group;
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("recording.sqlite"));
    LockctlProcess recorder;
    QString problem;
};

// Waits until the recording holds an event `match` accepts, and returns its time (-1: none came):
// the next step of a test must not race the monitor's read or the recorder's batch (under the
// sanitizers on a busy machine both lag).
qint64 waitRecorded(const QString& db, const std::function<bool(const HistoryEvent&)>& match)
{
    qint64 at = -1;
    const bool came = QTest::qWaitFor(
        [&] {
            RecordingReader reader;
            if (reader.open(db))
                return false;
            reader.forEachEvent([&](const HistoryEvent& h) {
                if (match(h))
                    at = h.event.timeMs;
                return at < 0;
            });
            return at >= 0;
        },
        int(upperBoundMs(15000)));
    return came ? at : -1;
}

// A fencing counter's value for `resource`, recorded after `afterMs`.
std::function<bool(const HistoryEvent&)> counterAt(const QByteArray& resource, const QByteArray& value,
                                                   qint64 afterMs = 0)
{
    return [=](const HistoryEvent& h) {
        return h.event.kind == RecordEvent::Kind::FenceCounter && h.event.resource == resource &&
               h.event.token == value && h.event.timeMs > afterMs;
    };
}

// The value the incident names as its first or second token (here the counter's values).
QString tokenOf(const QJsonObject& incident, const char* which)
{
    return incident.value(QLatin1String(which)).toObject().value(QStringLiteral("token")).toString();
}

// Each INCR read before the next (a keyspace event, then a read): the recording has every value.
void increment(const RedisServer& server, const QByteArray& key, int times)
{
    for (int n = 0; n < times; ++n) {
        server.command({"INCR", key});
        QTest::qWait(250);
    }
}

QJsonArray incidents(const QString& db, int* code)
{
    const LockctlRun run =
        runLockctl({QStringLiteral("--json"), QStringLiteral("incidents"), QStringLiteral("--db"), db,
                    QStringLiteral("--min-confidence"), QStringLiteral("possible")});
    *code = run.code;
    return QJsonDocument::fromJson(run.out).object().value(QStringLiteral("incidents")).toArray();
}

} // namespace

// Issue #42's fencing regression end to end: real masters, `lockctl record`, the counter changed
// the way a failing deployment changes it, then `lockctl incidents` from the file alone. What the
// test did to the counter is the oracle.
class TestFencingRegression : public QObject
{
    Q_OBJECT

private slots:
    void aRedissonCounterResetByARestartIsProven();
    void aFencingPatternCounterThatWentDownIsProvenARisingOneIsNot();
};

void TestFencingRegression::aRedissonCounterResetByARestartIsProven()
{
    // Redisson's fenced lock `orders`: its hash and its token counter, three grants; the master
    // restarts without persistence and the next two grants are given tokens 1 and 2 again.
    RecordedMaster m;
    QVERIFY2(m.start(), qPrintable(m.problem));
    const QString& db = m.db;
    const QByteArray counter = "redisson_lock_token:{orders}";
    m.server().command({"HSET", "orders", "8c0f3e7a-1b2c-4d5e-8f90-a1b2c3d4e5f6:1", "1"});
    m.server().command({"PEXPIRE", "orders", "30000"});
    increment(m.server(), counter, 3);
    QVERIFY(waitRecorded(db, counterAt("orders", "3")) > 0);
    int code = -1;
    QVERIFY(incidents(db, &code).isEmpty()); // rising: nothing
    QCOMPARE(code, 0);
    QVERIFY(m.group.at(0).restart());
    // The monitor reconnects and sees the new run_id before the next grants.
    const qint64 restarted = waitRecorded(
        db, [](const HistoryEvent& h) { return h.event.kind == RecordEvent::Kind::MasterRestarted; });
    QVERIFY(restarted > 0);
    increment(m.server(), counter, 2);
    QVERIFY(waitRecorded(db, counterAt("orders", "2", restarted)) > 0);
    // Until both values given out again are in the file (the recorder commits a batch at a time:
    // the incident may be there before the second value is).
    const auto evidence = [](const QJsonArray& found) {
        return found.isEmpty() ? 0
                               : found.first().toObject().value(QStringLiteral("evidence")).toArray().size();
    };
    QJsonArray found;
    QVERIFY(QTest::qWaitFor([&] { return evidence(found = incidents(db, &code)) >= 2; }, 15000));
    QCOMPARE(code, 1);
    QVERIFY2(found.size() == 1, QJsonDocument(found).toJson().constData());
    const QJsonObject i = found.first().toObject();
    QCOMPARE(i.value(QStringLiteral("kind")).toString(), QStringLiteral("fencing-regression"));
    QCOMPARE(i.value(QStringLiteral("confidence")).toString(), QStringLiteral("proven"));
    QCOMPARE(i.value(QStringLiteral("resource")).toString(), QStringLiteral("orders")); // the lock it fences
    QCOMPARE(tokenOf(i, "first"), QStringLiteral("3"));
    QCOMPARE(tokenOf(i, "second"), QStringLiteral("1"));
    const QString cause = i.value(QStringLiteral("cause")).toString();
    QVERIFY2(cause.contains(QLatin1String("master-restarted M1")) &&
                 cause.contains(QString::fromLatin1(counter)),
             qPrintable(cause));
    // Tokens 1 and 2 were given out again: both are in the evidence.
    QCOMPARE(i.value(QStringLiteral("evidence")).toArray().size(), 2);
    QCOMPARE(m.recorder.terminate(), 0);
}

void TestFencingRegression::aFencingPatternCounterThatWentDownIsProvenARisingOneIsNot()
{
    // Counters the application keeps itself, named by a "fencing" pattern beside the lock patterns.
    RecordedMaster m;
    QVERIFY2(m.start({QStringLiteral("--pattern"), QStringLiteral("lock:*"), QStringLiteral("--fence"),
                      QStringLiteral("fence:*")}),
             qPrintable(m.problem));
    const QString& db = m.db;
    m.server().command({"SET", "lock:orders", "tok-A", "PX", "30000"});
    increment(m.server(), "fence:orders", 5);
    increment(m.server(), "fence:other", 3);
    const qint64 highest = waitRecorded(db, counterAt("fence:orders", "5"));
    QVERIFY(highest > 0 && waitRecorded(db, counterAt("fence:other", "3")) > 0);
    // Someone set it back (a restore from an old dump, a script): 3, 4 and 5 come again.
    m.server().command({"SET", "fence:orders", "2"});
    QTest::qWait(250);
    increment(m.server(), "fence:orders", 1);
    QVERIFY(waitRecorded(db, counterAt("fence:orders", "3", highest)) > 0);
    int code = -1;
    const QJsonArray found = incidents(db, &code);
    QVERIFY2(found.size() == 1, QJsonDocument(found).toJson().constData());
    const QJsonObject i = found.first().toObject();
    QCOMPARE(i.value(QStringLiteral("kind")).toString(), QStringLiteral("fencing-regression"));
    QCOMPARE(i.value(QStringLiteral("resource")).toString(), QStringLiteral("fence:orders"));
    QCOMPARE(tokenOf(i, "first"), QStringLiteral("5"));
    QCOMPARE(tokenOf(i, "second"), QStringLiteral("2"));
    QVERIFY2(i.value(QStringLiteral("cause")).toString().contains(QLatin1String("no restart or failover")),
             QJsonDocument(i).toJson().constData());
    // The counter is no lock: `lockctl list` does not show it, the lock beside it is shown.
    const LockctlRun list =
        runLockctl(testPasswordArgs() + QStringList{QStringLiteral("-m"), m.group.urls(false).first(),
                                                    QStringLiteral("--json"), QStringLiteral("list"),
                                                    QStringLiteral("--pattern"), QStringLiteral("lock:*"),
                                                    QStringLiteral("--fence"), QStringLiteral("fence:*")});
    QVERIFY2(list.code == 0 && list.out.contains("lock:orders") && !list.out.contains("fence:"),
             qPrintable(list.describe()));
    QCOMPARE(m.recorder.terminate(), 0);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestFencingRegression)

} // namespace tst_fencingregression

#include "tst_fencingregression.moc"
