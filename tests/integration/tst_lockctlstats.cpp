// SPDX-License-Identifier: Apache-2.0
#include "support/interoppeers.h"
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/recordedmasters.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

namespace tst_lockctlstats {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// The nearest-rank percentile, as lockctl computes it, of the workload's own holds.
double percentile(QList<double> holds, double share)
{
    std::sort(holds.begin(), holds.end());
    const qsizetype rank =
        qBound<qsizetype>(1, qsizetype(std::ceil(share * double(holds.size()))), holds.size());
    return holds.at(rank - 1);
}

// What the recording can resolve: a SET and a DEL are each seen a few ms after they happen (a
// keyspace event, then a read), so a hold is known to within 40 ms on an idle machine, or within
// 5 % of it. Each sighting waits for a core on a loaded one, and runs four times slower under the
// sanitizers: the bound is scaled as upper bounds are (timebound.h). A p99 of a hundred holds is
// their second largest: one sighting that waited for a core moves it by that wait.
double resolutionMs()
{
    return double(upperBoundMs(40));
}

bool close(double observed, double truth)
{
    return std::abs(observed - truth) <= std::max(resolutionMs(), 0.05 * truth);
}

} // namespace

// `lockctl stats` end to end (issue #44): redis-py holders whose hold times and endings are known
// (stats_workload.py) recorded by `lockctl record` on a real master with keyspace events on, then
// the figures read from the recording alone. The workload's own account is the oracle; LockScope
// never sees it.
class TestLockctlStats : public QObject
{
    Q_OBJECT

private slots:
    void figuresMatchTheWorkloadsOwnAccount();
    void badInputIsAClearError();
};

void TestLockctlStats::figuresMatchTheWorkloadsOwnAccount()
{
    LOCKSCOPE_SKIP_WITHOUT_PEERS();
    RecordedMasters masters; // keyspace events on: a release and an expiry are told apart
    QVERIFY2(masters.start(1), qPrintable(masters.errorString()));
    const QString& db = masters.db;
    LockctlProcess recorder;
    QStringList patterns;
    for (const char* pattern : {"steady:*", "overrun:*", "killed:*", "hot:*"})
        patterns << QStringLiteral("--pattern") << QLatin1String(pattern);
    QVERIFY2(masters.startRecorder(recorder, patterns), qPrintable(recorder.describe()));

    QProcess workload;
    InteropPeers::startPython(workload, QStringLiteral("stats_workload.py"),
                              {masters.url(), QStringLiteral("--seed"), QStringLiteral("7"),
                               // A tenure shorter than the recorder's reaction leaves nothing to read.
                               QStringLiteral("--shortest-hold-ms"),
                               QString::number(std::min<qint64>(400, upperBoundMs(30))),
                               QStringLiteral("--tenures"), QStringLiteral("30")});
    QVERIFY2(workload.waitForFinished(int(upperBoundMs(180000))) && workload.exitCode() == 0,
             workload.readAllStandardError().constData());
    const QList<QJsonObject> lines = InteropPeers::jsonLines(workload.readAllStandardOutput());
    QVERIFY(lines.size() == 1);
    const QJsonObject truth = lines.first().value(QStringLiteral("families")).toObject();
    // The last killed holder's lease (1 s) runs out, and the recorder commits (about 400 ms).
    QTest::qWait(2500);
    QCOMPARE(recorder.terminate(), 0);

    const LockctlRun run =
        runLockctl({QStringLiteral("--json"), QStringLiteral("stats"), QStringLiteral("--db"), db});
    QVERIFY2(run.code == 1, qPrintable(run.describe())); // flagged families: exit 1
    QHash<QString, QJsonObject> seen;
    for (const QJsonValue& v :
         QJsonDocument::fromJson(run.out).object().value(QStringLiteral("families")).toArray())
        seen.insert(v.toObject().value(QStringLiteral("family")).toString(), v.toObject());
    QCOMPARE(seen.size(), 4);

    for (const QString& name : truth.keys()) {
        const QJsonObject t = truth.value(name).toObject();
        const QJsonObject s = seen.value(name);
        QVERIFY2(!s.isEmpty(), qPrintable(name));
        const QJsonObject endings = t.value(QStringLiteral("endings")).toObject();
        const QJsonObject got = s.value(QStringLiteral("endings")).toObject();
        const int released = endings.value(QStringLiteral("released")).toInt();
        const int expired = endings.value(QStringLiteral("expired")).toInt() +
                            endings.value(QStringLiteral("killed")).toInt();
        qInfo("%s: acquisitions %d/%d, released %d/%d, expired %d/%d", qPrintable(name),
              s.value(QStringLiteral("acquisitions")).toInt(),
              t.value(QStringLiteral("acquisitions")).toInt(), got.value(QStringLiteral("released")).toInt(),
              released, got.value(QStringLiteral("expired")).toInt(), expired);
        // With keyspace events on, every tenure and its end are counted exactly.
        QCOMPARE(s.value(QStringLiteral("acquisitions")).toInt(),
                 t.value(QStringLiteral("acquisitions")).toInt());
        QCOMPARE(got.value(QStringLiteral("released")).toInt(), released);
        QCOMPARE(got.value(QStringLiteral("expired")).toInt(), expired);
        // The hold times of released tenures, against the holders' own clocks.
        QList<double> holds;
        for (const QJsonValue& h : t.value(QStringLiteral("holdsMs")).toArray())
            holds << h.toDouble();
        const QJsonObject hold = s.value(QStringLiteral("holdMs")).toObject();
        QCOMPARE(hold.value(QStringLiteral("count")).toInt(), int(holds.size()));
        const double p50 = percentile(holds, 0.5);
        const double p99 = percentile(holds, 0.99);
        qInfo("%s: hold p50 %.0f/%.1f, p99 %.0f/%.1f ms (resolution %.0f ms)", qPrintable(name),
              hold.value(QStringLiteral("p50")).toDouble(), p50, hold.value(QStringLiteral("p99")).toDouble(),
              p99, resolutionMs());
        QVERIFY2(close(hold.value(QStringLiteral("p50")).toDouble(), p50), qPrintable(name));
        QVERIFY2(close(hold.value(QStringLiteral("p99")).toDouble(), p99), qPrintable(name));
        // The lease: the TTL first read, a little under the one set.
        const double lease = t.value(QStringLiteral("leaseMs")).toDouble();
        const double leaseSeen = s.value(QStringLiteral("leaseMs")).toDouble();
        QVERIFY2(leaseSeen <= lease && leaseSeen >= lease - 100, qPrintable(name));
        // Flags: the overrunning family's headroom, the killed family's expiry share, nothing else.
        const QJsonObject flags = s.value(QStringLiteral("flags")).toObject();
        const double share = double(expired) / double(released + expired);
        QCOMPARE(flags.value(QStringLiteral("lowHeadroom")).toBool(), name == QLatin1String("overrun:*"));
        if (name == QLatin1String("killed:*"))
            QVERIFY(flags.value(QStringLiteral("highExpiryShare")).toBool());
        if (name == QLatin1String("steady:*") || name == QLatin1String("hot:lock"))
            QVERIFY(!flags.value(QStringLiteral("highExpiryShare")).toBool());
        QCOMPARE(flags.value(QStringLiteral("highExpiryShare")).toBool(), share > 0.05);
    }
    // 20 contenders on one lock: the next holder comes within a retry or two of a release.
    const QJsonObject gaps =
        seen.value(QStringLiteral("hot:lock")).value(QStringLiteral("handoverGapMs")).toObject();
    QVERIFY(gaps.value(QStringLiteral("count")).toInt() > 10);
    QVERIFY2(gaps.value(QStringLiteral("p50")).toDouble() <= 50,
             qPrintable(QString::number(gaps.value(QStringLiteral("p50")).toDouble())));

    // For a person: a table within 100 columns, riskiest first, the flags marked.
    const LockctlRun words = runLockctl({QStringLiteral("stats"), QStringLiteral("--db"), db});
    QCOMPARE(words.code, 1);
    const QList<QByteArray> rows = words.out.trimmed().split('\n');
    for (const QByteArray& row : rows)
        QVERIFY2(QString::fromUtf8(row).size() <= 100, row.constData());
    QVERIFY2(rows.size() >= 5 && rows.at(0).startsWith("FAMILY") && rows.at(1).startsWith("overrun:*"),
             words.out.constData());
    QVERIFY(words.out.contains('!'));
    // One family.
    const LockctlRun one =
        runLockctl({QStringLiteral("--json"), QStringLiteral("stats"), QStringLiteral("--db"), db,
                    QStringLiteral("--family"), QStringLiteral("steady:*")});
    QVERIFY2(one.code == 0, qPrintable(one.describe()));
    const QJsonArray only =
        QJsonDocument::fromJson(one.out).object().value(QStringLiteral("families")).toArray();
    QCOMPARE(only.size(), 1);
    QCOMPARE(only.first().toObject().value(QStringLiteral("family")).toString(), QStringLiteral("steady:*"));
}

void TestLockctlStats::badInputIsAClearError()
{
    QTemporaryDir dir;
    const LockctlRun missing = runLockctl(
        {QStringLiteral("stats"), QStringLiteral("--db"), dir.filePath(QStringLiteral("none.sqlite"))});
    QVERIFY2(missing.code == 2 && !missing.err.isEmpty(), qPrintable(missing.describe()));
    const LockctlRun bare =
        runLockctl({QStringLiteral("stats"), QStringLiteral("--since"), QStringLiteral("30")});
    QVERIFY2(bare.code == 2 && bare.err.contains("--since"), qPrintable(bare.describe()));
    const LockctlRun extra = runLockctl({QStringLiteral("stats"), QStringLiteral("order:*")});
    QVERIFY2(extra.code == 2 && extra.err.contains("no arguments"), qPrintable(extra.describe()));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockctlStats)

} // namespace tst_lockctlstats

#include "tst_lockctlstats.moc"
