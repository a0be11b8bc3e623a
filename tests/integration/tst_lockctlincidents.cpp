// SPDX-License-Identifier: Apache-2.0
#include "support/interoppeers.h"
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/recordedmasters.h"
#include "support/testregistry.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

namespace tst_lockctlincidents {

using namespace lockscope;
using namespace lockscope::test;

// `lockctl incidents` end to end (issue #42): `lockctl record` on a real master while redis-py
// plays the flash sale of the design documents, then the recording read back from the file alone.
// The peer's own account of what each client believed is the oracle; LockScope never sees it.
class TestLockctlIncidents : public QObject
{
    Q_OBJECT

private slots:
    void flashSaleIsAHandoverUnderALiveHolder();
    void flashSaleTracedIsProvenTwice();
    void aPausedRenewingHolderIsProbableAKilledOneIsNot();
    void aRestartThatGrantsTwiceIsProvenAndListed();
    void badInputIsAClearError();
};

namespace {

// `lockctl trace RESOURCE --record` on the first master for up to five minutes, in JSON.
QStringList traceRecordArgs(const RecordedMasters& masters, const QString& resource)
{
    return testPasswordArgs() + QStringList{QStringLiteral("--json"),
                                            QStringLiteral("-m"),
                                            masters.url(),
                                            QStringLiteral("--audit-log"),
                                            masters.dir.filePath(QStringLiteral("audit.jsonl")),
                                            QStringLiteral("trace"),
                                            resource,
                                            QStringLiteral("--for"),
                                            QStringLiteral("5m"),
                                            QStringLiteral("--record"),
                                            QStringLiteral("--db"),
                                            masters.db};
}

} // namespace

void TestLockctlIncidents::flashSaleIsAHandoverUnderALiveHolder()
{
    LOCKSCOPE_SKIP_WITHOUT_PEERS();
    RecordedMasters masters;
    QVERIFY2(masters.start(1), qPrintable(masters.errorString()));
    LockctlProcess recorder;
    QVERIFY2(masters.startRecorder(recorder, {QStringLiteral("--pattern"), QStringLiteral("sale:*")}),
             qPrintable(recorder.describe()));

    const QJsonObject sale = InteropPeers::flashSale(QStringLiteral("sale:lock"), masters.url());
    QVERIFY2(!sale.isEmpty(), "flash_sale.py failed");
    QCOMPARE(sale.value(QStringLiteral("deleted")).toInt(), 1); // A's DEL took B's lock
    QTest::qWait(1000);                                         // the recorder commits within about 400 ms
    QCOMPARE(recorder.terminate(), 0);

    // The oracle: B believed it held the lock from its SET, A from its SET until its DEL.
    const QString tokenA = sale.value(QStringLiteral("tokenA")).toString();
    const QString tokenB = sale.value(QStringLiteral("tokenB")).toString();
    const qint64 bothFrom = qint64(sale.value(QStringLiteral("bAcquiredMs")).toDouble());
    const qint64 bothTo = qint64(sale.value(QStringLiteral("aDeletingMs")).toDouble());

    // By default (probable and up) nothing: from Redis alone the handover looks like a killed
    // holder's lease running out.
    const LockctlRun quiet = runLockctl({QStringLiteral("incidents"), QStringLiteral("--db"), masters.db});
    QVERIFY2(quiet.code == 0 && quiet.out.contains("No incidents."), qPrintable(quiet.describe()));

    const LockctlRun run =
        runLockctl({QStringLiteral("--json"), QStringLiteral("incidents"), QStringLiteral("--db"), masters.db,
                    QStringLiteral("--min-confidence"), QStringLiteral("possible")});
    QVERIFY2(run.code == 1, qPrintable(run.describe()));
    const QJsonArray incidents =
        QJsonDocument::fromJson(run.out).object().value(QStringLiteral("incidents")).toArray();
    QVERIFY2(incidents.size() == 1, run.out.constData());
    const QJsonObject i = incidents.first().toObject();
    QCOMPARE(i.value(QStringLiteral("kind")).toString(), QStringLiteral("handover-under-live-holder"));
    QCOMPARE(i.value(QStringLiteral("confidence")).toString(), QStringLiteral("possible"));
    QCOMPARE(i.value(QStringLiteral("resource")).toString(), QStringLiteral("sale:lock"));
    QCOMPARE(i.value(QStringLiteral("first")).toObject().value(QStringLiteral("token")).toString(), tokenA);
    QCOMPARE(i.value(QStringLiteral("second")).toObject().value(QStringLiteral("token")).toString(), tokenB);
    // Its interval holds the oracle's: from B's SET (seen a moment later) to A's DEL (seen as B's
    // lock going, a moment after it was sent).
    const auto ms = [&](const char* field) {
        return QDateTime::fromString(i.value(QLatin1String(field)).toString(), Qt::ISODateWithMs)
            .toMSecsSinceEpoch();
    };
    qInfo("oracle %lld..%lld, reported %lld..%lld", bothFrom, bothTo, ms("from"), ms("to"));
    // (Seen within the observation's lag: a keyspace event, then a read.)
    QVERIFY(qAbs(ms("from") - bothFrom) <= 1000);
    QVERIFY(ms("to") >= bothTo);
    QVERIFY(i.value(QStringLiteral("evidence")).toArray().size() >= 3);

    // The same, in words, for a person.
    const LockctlRun words = runLockctl({QStringLiteral("incidents"), QStringLiteral("--db"), masters.db,
                                         QStringLiteral("--min-confidence"), QStringLiteral("possible"),
                                         QStringLiteral("--resource"), QStringLiteral("sale:lock")});
    QVERIFY2(words.code == 1 && words.out.contains("possible handover-under-live-holder  sale:lock: ") &&
                 words.out.contains(tokenA.toUtf8()),
             qPrintable(words.describe()));
    // --since: the incident is within the last hour, not within the last millisecond of tomorrow.
    const LockctlRun recent = runLockctl({QStringLiteral("incidents"), QStringLiteral("--db"), masters.db,
                                          QStringLiteral("--min-confidence"), QStringLiteral("possible"),
                                          QStringLiteral("--since"), QStringLiteral("1h")});
    QCOMPARE(recent.code, 1);
}

void TestLockctlIncidents::flashSaleTracedIsProvenTwice()
{
    // The same flash sale, recorded by `lockctl trace --record` (issue #43): the tracer ties each
    // token to the connection that took it, and sees A's DEL come from A's connection while B holds
    // the lock. The handover is then proven, and the delete is one by a non-holder.
    LOCKSCOPE_SKIP_WITHOUT_PEERS();
    RecordedMasters masters;
    QVERIFY2(masters.start(1), qPrintable(masters.errorString()));
    LockctlProcess trace;
    QVERIFY(trace.start(traceRecordArgs(masters, QStringLiteral("sale:lock"))));
    QVERIFY2(trace.waitForOutput("\"state\":\"tracing\""), qPrintable(trace.describe()));

    const QJsonObject sale = InteropPeers::flashSale(QStringLiteral("sale:lock"), masters.url());
    QVERIFY2(!sale.isEmpty(), "flash_sale.py failed");
    QCOMPARE(sale.value(QStringLiteral("deleted")).toInt(), 1);
    QTest::qWait(1000); // the recorder commits within about 400 ms
    QCOMPARE(trace.terminate(), 0);
    QVERIFY2(trace.out().contains("event(s) recorded to"), qPrintable(trace.describe()));

    // The oracle: the peer's own account.
    const QString tokenA = sale.value(QStringLiteral("tokenA")).toString();
    const QString tokenB = sale.value(QStringLiteral("tokenB")).toString();
    const qint64 bAcquired = qint64(sale.value(QStringLiteral("bAcquiredMs")).toDouble());
    const qint64 aDeleting = qint64(sale.value(QStringLiteral("aDeletingMs")).toDouble());

    // Raised by default now: both are proven.
    const LockctlRun run =
        runLockctl({QStringLiteral("--json"), QStringLiteral("incidents"), QStringLiteral("--db"), masters.db,
                    QStringLiteral("--min-confidence"), QStringLiteral("proven")});
    QVERIFY2(run.code == 1, qPrintable(run.describe()));
    const QJsonArray incidents =
        QJsonDocument::fromJson(run.out).object().value(QStringLiteral("incidents")).toArray();
    QVERIFY2(incidents.size() == 2, run.out.constData());
    QHash<QString, QJsonObject> byKind;
    for (const QJsonValue& v : incidents)
        byKind.insert(v.toObject().value(QStringLiteral("kind")).toString(), v.toObject());
    const auto token = [](const QJsonObject& i, const char* which) {
        return i.value(QLatin1String(which)).toObject().value(QStringLiteral("token")).toString();
    };
    const auto ms = [](const QJsonObject& i, const char* field) {
        return QDateTime::fromString(i.value(QLatin1String(field)).toString(), Qt::ISODateWithMs)
            .toMSecsSinceEpoch();
    };
    const QJsonObject handover = byKind.value(QStringLiteral("handover-under-live-holder"));
    QCOMPARE(handover.value(QStringLiteral("confidence")).toString(), QStringLiteral("proven"));
    QCOMPARE(token(handover, "first"), tokenA);
    QCOMPARE(token(handover, "second"), tokenB);
    qInfo("oracle %lld..%lld, reported %lld..%lld", bAcquired, aDeleting, ms(handover, "from"),
          ms(handover, "to"));
    QVERIFY(qAbs(ms(handover, "from") - bAcquired) <= 1000);
    // Up to A's DEL as the tracer saw it arrive: the oracle's end, within the lag of a loopback.
    QVERIFY(ms(handover, "to") >= aDeleting && ms(handover, "to") <= aDeleting + 1000);
    const QJsonObject deleted = byKind.value(QStringLiteral("deleted-by-non-holder"));
    QCOMPARE(deleted.value(QStringLiteral("confidence")).toString(), QStringLiteral("proven"));
    QCOMPARE(token(deleted, "first"), tokenB);  // whose lock went
    QCOMPARE(token(deleted, "second"), tokenA); // who deleted it, by its connection
    QVERIFY(ms(deleted, "from") >= aDeleting && ms(deleted, "from") <= aDeleting + 1000);
    QVERIFY(deleted.value(QStringLiteral("cause")).toString().contains(QLatin1String("deleted while")));

    // The story shows what the tracer saw, with the connections.
    const LockctlRun history = runLockctl({QStringLiteral("--json"), QStringLiteral("history"),
                                           QStringLiteral("sale:lock"), QStringLiteral("--db"), masters.db});
    QVERIFY2(history.code == 0, qPrintable(history.describe()));
    QStringList traced;
    QString deleter;
    QString takerOfA;
    int refused = 0;
    for (const QJsonValue& v :
         QJsonDocument::fromJson(history.out).object().value(QStringLiteral("events")).toArray()) {
        const QJsonObject e = v.toObject();
        const QString kind = e.value(QStringLiteral("event")).toString();
        if (!kind.startsWith(QLatin1String("traced-")))
            continue;
        // B's tries while A held the lock: contention for the insights (issue #44), not evidence.
        if (kind == QLatin1String("traced-refused")) {
            ++refused;
            continue;
        }
        traced << kind;
        if (kind == QLatin1String("traced-delete"))
            deleter = e.value(QStringLiteral("connection")).toString();
        if (kind == QLatin1String("traced-holder") && e.value(QStringLiteral("token")).toString() == tokenA)
            takerOfA = e.value(QStringLiteral("connection")).toString();
    }
    // B's take found A's connection still open (A blocked, not gone): `traced-alive`.
    QVERIFY2(traced == QStringList({QStringLiteral("traced-holder"), QStringLiteral("traced-holder"),
                                    QStringLiteral("traced-alive"), QStringLiteral("traced-delete")}),
             qPrintable(traced.join(QLatin1Char(' '))));
    QVERIFY(!deleter.isEmpty());
    QCOMPARE(deleter, takerOfA);
    QVERIFY(refused > 0);
}

namespace {

// hold_redispy.py: a redis-py holder of `key` the test pauses, kills or leaves waiting.
class PeerHolder
{
public:
    PeerHolder(const QString& key, int ttlMs, int renewEveryMs, const QString& url)
    {
        InteropPeers::startPython(m_process, QStringLiteral("hold_redispy.py"),
                                  {key, QString::number(ttlMs), QString::number(renewEveryMs), url});
    }
    // Its token, once it holds the lock; empty if it did not within 15 s.
    QString token()
    {
        if (!QTest::qWaitFor(
                [this] { return !lines().isEmpty() || m_process.state() == QProcess::NotRunning; }, 15000))
            return {};
        return lines().isEmpty() ? QString() : lines().first().value(QStringLiteral("token")).toString();
    }
    void signal(int number) const { ::kill(pid_t(m_process.processId()), number); }
    // It exits without touching the lock.
    bool letGo()
    {
        m_process.closeWriteChannel();
        return m_process.waitForFinished(10000) && m_process.exitCode() == 0;
    }
    QString describe() { return QString::fromUtf8(m_out + m_process.readAllStandardError()); }

private:
    QList<QJsonObject> lines()
    {
        m_out += m_process.readAllStandardOutput();
        return InteropPeers::jsonLines(m_out);
    }
    QProcess m_process; // its destructor kills and reaps it, whatever the test did
    QByteArray m_out;
};

} // namespace

void TestLockctlIncidents::aPausedRenewingHolderIsProbableAKilledOneIsNot()
{
    // Three handovers by expiry under `lockctl trace --record`, each with a different truth that only
    // the test knows (the detector sees the master alone): A renews its lease and is paused (SIGSTOP)
    // until after B took the lock, alive and counting on it: probable. B never renews and lets its
    // lease run out while it waits, connection open: a holder done with the lock, possible. C renews
    // and is killed (SIGKILL): a dead holder's lease running out, possible.
    LOCKSCOPE_SKIP_WITHOUT_PEERS();
    RecordedMasters masters;
    QVERIFY2(masters.start(1), qPrintable(masters.errorString()));
    LockctlProcess trace;
    QVERIFY(trace.start(traceRecordArgs(masters, QStringLiteral("hold:lock"))));
    QVERIFY2(trace.waitForOutput("\"state\":\"tracing\""), qPrintable(trace.describe()));

    const QString key = QStringLiteral("hold:lock");
    PeerHolder a(key, 1000, 250, masters.url());
    const QString tokenA = a.token();
    QVERIFY2(!tokenA.isEmpty(), qPrintable(a.describe()));
    QTest::qWait(700); // two renewals
    a.signal(SIGSTOP);
    PeerHolder b(key, 1000, 0, masters.url()); // takes the lock once A's lease ran out
    const QString tokenB = b.token();
    QVERIFY2(!tokenB.isEmpty(), qPrintable(b.describe()));
    // The tracer asks the master who is connected once it sees B's take; A stays paused until then.
    const auto told = [&trace](const char* connection, int times) {
        const QByteArray said = QByteArray("\"connection\":\"") + connection + '"';
        return QTest::qWaitFor([&] { return trace.out().count(said) >= times; }, 15000);
    };
    QVERIFY2(told("open", 1), qPrintable(trace.describe()));
    a.signal(SIGKILL);

    PeerHolder c(key, 1000, 250, masters.url()); // takes it once B's lease ran out
    const QString tokenC = c.token();
    QVERIFY2(!tokenC.isEmpty(), qPrintable(c.describe()));
    QTest::qWait(700);
    c.signal(SIGKILL);
    PeerHolder d(key, 1000, 0, masters.url());
    const QString tokenD = d.token();
    QVERIFY2(!tokenD.isEmpty(), qPrintable(d.describe()));
    QVERIFY2(told("open", 2) && told("closed", 1), qPrintable(trace.describe()));
    QTest::qWait(1000); // the recorder commits within about 400 ms
    QVERIFY2(b.letGo(), qPrintable(b.describe()));
    QVERIFY2(d.letGo(), qPrintable(d.describe()));
    QCOMPARE(trace.terminate(), 0);

    const LockctlRun all =
        runLockctl({QStringLiteral("--json"), QStringLiteral("incidents"), QStringLiteral("--db"), masters.db,
                    QStringLiteral("--min-confidence"), QStringLiteral("possible")});
    QVERIFY2(all.code == 1, qPrintable(all.describe()));
    QHash<QString, QJsonObject> byFirst;
    for (const QJsonValue& v :
         QJsonDocument::fromJson(all.out).object().value(QStringLiteral("incidents")).toArray()) {
        const QJsonObject i = v.toObject();
        QCOMPARE(i.value(QStringLiteral("kind")).toString(), QStringLiteral("handover-under-live-holder"));
        byFirst.insert(i.value(QStringLiteral("first")).toObject().value(QStringLiteral("token")).toString(),
                       i);
    }
    QVERIFY2(byFirst.size() == 3, all.out.constData());
    const auto check = [&](const QString& first, const QString& second, const char* confidence,
                           const char* said) {
        const QJsonObject i = byFirst.value(first);
        QCOMPARE(i.value(QStringLiteral("second")).toObject().value(QStringLiteral("token")).toString(),
                 second);
        QCOMPARE(i.value(QStringLiteral("confidence")).toString(), QLatin1String(confidence));
        QVERIFY2(i.value(QStringLiteral("cause")).toString().contains(QLatin1String(said)),
                 all.out.constData());
    };
    check(tokenA, tokenB, "probable", "was alive");
    check(tokenB, tokenC, "possible", "never renewed");
    check(tokenC, tokenD, "possible", "had gone");
    // By default (probable and up) only A's.
    const LockctlRun raised = runLockctl(
        {QStringLiteral("--json"), QStringLiteral("incidents"), QStringLiteral("--db"), masters.db});
    const QJsonArray listed =
        QJsonDocument::fromJson(raised.out).object().value(QStringLiteral("incidents")).toArray();
    QVERIFY2(raised.code == 1 && listed.size() == 1, qPrintable(raised.describe()));
    QCOMPARE(listed.first()
                 .toObject()
                 .value(QStringLiteral("first"))
                 .toObject()
                 .value(QStringLiteral("token"))
                 .toString(),
             tokenA);
}

void TestLockctlIncidents::aRestartThatGrantsTwiceIsProvenAndListed()
{
    // Three masters; A on all of them; two restart without persistence; B takes those two.
    RecordedMasters masters;
    QVERIFY2(masters.start(3), qPrintable(masters.errorString()));
    LockctlProcess recorder;
    QVERIFY2(masters.startRecorder(recorder), qPrintable(recorder.describe()));
    for (int i = 0; i < 3; ++i)
        masters.group.at(i).command({"SET", "lock:x", "tok-A", "PX", "60000"});
    QTest::qWait(1000);
    QVERIFY(masters.group.at(0).restart());
    QVERIFY(masters.group.at(1).restart());
    QTest::qWait(1500);
    for (int i : {0, 1})
        masters.group.at(i).command({"SET", "lock:x", "tok-B", "NX", "PX", "60000"});
    const QStringList incidents{QStringLiteral("--json"), QStringLiteral("incidents"), QStringLiteral("--db"),
                                masters.db};
    QVERIFY(QTest::qWaitFor([&] { return runLockctl(incidents).code == 1; }, 15000));
    const LockctlRun run = runLockctl(incidents);
    const QJsonArray found =
        QJsonDocument::fromJson(run.out).object().value(QStringLiteral("incidents")).toArray();
    QVERIFY2(found.size() == 1, run.out.constData());
    const QJsonObject i = found.first().toObject();
    QCOMPARE(i.value(QStringLiteral("kind")).toString(), QStringLiteral("majority-overlap"));
    QCOMPARE(i.value(QStringLiteral("confidence")).toString(), QStringLiteral("proven"));
    QCOMPARE(i.value(QStringLiteral("first")).toObject().value(QStringLiteral("token")).toString(),
             QStringLiteral("tok-A"));
    QCOMPARE(i.value(QStringLiteral("second")).toObject().value(QStringLiteral("token")).toString(),
             QStringLiteral("tok-B"));
    QVERIFY2(i.value(QStringLiteral("cause")).toString().contains(QLatin1String("restart")),
             run.out.constData());

    // lockctl list --json carries the lock's incidents (of the last day) when it reads a recording.
    const LockctlRun list =
        runLockctl(masters.group.lockctlArgs() + QStringList{QStringLiteral("--json"), QStringLiteral("list"),
                                                             QStringLiteral("--db"), masters.db});
    QVERIFY2(list.code == 0, qPrintable(list.describe()));
    bool listed = false;
    for (const QJsonValue& v :
         QJsonDocument::fromJson(list.out).object().value(QStringLiteral("locks")).toArray()) {
        const QJsonObject lock = v.toObject();
        if (lock.value(QStringLiteral("resource")).toString() != QLatin1String("lock:x"))
            continue;
        const QJsonArray its = lock.value(QStringLiteral("incidents")).toArray();
        QCOMPARE(its.size(), 1);
        QCOMPARE(its.first()
                     .toObject()
                     .value(QStringLiteral("second"))
                     .toObject()
                     .value(QStringLiteral("token"))
                     .toString(),
                 QStringLiteral("tok-B"));
        listed = true;
    }
    QVERIFY2(listed, list.out.constData());
    QCOMPARE(recorder.terminate(), 0);
}

void TestLockctlIncidents::badInputIsAClearError()
{
    QTemporaryDir dir;
    const QString absent = dir.filePath(QStringLiteral("none.sqlite"));
    struct Case
    {
        QStringList args;
        QByteArray said;
    };
    const QList<Case> cases{
        {{QStringLiteral("incidents"), QStringLiteral("--db"), absent}, "none.sqlite"},
        {{QStringLiteral("incidents"), QStringLiteral("--min-confidence"), QStringLiteral("sure")},
         "--min-confidence is possible, probable or proven, not sure"},
        {{QStringLiteral("incidents"), QStringLiteral("--since"), QStringLiteral("yesterday")}, "--since"},
        {{QStringLiteral("incidents"), QStringLiteral("extra")}, "incidents takes no arguments"},
    };
    for (const Case& c : cases) {
        const LockctlRun run = runLockctl(c.args);
        QVERIFY2(run.code == 2 && run.err.contains(c.said), qPrintable(run.describe()));
        QVERIFY(run.out.isEmpty());
    }
    QVERIFY(!QFile::exists(absent)); // reading never creates the file
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockctlIncidents)

} // namespace tst_lockctlincidents

#include "tst_lockctlincidents.moc"
