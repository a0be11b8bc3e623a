// SPDX-License-Identifier: Apache-2.0
// A real Prometheus scrapes `lockctl serve` on five real masters (#16): through Prometheus's HTTP
// API, a killed master's lockscope_master_up is 0 from the first scrape after the kill, a stuck
// lock shows in lockscope_locks{status="stuck"}, and the shipped stuck-lock alert fires (this
// test's own copy of the rules, with the `for:` durations shortened).
#include "support/lockctlrun.h"
#include "support/prometheusprocess.h"
#include "support/promtool.h"
#include "support/redisservergroup.h"
#include "support/serveprocess.h"
#include "support/testpaths.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QDateTime>
#include <QFile>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

namespace tst_prometheusscrape {

using namespace lockscope;
using namespace lockscope::test;

namespace {

constexpr int scrapeIntervalMs = 1000;

// The value of the first series of an instant query; NaN when there is none.
double firstValue(const QJsonArray& result)
{
    if (result.isEmpty())
        return std::numeric_limits<double>::quiet_NaN();
    return result.at(0).toObject().value(QStringLiteral("value")).toArray().at(1).toString().toDouble();
}

// The shipped rules with every `for:` cut to two seconds.
QByteArray rulesWithShortFor()
{
    QFile f(sourcePath(QStringLiteral("resources/prometheus/lockscope-alerts.yml")));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QString text = QString::fromUtf8(f.readAll());
    text.replace(QRegularExpression(QStringLiteral(R"(for: \d+[smh])")), QStringLiteral("for: 2s"));
    return text.toUtf8();
}

} // namespace

class TestPrometheusScrape : public QObject
{
    Q_OBJECT

private slots:
    void prometheusSeesMastersLocksAndAlerts();
};

void TestPrometheusScrape::prometheusSeesMastersLocksAndAlerts()
{
    if (prometheusPath().isEmpty())
        QSKIP("prometheus (Debian package prometheus) is not installed");
    RedisServerGroup group;
    QVERIFY2(group.start(5), qPrintable(group.errorString()));
    for (int i = 0; i < 5; ++i)
        QVERIFY(group.at(i)
                    .command({"SET", "lock:held", "0123456789abcdef0123456789abcdef", "PX", "600000"})
                    .isStatus());

    QStringList args = testPasswordArgs();
    for (const QString& url : group.urls(false))
        args << QStringLiteral("-m") << url;
    ServeProcess serve;
    QVERIFY2(serve.start(args << QStringLiteral("serve")), qPrintable(serve.errorString()));

    const QByteArray rules = rulesWithShortFor();
    QVERIFY(rules.contains("alert: LockScopeLockStuck") && rules.contains("for: 2s") &&
            !rules.contains("for: 5m"));
    PrometheusProcess prometheus;
    QVERIFY2(prometheus.start(QStringLiteral("127.0.0.1:%1").arg(serve.port()), rules, scrapeIntervalMs),
             qPrintable(prometheus.errorString()));
    const int settle = int(upperBoundMs(30000));
    QTRY_COMPARE_WITH_TIMEOUT(firstValue(prometheus.query(QStringLiteral("up{job=\"lockscope\"}"))), 1.0,
                              settle);
    QTRY_COMPARE_WITH_TIMEOUT(firstValue(prometheus.query(QStringLiteral("sum(lockscope_master_up)"))), 5.0,
                              settle);
    QTRY_COMPARE_WITH_TIMEOUT(
        firstValue(prometheus.query(QStringLiteral("lockscope_locks{status=\"held\"}"))), 1.0, settle);

    // A stuck lock: on a quorum of masters, without expiry.
    for (int i = 0; i < 3; ++i)
        QVERIFY(group.at(i).command({"SET", "lock:stuck", "00112233445566778899aabbccddeeff"}).isStatus());
    QTRY_COMPARE_WITH_TIMEOUT(
        firstValue(prometheus.query(QStringLiteral("lockscope_locks{status=\"stuck\"}"))), 1.0, settle);
    const auto stuckAlert = [&prometheus]() -> QString {
        for (const QJsonValue& a : prometheus.alerts()) {
            const QJsonObject alert = a.toObject();
            const QJsonObject labels = alert.value(QStringLiteral("labels")).toObject();
            if (labels.value(QStringLiteral("alertname")).toString() ==
                    QStringLiteral("LockScopeLockStuck") &&
                labels.value(QStringLiteral("resource")).toString() == QStringLiteral("lock:stuck"))
                return alert.value(QStringLiteral("state")).toString() + QLatin1Char(' ') +
                       alert.value(QStringLiteral("annotations"))
                           .toObject()
                           .value(QStringLiteral("summary"))
                           .toString();
        }
        return {};
    };
    QTRY_COMPARE_WITH_TIMEOUT(stuckAlert(), QStringLiteral("firing Lock lock:stuck is stuck"), settle);

    // A master killed: the first scrape after the kill already says 0.
    const QString killedUp =
        QStringLiteral("lockscope_master_up{master=\"%1\"}").arg(group.urls(false).at(4));
    QCOMPARE(firstValue(prometheus.query(killedUp)), 1.0);
    const double killedAt = double(QDateTime::currentMSecsSinceEpoch()) / 1000;
    group.at(4).stop();
    QTRY_COMPARE_WITH_TIMEOUT(firstValue(prometheus.query(killedUp)), 0.0, settle);
    // Each sample's time is its scrape's start: the first 0 came at most one interval after the kill
    // (plus what a loaded machine adds to lockctl noticing the closed socket).
    double firstZero = -1;
    double lastOne = -1;
    for (const QJsonValue& s : prometheus.samples(killedUp, 60)) {
        const double t = s.toArray().at(0).toDouble();
        const double v = s.toArray().at(1).toString().toDouble();
        if (v == 1)
            lastOne = t;
        else if (firstZero < 0)
            firstZero = t;
    }
    QVERIFY(firstZero > 0);
    const double delay = firstZero - killedAt;
    qInfo("master killed at %.3f; last scrape saying up at %.3f, first saying down at %.3f (%.0f ms after "
          "the kill)",
          killedAt, lastOne, firstZero, delay * 1000);
    QVERIFY2(delay <= double(scrapeIntervalMs + upperBoundMs(250)) / 1000,
             qPrintable(
                 QStringLiteral("the first scrape saying down came %1 ms after the kill").arg(delay * 1000)));
    // The service lives on, and Prometheus still scrapes it.
    QVERIFY(serve.isRunning());
    QCOMPARE(firstValue(prometheus.query(QStringLiteral("up{job=\"lockscope\"}"))), 1.0);
    QCOMPARE(serve.stop(int(upperBoundMs(10000))), 0);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestPrometheusScrape)

} // namespace tst_prometheusscrape

#include "tst_prometheusscrape.moc"
