// SPDX-License-Identifier: Apache-2.0
#include "base/bytesdisplay.h"
#include "record/recordingdatabase.h"
#include "record/recordingreader.h"
#include "support/interoppeers.h"
#include "support/lockctldiagnosis.h"
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/rawtext.h"
#include "support/rediscliprocess.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

namespace tst_flightrecorder {

using namespace lockscope;
using namespace lockscope::test;

// The flight recorder end to end: `lockctl record` on real masters while real lock libraries take,
// extend, release and lose locks, read back through `lockctl history --json`; and a recorder killed
// with SIGKILL.
class TestFlightRecorder : public QObject
{
    Q_OBJECT

private slots:
    void aDayOfLocksReadBackExactly();
    void sigkillKeepsEverythingUpToASecondBefore();
    void historyNeedsNoMasterAndSaysWhatIsWrong();
    void hostileBytesAreEscapedInHistory();
    void recordedRenewalLoopAndStoppedRenewalsAreDiagnosed();
    void aLockHeldForDecadesIsExtendedOnlyWhenItIs();
    void locksHeldBeforeRecordingAreSeenNotTaken();

private:
    // What an episode must be, field by field (times are checked for form and order).
    struct Expected
    {
        QString token;
        QString ended;
        int extensions = 0;
        int maxHolding = 1;
        QStringList masters;
    };
    // Masters with keyspace notifications on (how a lock ended, del or expired, is then told by the
    // server), a recording file of its own, and `lockctl [global] record --db DB --pattern PATTERN`.
    struct Recording
    {
        RedisServerGroup group;
        QTemporaryDir dir;
        QString db = dir.filePath(QStringLiteral("recording.sqlite"));
        LockctlProcess recorder;
        // True once the masters run and lockctl says it records.
        bool start(int masters, const QString& pattern, const QStringList& global = {})
        {
            return startMasters(masters) && startRecorder(pattern, global);
        }
        bool startMasters(int masters);
        bool startRecorder(const QString& pattern, const QStringList& global = {});
    };
    // `lockctl history --json RESOURCE --db DB`; empty object when it failed.
    static QJsonObject history(const QString& db, const QString& resource);
    // Waits until the recording shows `count` episodes of `resource`, the last one ended when `ended`.
    static bool recorded(const QString& db, const QString& resource, int count, bool ended);
    // True when `history` has exactly the `expected` episodes (a QTest failure says what differs).
    static bool compare(const QJsonObject& history, const QList<Expected>& expected);
};

bool TestFlightRecorder::Recording::startMasters(int masters)
{
    RedisServerOptions options;
    options.notifications = true;
    if (group.start(masters, options))
        return true;
    qWarning("%s", qPrintable(group.errorString()));
    return false;
}

bool TestFlightRecorder::Recording::startRecorder(const QString& pattern, const QStringList& global)
{
    const int masters = int(group.size());
    if (!recorder.start(group.lockctlArgs() + global +
                        QStringList{QStringLiteral("record"), QStringLiteral("--db"), db,
                                    QStringLiteral("--pattern"), pattern}))
        return false;
    if (recorder.waitForOutput(QStringLiteral("recording %1 master(s) to %2").arg(masters).arg(db).toUtf8()))
        return true;
    qWarning("%s", qPrintable(recorder.describe()));
    return false;
}

QJsonObject TestFlightRecorder::history(const QString& db, const QString& resource)
{
    const LockctlRun run = runLockctl(
        {QStringLiteral("--json"), QStringLiteral("history"), resource, QStringLiteral("--db"), db});
    if (run.code != 0)
        qWarning("%s", qPrintable(run.describe()));
    return QJsonDocument::fromJson(run.out).object();
}

bool TestFlightRecorder::recorded(const QString& db, const QString& resource, int count, bool ended)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 20000) {
        const QJsonArray episodes = history(db, resource).value(QStringLiteral("episodes")).toArray();
        if (episodes.size() == count &&
            (episodes.last().toObject().value(QStringLiteral("ended")).toString() != QLatin1String("open")) ==
                ended)
            return true;
        QTest::qWait(100); // the recorder commits every 400 ms
    }
    qWarning("%s", QJsonDocument(history(db, resource)).toJson().constData());
    return false;
}

bool TestFlightRecorder::compare(const QJsonObject& history, const QList<Expected>& expected)
{
    [&] {
        static const QRegularExpression iso(
            QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$"));
        const QJsonArray episodes = history.value(QStringLiteral("episodes")).toArray();
        QCOMPARE(episodes.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i) {
            const QJsonObject e = episodes.at(i).toObject();
            const Expected& want = expected.at(i);
            QCOMPARE(QStringList(e.keys()), (QStringList{"end", "ended", "extensions", "masters",
                                                         "maxHolding", "owner", "start", "token"}));
            QCOMPARE(e.value(QStringLiteral("token")).toString(), want.token);
            QCOMPARE(e.value(QStringLiteral("ended")).toString(), want.ended);
            QCOMPARE(e.value(QStringLiteral("extensions")).toInt(), want.extensions);
            QCOMPARE(e.value(QStringLiteral("maxHolding")).toInt(), want.maxHolding);
            QStringList masters;
            for (const QJsonValue& m : e.value(QStringLiteral("masters")).toArray())
                masters << m.toString();
            masters.sort();
            QStringList wantMasters = want.masters;
            wantMasters.sort();
            QCOMPARE(masters, wantMasters);
            const QString start = e.value(QStringLiteral("start")).toString();
            QVERIFY2(iso.match(start).hasMatch(), qPrintable(start));
            if (want.ended == QLatin1String("open")) {
                QVERIFY(e.value(QStringLiteral("end")).isNull());
            } else {
                const QString end = e.value(QStringLiteral("end")).toString();
                QVERIFY2(iso.match(end).hasMatch(), qPrintable(end));
                QVERIFY2(start <= end, qPrintable(start + QStringLiteral(" > ") + end));
            }
        }
    }();
    if (QTest::currentTestFailed())
        qWarning("%s", QJsonDocument(history).toJson().constData());
    return !QTest::currentTestFailed();
}

void TestFlightRecorder::aDayOfLocksReadBackExactly()
{
    LOCKSCOPE_SKIP_WITHOUT_PEERS();
    Recording r;
    const QString audit = r.dir.filePath(QStringLiteral("audit.jsonl"));
    QVERIFY(r.start(3, QStringLiteral("*day:*"), {QStringLiteral("--audit-log"), audit}));
    RedisServerGroup& group = r.group;
    const QString& db = r.db;
    const QStringList urls = group.urls(false);
    const QStringList common = group.lockctlArgs() + QStringList{QStringLiteral("--audit-log"), audit};

    // 08:00 node-redlock takes day:orders on all three masters, extends it while it works, releases it.
    QProcess holder;
    InteropPeers::startNode(holder, QStringList{QStringLiteral("hold-redlock"), QStringLiteral("day:orders"),
                                                QStringLiteral("1000"), QStringLiteral("2600")} +
                                        urls);
    QVERIFY(holder.waitForFinished(int(lockscope::test::upperBoundMs(30000))));
    const QList<QJsonObject> held = InteropPeers::jsonLines(holder.readAllStandardOutput());
    QVERIFY2(held.size() == 2, holder.readAllStandardError().constData());
    const QString ordersToken = held.at(0).value(QStringLiteral("value")).toString();
    const int extensions = held.at(1).value(QStringLiteral("extensions")).toInt();
    QVERIFY(extensions >= 2);
    QVERIFY(recorded(db, QStringLiteral("day:orders"), 1, true));

    // 09:00 redis-semaphore's mutex on master 1 is never released: it expires.
    const QJsonObject report = InteropPeers::node(
        {QStringLiteral("semaphore-mutex"), QStringLiteral("day:report"), QStringLiteral("1200"), urls[1]});
    QVERIFY(!report.isEmpty());
    QVERIFY(recorded(db, QStringLiteral("mutex:day:report"), 1, true));

    // 10:00 the legacy SETNX/GETSET lock of redis-lock 0.0.8: once its time is past, the next
    // taker steals it in place (GETSET): replaced, and the thief's stays (it has no TTL).
    const QJsonObject cron1 = InteropPeers::node(
        {QStringLiteral("legacy-setnx"), QStringLiteral("day:cron"), QStringLiteral("300"), urls[0]});
    QVERIFY(!cron1.isEmpty());
    QVERIFY(recorded(db, QStringLiteral("lock.day:cron"), 1, false));
    const qint64 cronUntil = cron1.value(QStringLiteral("value")).toString().toLongLong();
    QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentMSecsSinceEpoch() > cronUntil + 50, 5000);
    const QJsonObject cron2 = InteropPeers::node(
        {QStringLiteral("legacy-setnx"), QStringLiteral("day:cron"), QStringLiteral("60000"), urls[0]});
    QCOMPARE(cron2.value(QStringLiteral("before")).toString(),
             cron1.value(QStringLiteral("value")).toString());
    QVERIFY(recorded(db, QStringLiteral("lock.day:cron"), 2, false));

    // 11:00 node-redlock's day:invoices is stuck behind a dead worker: an administrator force-releases it.
    const QJsonObject invoices = InteropPeers::node(
        QStringList{QStringLiteral("redlock"), QStringLiteral("day:invoices"), QStringLiteral("60000")} +
        urls);
    QVERIFY(!invoices.isEmpty());
    QVERIFY(recorded(db, QStringLiteral("day:invoices"), 1, false));
    const LockctlRun forced =
        runLockctl(common + QStringList{QStringLiteral("force-release"), QStringLiteral("day:invoices"),
                                        QStringLiteral("--any-token"), QStringLiteral("--yes")});
    QVERIFY2(forced.code == 0, qPrintable(forced.describe()));
    QFile auditFile(audit);
    QVERIFY(auditFile.open(QIODevice::ReadOnly));
    const QJsonObject auditRecord =
        QJsonDocument::fromJson(auditFile.readAll().trimmed().split('\n').last()).object();
    const QString auditId = auditRecord.value(QStringLiteral("id")).toString();
    QVERIFY2(!auditId.isEmpty(), QJsonDocument(auditRecord).toJson().constData());
    QVERIFY(recorded(db, QStringLiteral("day:invoices"), 1, true));

    // 12:00 Redisson (its Lua, as Redisson sends it): lock with the watchdog's 30 s lease on all three,
    // one watchdog renewal once the lease has run down a little, unlock.
    const QByteArray field = "8f0a2c7e-1b2d-4c3e-9f00-0123456789ab:57";
    const QByteArray lockScript =
        "if (redis.call('exists', KEYS[1]) == 0) then redis.call('hincrby', KEYS[1], ARGV[2], 1); "
        "redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; "
        "if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then redis.call('hincrby', KEYS[1], ARGV[2], 1); "
        "redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; return redis.call('pttl', KEYS[1]);";
    const QByteArray renewScript = "if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then "
                                   "redis.call('pexpire', KEYS[1], ARGV[1]); return 1; end; return 0;";
    const QByteArray unlockScript =
        "if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil; end; "
        "local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); "
        "if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); return 0; "
        "else redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], ARGV[1]); return 1; end;";
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"EVAL", lockScript, "1", "day:redisson", "30000", field});
    QVERIFY(recorded(db, QStringLiteral("day:redisson"), 1, false));
    QTRY_VERIFY_WITH_TIMEOUT(group.at(0).command({"PTTL", "day:redisson"}).integer < 29000, 5000);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(group.at(i).command({"EVAL", renewScript, "1", "day:redisson", "30000", field}).integer, 1);
    QTRY_VERIFY_WITH_TIMEOUT(history(db, QStringLiteral("day:redisson"))
                                     .value(QStringLiteral("episodes"))
                                     .toArray()
                                     .first()
                                     .toObject()
                                     .value(QStringLiteral("extensions"))
                                     .toInt() == 1,
                             20000);
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"EVAL", unlockScript, "2", "day:redisson",
                             "redisson_lock__channel:{day:redisson}", "0", "30000", field});
    QVERIFY(recorded(db, QStringLiteral("day:redisson"), 1, true));

    // 13:00 redis-py's lock on master 2, which then restarts empty (no persistence): lost.
    const QJsonObject pyjob =
        InteropPeers::redisPy(QStringLiteral("day:pyjob"), QStringLiteral("60"), urls[2]);
    QVERIFY(!pyjob.isEmpty());
    QVERIFY(recorded(db, QStringLiteral("day:pyjob"), 1, false));
    QVERIFY2(group.at(2).restart(), qPrintable(group.at(2).errorString()));
    QVERIFY(recorded(db, QStringLiteral("day:pyjob"), 1, true));

    QCOMPARE(r.recorder.terminate(), 0);
    QVERIFY2(r.recorder.out().contains("stopped; "), qPrintable(r.recorder.describe()));

    QVERIFY(compare(history(db, QStringLiteral("day:orders")),
                    {{ordersToken, QStringLiteral("released"), extensions, 3, urls}}));
    QVERIFY(compare(
        history(db, QStringLiteral("mutex:day:report")),
        {{report.value(QStringLiteral("token")).toString(), QStringLiteral("expired"), 0, 1, {urls[1]}}}));
    const QJsonObject cron = history(db, QStringLiteral("lock.day:cron"));
    const QString first = cron1.value(QStringLiteral("value")).toString();
    const QString second = cron2.value(QStringLiteral("value")).toString();
    QVERIFY(compare(cron, {{first, QStringLiteral("replaced"), 0, 1, {urls[0]}},
                           {second, QStringLiteral("open"), 0, 1, {urls[0]}}}));
    // The story has the replacement too: the first holder's `replaced`, then the thief's `acquired`.
    QStringList cronEvents;
    for (const QJsonValue& e : cron.value(QStringLiteral("events")).toArray())
        if (e.toObject().contains(QStringLiteral("token")))
            cronEvents << e.toObject().value(QStringLiteral("event")).toString() + QLatin1Char(' ') +
                              e.toObject().value(QStringLiteral("token")).toString();
    QCOMPARE(cronEvents,
             (QStringList{QStringLiteral("acquired ") + first, QStringLiteral("replaced ") + first,
                          QStringLiteral("acquired ") + second}));
    const QJsonObject invoiceHistory = history(db, QStringLiteral("day:invoices"));
    QVERIFY(compare(invoiceHistory, {{invoices.value(QStringLiteral("value")).toString(),
                                      QStringLiteral("force-released"), 0, 3, urls}}));
    bool auditNamed = false;
    for (const QJsonValue& e : invoiceHistory.value(QStringLiteral("events")).toArray())
        auditNamed =
            auditNamed || (e.toObject().value(QStringLiteral("event")) == QLatin1String("force-released") &&
                           e.toObject().value(QStringLiteral("auditId")).toString() == auditId);
    QVERIFY2(auditNamed, QJsonDocument(invoiceHistory).toJson().constData());
    const QJsonObject redisson = history(db, QStringLiteral("day:redisson"));
    QVERIFY(compare(redisson, {{QString::fromLatin1(field), QStringLiteral("released"), 1, 3, urls}}));
    QVERIFY(redisson.value(QStringLiteral("episodes"))
                .toArray()
                .first()
                .toObject()
                .value(QStringLiteral("owner"))
                .toString()
                .contains(QLatin1String("57")));
    const QJsonObject pyHistory = history(db, QStringLiteral("day:pyjob"));
    QVERIFY(compare(
        pyHistory,
        {{pyjob.value(QStringLiteral("token")).toString(), QStringLiteral("lost"), 0, 1, {urls[2]}}}));
    QVERIFY(pyHistory.value(QStringLiteral("episodes"))
                .toArray()
                .first()
                .toObject()
                .value(QStringLiteral("owner"))
                .toString()
                .contains(pyjob.value(QStringLiteral("node")).toString()));
    bool restartShown = false;
    for (const QJsonValue& e : pyHistory.value(QStringLiteral("events")).toArray())
        restartShown = restartShown ||
                       (e.toObject().value(QStringLiteral("event")) == QLatin1String("master-restarted") &&
                        e.toObject().value(QStringLiteral("master")).toString() == urls[2]);
    QVERIFY2(restartShown, QJsonDocument(pyHistory).toJson().constData());
}

// A TTL longer than the recorder keeps a reading of (17 years) is counted exactly all the same: a
// master read again without a change is not an extension, a TTL set longer is one (a Redlock
// extension, once for the three masters), and the lock deleted was released.
void TestFlightRecorder::aLockHeldForDecadesIsExtendedOnlyWhenItIs()
{
    Recording r;
    QVERIFY(r.start(3, QStringLiteral("decades:*")));
    const qint64 year = 365LL * 24 * 3600 * 1000;
    const auto set = [&](int master) {
        return r.group.at(master)
                   .command({"SET", "decades:lock", "tok-1", "PX", QByteArray::number(40 * year)})
                   .string == "OK";
    };
    QVERIFY(set(0));
    QVERIFY(set(1));
    QVERIFY(recorded(r.db, QStringLiteral("decades:lock"), 1, false));
    // APPEND of nothing is a keyspace event that changes neither the value nor the TTL: master 0
    // is read again a second later, its expiry where it was. Then master 2 takes it too, so the
    // recorder looks at every master again.
    QThread::msleep(1000);
    QCOMPARE(r.group.at(0).command({"APPEND", "decades:lock", ""}).integer, 5);
    QThread::msleep(1000);
    QVERIFY(set(2));
    QThread::msleep(1000);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(r.group.at(i).command({"PEXPIRE", "decades:lock", QByteArray::number(50 * year)}).integer,
                 1);
    QTRY_VERIFY_WITH_TIMEOUT(history(r.db, QStringLiteral("decades:lock"))
                                     .value(QStringLiteral("episodes"))
                                     .toArray()
                                     .first()
                                     .toObject()
                                     .value(QStringLiteral("extensions"))
                                     .toInt() >= 1,
                             20000);
    QThread::msleep(500);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(r.group.at(i).command({"DEL", "decades:lock"}).integer, 1);
    QVERIFY(recorded(r.db, QStringLiteral("decades:lock"), 1, true));
    QCOMPARE(r.recorder.terminate(), 0);
    QVERIFY(compare(history(r.db, QStringLiteral("decades:lock")),
                    {{QStringLiteral("tok-1"), QStringLiteral("released"), 1, 3, r.group.urls(false)}}));
}

void TestFlightRecorder::locksHeldBeforeRecordingAreSeenNotTaken()
{
    // Locks held before the recorder started are "seen", never "acquired" while it watched: the
    // detection of two holders at once reads an acquisition as a time the lock was taken. Half of
    // them are not on master 2, whose first pass (over 60k other keys) ends last: their first view
    // waited for it, and went out in the flush that completes the first picture.
    Recording r;
    QVERIFY(r.startMasters(3));
    constexpr int locks = 3000;
    const QByteArray take = "for i = tonumber(ARGV[1]), 2999, tonumber(ARGV[2]) do "
                            "redis.call('SET', 'seen:' .. i, 'tok-' .. i, 'PX', 600000) end "
                            "for i = 1, tonumber(ARGV[3]) do redis.call('SET', 'other:' .. i, 'x') end";
    for (int m = 0; m < 3; ++m)
        QVERIFY(r.group.at(m)
                    .command({"EVAL", take, "0", m < 2 ? "0" : "1", m < 2 ? "1" : "2", m < 2 ? "0" : "60000"})
                    .type == RedisReply::Type::Nil);
    QVERIFY(r.startRecorder(QStringLiteral("seen:*")));
    const auto firstEvents = [&] {
        QHash<QByteArray, RecordEvent::Kind> first;
        RecordingReader reader;
        if (!reader.open(r.db))
            reader.forEachEvent([&](const HistoryEvent& h) {
                if (!h.event.isMasterEvent() && !first.contains(h.event.resource))
                    first.insert(h.event.resource, h.event.kind);
                return true;
            });
        return first;
    };
    QTRY_COMPARE_WITH_TIMEOUT(firstEvents().size(), locks, 30000);
    QCOMPARE(r.recorder.terminate(), 0);
    QCOMPARE(firstEvents().values().count(RecordEvent::Kind::Seen), locks);
}

void TestFlightRecorder::sigkillKeepsEverythingUpToASecondBefore()
{
    Recording r;
    QVERIFY(r.start(1, QStringLiteral("crash:*")));
    const QString& db = r.db;

    // Lock changes, each with the time it was made, until the moment of the kill.
    QList<qint64> madeAt;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 3000) {
        const QByteArray i = QByteArray::number(madeAt.size());
        r.group.at(0).command({"SET", "crash:" + i, "token-" + i, "PX", "60000"});
        madeAt << QDateTime::currentMSecsSinceEpoch();
        QTest::qWait(20); // the pace of the lock changes, not a wait for the recorder
    }
    r.recorder.kill();
    const qint64 killedAt = QDateTime::currentMSecsSinceEpoch();

    RecordingDatabase file;
    QVERIFY2(!file.open(db, true), "the recording does not open after SIGKILL");
    QCOMPARE(file.scalar(QStringLiteral("PRAGMA integrity_check")).toString(), QStringLiteral("ok"));
    RecordingReader reader;
    QVERIFY(!reader.open(db));
    int kept = 0;
    for (qsizetype i = 0; i < madeAt.size(); ++i) {
        const Result<ResourceHistory> h = reader.history("crash:" + QByteArray::number(i));
        QVERIFY(h.ok());
        const bool there =
            h->episodes.size() == 1 && h->episodes.first().token == "token-" + QByteArray::number(i);
        kept += there ? 1 : 0;
        if (madeAt.at(i) <= killedAt - 1000)
            QVERIFY2(there, qPrintable(QStringLiteral(
                                           "change %1, made %2 ms before the kill, is not in the recording")
                                           .arg(i)
                                           .arg(killedAt - madeAt.at(i))));
    }
    qInfo("%d of %lld changes recorded; the last one %lld ms before the kill", kept, qint64(madeAt.size()),
          killedAt - madeAt.last());
}

void TestFlightRecorder::historyNeedsNoMasterAndSaysWhatIsWrong()
{
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("none.sqlite"));
    LockctlRun run =
        runLockctl({QStringLiteral("history"), QStringLiteral("r"), QStringLiteral("--db"), missing});
    QCOMPARE(run.code, 1);
    QVERIFY2(run.err.contains(missing.toUtf8()) && run.err.contains("no such file"),
             qPrintable(run.describe()));
    QVERIFY(!QFile::exists(missing)); // reading never creates one

    run = runLockctl(
        {QStringLiteral("history"), QStringLiteral("r"), QStringLiteral("--since"), QStringLiteral("5x")});
    QCOMPARE(run.code, 2);
    QVERIFY2(run.err.contains("--since takes a duration"), qPrintable(run.describe()));

    // A recording of a newer LockScope: refused by name, by record and history alike, and left as it was.
    const QString newer = dir.filePath(QStringLiteral("newer.sqlite"));
    {
        RecordingDatabase file;
        QVERIFY(!file.open(newer));
        QVERIFY(!file.exec(QStringLiteral("PRAGMA user_version = 99")));
    }
    run = runLockctl({QStringLiteral("history"), QStringLiteral("r"), QStringLiteral("--db"), newer});
    QCOMPARE(run.code, 1);
    QVERIFY2(run.err.contains("written by a newer LockScope") && run.err.contains("schema version 99"),
             qPrintable(run.describe()));

    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    run = runLockctl(group.lockctlArgs() +
                     QStringList{QStringLiteral("record"), QStringLiteral("--db"), newer});
    QCOMPARE(run.code, 1);
    QVERIFY2(run.err.contains("written by a newer LockScope"), qPrintable(run.describe()));
    RecordingDatabase after;
    QVERIFY(after.open(newer).message.contains(QLatin1String("99")));
}

void TestFlightRecorder::hostileBytesAreEscapedInHistory()
{
    Recording r;
    QVERIFY(r.start(1, QStringLiteral("lock:*")));
    const QString& db = r.db;
    r.group.at(0).command({"SET", hostileKey, hostileToken, "PX", "60000"});
    // The name is typed back in the escaped form `lockctl list` prints.
    const QString typed = escapeBytes(hostileKey);
    QVERIFY(recorded(db, typed, 1, false));
    QCOMPARE(r.recorder.terminate(), 0);

    const QJsonObject json = history(db, typed);
    QCOMPARE(json.value(QStringLiteral("resource")).toString(), typed);
    QCOMPARE(json.value(QStringLiteral("episodes"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("token"))
                 .toString(),
             escapeBytes(hostileToken));
    const LockctlRun text = runLockctl({QStringLiteral("history"), typed, QStringLiteral("--db"), db});
    QCOMPARE(text.code, 0);
    QVERIFY2(rawTextIn(text.out).isEmpty(), qPrintable(rawTextIn(text.out)));
    QVERIFY2(text.out.contains(escapeBytes(hostileToken).toUtf8()), qPrintable(text.describe()));
}

// Issue #15: the diagnosis is checked from the recording too. Real clients renew two locks while a
// real `lockctl record` watches: one renews a 1 s lease every 0.3 s for ever (a renewal loop that
// never lets go), one renews a 20 s (scaled) lease a few times and stops (a holder gone). `lockctl history`
// says so from the file alone, and `lockctl list --json --db` from one scan plus the recording,
// which a single scan cannot see.
void TestFlightRecorder::recordedRenewalLoopAndStoppedRenewalsAreDiagnosed()
{
    Recording r;
    QVERIFY(r.start(1, QStringLiteral("lock:*")));
    RedisServer& server = r.group.at(0);
    server.command({"SET", "lock:loop", "feedface", "PX", "1000"});
    auto loop = startCli(server, {QStringLiteral("-r"), QStringLiteral("-1"), QStringLiteral("-i"),
                                  QStringLiteral("0.3"), QStringLiteral("PEXPIRE"),
                                  QStringLiteral("lock:loop"), QStringLiteral("1000")});
    // 20 s on an idle machine, scaled: it must outlive the rest of the test (lock:loop's ten leases,
    // then `history` and two `list` runs), which under the sanitizers can take longer than 20 s.
    // The not-renewed verdict does not depend on it (it is the quiet time against the renewals' gap).
    const QByteArray stopsLeaseMs = QByteArray::number(upperBoundMs(20000));
    server.command({"SET", "lock:stops", "cafebabe", "PX", stopsLeaseMs});
    auto brief = startCli(server, {QStringLiteral("-r"), QStringLiteral("4"), QStringLiteral("-i"),
                                   QStringLiteral("0.3"), QStringLiteral("PEXPIRE"),
                                   QStringLiteral("lock:stops"), QString::fromLatin1(stopsLeaseMs)});
    QVERIFY(brief->waitForFinished(10000)); // it renewed 4 times, and stopped

    const auto diagnosis = [&](const QString& resource) {
        return history(r.db, resource).value(QStringLiteral("diagnosis")).toArray();
    };
    // Held for more than 10 × its 1 s lease (the default N): held-too-long, with the extensions
    // the episode counts.
    QTRY_VERIFY_WITH_TIMEOUT(
        codesOf(diagnosis(QStringLiteral("lock:loop"))).contains(QStringLiteral("held-too-long")), 30000);
    const QJsonObject loopHistory = history(r.db, QStringLiteral("lock:loop"));
    const QJsonArray episodes = loopHistory.value(QStringLiteral("episodes")).toArray();
    QVERIFY(!episodes.isEmpty());
    const int extensions = episodes.last()[QStringLiteral("extensions")].toInt();
    QVERIFY2(extensions >= 10, QJsonDocument(loopHistory).toJson().constData());
    const QString tooLong =
        sentenceOf(loopHistory.value(QStringLiteral("diagnosis")).toArray(), QStringLiteral("held-too-long"));
    QVERIFY2(tooLong.contains(QStringLiteral("token feedface")) &&
                 tooLong.contains(QStringLiteral("its 1.0 s lease")) &&
                 tooLong.contains(QStringLiteral("extended %1 times").arg(extensions)),
             qPrintable(tooLong));
    QVERIFY(!codesOf(diagnosis(QStringLiteral("lock:loop"))).contains(QStringLiteral("not-renewed")));

    QTRY_COMPARE_WITH_TIMEOUT(codesOf(diagnosis(QStringLiteral("lock:stops"))),
                              QStringList{QStringLiteral("not-renewed")}, 10000);
    const QJsonArray stopped = diagnosis(QStringLiteral("lock:stops"));
    QVERIFY2(sentenceOf(stopped, QStringLiteral("not-renewed"))
                 .contains(QStringLiteral("the holder likely stopped")),
             QJsonDocument(stopped).toJson().constData());
    QVERIFY(server.command({"PTTL", "lock:stops"}).integer > 0); // still held: told before it expires

    // The text form says it too.
    const LockctlRun text =
        runLockctl({QStringLiteral("history"), QStringLiteral("lock:loop"), QStringLiteral("--db"), r.db});
    QVERIFY2(text.code == 0 && text.out.contains("diagnosis held-too-long: Held far longer than its lease"),
             qPrintable(text.describe()));

    // One scan alone sees neither; with the recording, list says what history says.
    const QHash<QString, QJsonArray> scanOnly = listDiagnoses(r.group.urls(false));
    QVERIFY(scanOnly.contains(QStringLiteral("lock:loop")) &&
            scanOnly.contains(QStringLiteral("lock:stops")));
    QVERIFY(codesOf(scanOnly.value(QStringLiteral("lock:loop"))).isEmpty());
    QVERIFY(codesOf(scanOnly.value(QStringLiteral("lock:stops"))).isEmpty());
    int code = -1;
    const QHash<QString, QJsonArray> listed =
        listDiagnoses(r.group.urls(false), &code, {QStringLiteral("--db"), r.db});
    QCOMPARE(code, 0);
    QVERIFY2(codesOf(listed.value(QStringLiteral("lock:loop"))).contains(QStringLiteral("held-too-long")),
             QJsonDocument(listed.value(QStringLiteral("lock:loop"))).toJson().constData());
    QVERIFY(sentenceOf(listed.value(QStringLiteral("lock:loop")), QStringLiteral("held-too-long"))
                .contains(QStringLiteral("extended ")));
    QCOMPARE(codesOf(listed.value(QStringLiteral("lock:stops"))), QStringList{QStringLiteral("not-renewed")});

    // A --db that is not there is an error, not a silent scan-only answer.
    const QHash<QString, QJsonArray> none = listDiagnoses(
        r.group.urls(false), &code, {QStringLiteral("--db"), r.dir.filePath(QStringLiteral("none.sqlite"))});
    QCOMPARE(code, 1);
    QVERIFY(none.isEmpty());
    stopCli(loop);
}

LOCKSCOPE_TEST_MAIN(TestFlightRecorder)

} // namespace tst_flightrecorder

#include "tst_flightrecorder.moc"
