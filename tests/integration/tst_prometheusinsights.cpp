// SPDX-License-Identifier: Apache-2.0
// A real Prometheus scrapes `lockctl serve` while stats_workload.py's redis-py holders play four
// families of locks whose hold times and endings they measure themselves (#44). Through Prometheus's
// HTTP API: histogram_quantile over lockscope_lock_hold_seconds agrees with the workload's own p99
// within the bucket it falls in, the endings are the workload's own count, and the lease headroom is
// over 0.8 for the overrunning family only. The workload's account is the oracle; serve never sees it.
#include "metrics/familyseries.h"
#include "support/httpget.h"
#include "support/interoppeers.h"
#include "support/prometheusprocess.h"
#include "support/promtool.h"
#include "support/recordedmasters.h"
#include "support/serveprocess.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tst_prometheusinsights {

using namespace lockscope;
using namespace lockscope::test;

namespace {

double firstValue(const QJsonArray& result)
{
    if (result.isEmpty())
        return std::numeric_limits<double>::quiet_NaN();
    return result.at(0).toObject().value(QStringLiteral("value")).toArray().at(1).toString().toDouble();
}

// The nearest-rank percentile of the workload's own holds (ms).
double percentile(QList<double> holds, double share)
{
    std::sort(holds.begin(), holds.end());
    const qsizetype rank =
        qBound<qsizetype>(1, qsizetype(std::ceil(share * double(holds.size()))), holds.size());
    return holds.at(rank - 1);
}

// What `query` says once it says `want`, or when `ms` have passed by the clock: the last answer.
// (QTRY counts its steps, not the time a query takes: under the sanitizers a query costs far more
// than a step, and a count that never matched waited twenty minutes instead of two.)
double valueOnceItIs(PrometheusProcess& prometheus, const QString& query, double want, int ms)
{
    const QDeadlineTimer deadline(ms);
    double got = firstValue(prometheus.query(query));
    while (got != want && !deadline.hasExpired()) {
        QTest::qWait(200);
        got = firstValue(prometheus.query(query));
    }
    return got;
}

// The bucket (lower, upper bound, in seconds) a hold of `seconds` falls in.
QPair<double, double> bucketOf(double seconds)
{
    double lower = 0;
    for (const double upper : FamilySeries::bucketBounds) {
        if (seconds <= upper)
            return {lower, upper};
        lower = upper;
    }
    return {lower, std::numeric_limits<double>::infinity()};
}

} // namespace

class TestPrometheusInsights : public QObject
{
    Q_OBJECT

private slots:
    void holdTimesEndingsAndHeadroomAgreeWithTheWorkload();
};

void TestPrometheusInsights::holdTimesEndingsAndHeadroomAgreeWithTheWorkload()
{
    if (prometheusPath().isEmpty())
        QSKIP("prometheus (Debian package prometheus) is not installed");
    LOCKSCOPE_SKIP_WITHOUT_PEERS();
    RecordedMasters masters; // keyspace events on: serve tells a release from an expiry by them
    QVERIFY2(masters.start(1), qPrintable(masters.errorString()));
    ServeProcess serve;
    QStringList args = masters.group.lockctlArgs() << QStringLiteral("serve");
    for (const char* pattern : {"steady:*", "overrun:*", "killed:*", "hot:*"})
        args << QStringLiteral("--pattern") << QLatin1String(pattern);
    QVERIFY2(serve.start(args), qPrintable(serve.errorString()));
    const int settle = int(upperBoundMs(30000));
    QTRY_COMPARE_WITH_TIMEOUT(httpGet(serve.url(QStringLiteral("/-/ready"))).status, 200, settle);
    PrometheusProcess prometheus;
    QVERIFY2(prometheus.start(QStringLiteral("127.0.0.1:%1").arg(serve.port()), "groups: []\n", 1000),
             qPrintable(prometheus.errorString()));
    QTRY_COMPARE_WITH_TIMEOUT(firstValue(prometheus.query(QStringLiteral("up{job=\"lockscope\"}"))), 1.0,
                              settle);

    QProcess workload;
    InteropPeers::startPython(workload, QStringLiteral("stats_workload.py"),
                              {masters.url(), QStringLiteral("--seed"), QStringLiteral("11"),
                               // A tenure shorter than serve's reaction leaves nothing to read. With
                               // 30 ms here (120 ms or more under the sanitizers), a loaded sanitizer
                               // run counted 239 of 240 steady:* releases: 100 ms and more now, the
                               // workload's most (400 ms) under the sanitizers.
                               QStringLiteral("--shortest-hold-ms"),
                               QString::number(std::min<qint64>(400, upperBoundMs(100)))});
    QVERIFY2(workload.waitForFinished(int(upperBoundMs(180000))) && workload.exitCode() == 0,
             workload.readAllStandardError().constData());
    const QList<QJsonObject> lines = InteropPeers::jsonLines(workload.readAllStandardOutput());
    QVERIFY(lines.size() == 1);
    const QJsonObject truth = lines.first().value(QStringLiteral("families")).toObject();

    // Resolution: a release is seen a few ms after it happens (a keyspace event, then a read).
    const double resolution = double(upperBoundMs(40)) / 1000;
    for (const QString& name : truth.keys()) {
        const QJsonObject t = truth.value(name).toObject();
        const QJsonObject endings = t.value(QStringLiteral("endings")).toObject();
        const int released = endings.value(QStringLiteral("released")).toInt();
        const int expired = endings.value(QStringLiteral("expired")).toInt() +
                            endings.value(QStringLiteral("killed")).toInt();
        const QString family = QStringLiteral("family=\"%1\"").arg(name);
        // Every release and expiry scraped (the killed holders' leases run out a second later).
        const QString releases =
            QStringLiteral("lockscope_lock_endings_total{%1,how=\"released\"}").arg(family);
        const QString expiries =
            QStringLiteral("lockscope_lock_endings_total{%1,how=\"expired\"}").arg(family);
        const double releasesSeen = valueOnceItIs(prometheus, releases, released, settle);
        const double expiriesSeen = valueOnceItIs(prometheus, expiries, expired, settle);
        // A tenure serve never read is missing from every count; one read but whose delete it was
        // not told of before the next holder's read counts as replaced.
        const double replacedSeen = firstValue(prometheus.query(
            QStringLiteral("lockscope_lock_endings_total{%1,how=\"replaced\"}").arg(family)));
        const QByteArray endingsSeen =
            QStringLiteral("%1: released %2 (the workload's %3), expired %4 (%5), replaced %6 (0)")
                .arg(name)
                .arg(releasesSeen)
                .arg(released)
                .arg(expiriesSeen)
                .arg(expired)
                .arg(replacedSeen)
                .toUtf8();
        QVERIFY2(releasesSeen == released && expiriesSeen == expired, endingsSeen.constData());

        QList<double> holds;
        for (const QJsonValue& h : t.value(QStringLiteral("holdsMs")).toArray())
            holds << h.toDouble();
        QCOMPARE(
            firstValue(prometheus.query(QStringLiteral("lockscope_lock_hold_seconds_count{%1}").arg(family))),
            double(holds.size()));
        const double p99 = percentile(holds, 0.99) / 1000;
        const double estimate = firstValue(prometheus.query(
            QStringLiteral("histogram_quantile(0.99, lockscope_lock_hold_seconds_bucket{%1})").arg(family)));
        // The observed p99 is the true one give or take the resolution, and that can put it in the
        // next bucket (a 0.455 s hold seen 50 ms late under the sanitizers counts as 0.5-1 s), where
        // histogram_quantile may answer anywhere: the buckets either side of the truth are allowed.
        const double lower = bucketOf(qMax(0.0, p99 - resolution)).first;
        const double upper = bucketOf(p99 + resolution).second;
        qInfo("%s: p99 hold %.3f s (buckets %.3f-%.3f), Prometheus says %.3f s; released %d, expired %d",
              qPrintable(name), p99, lower, upper, estimate, released, expired);
        QVERIFY2(estimate >= lower && estimate <= upper, qPrintable(name));

        const double headroom = firstValue(
            prometheus.query(QStringLiteral("lockscope_lock_lease_headroom_ratio{%1}").arg(family)));
        qInfo("%s: headroom %.2f", qPrintable(name), headroom);
        QCOMPARE(headroom > 0.8, name == QLatin1String("overrun:*"));
    }
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestPrometheusInsights)

} // namespace tst_prometheusinsights

#include "tst_prometheusinsights.moc"
