// SPDX-License-Identifier: Apache-2.0
#include "base/bytesdisplay.h"
#include "metrics/metricsrenderer.h"
#include "metrics/metricstext.h"
#include "metrics/webconfig.h"
#include "support/promtool.h"
#include "support/testregistry.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace tst_metricsrenderer {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// A lock held on `holding` of `total` masters; `pttlMs` -1 for no expiry.
LockView lockView(const QByteArray& resource, LockStatus status, qint64 validityMs, int holding = 3,
                  int total = 5, qint64 pttlMs = 10000)
{
    LockView v;
    v.resource = resource;
    v.status = status;
    v.format = LockFormat::HexToken;
    v.token = "0123456789abcdef0123456789abcdef";
    v.holding = holding;
    v.total = total;
    v.needed = total / 2 + 1;
    v.validityMs = validityMs;
    v.computedAtMs = 1000;
    KeyObservation key;
    key.present = true;
    key.type = "string";
    key.value = v.token;
    key.pttlMs = pttlMs;
    for (int i = 0; i < total; ++i) {
        v.observations << (i < holding ? MasterObservation(key, RecognizedLock()) : MasterObservation());
        if (i < holding)
            v.holders << i;
    }
    return v;
}

MetricsInput inputFor(const LockTable* locks, int maxSeries = 1000)
{
    MetricsInput in;
    MasterSample up;
    up.name = QStringLiteral("redis://127.0.0.1:7001");
    up.up = true;
    up.health.latencyMs = 0.25;
    up.health.version = QStringLiteral("7.0.15");
    up.health.role = QStringLiteral("master");
    up.health.runId = "a\"b\\c\nd";
    up.health.clockOffsetKnown = true;
    up.health.clockOffsetMs = -3;
    up.mode = NotificationMode::Live;
    up.scanSeconds = 0.5;
    up.restarts = 2;
    MasterSample down;
    down.name = QStringLiteral("redis://127.0.0.1:7002");
    in.masters << up << down;
    in.locks = locks;
    in.ageSeconds = [](const LockView& v) { return v.resource.endsWith("old") ? 3600.0 : 5.0; };
    in.nowMs = 1000;
    in.maxLockSeries = maxSeries;
    in.acquisitions = 7;
    in.version = QStringLiteral("0.1.0");
    in.qtVersion = QStringLiteral("6.4.2");
    return in;
}

// The samples (not comments) of `text` whose line starts with `prefix`.
QStringList samples(const QByteArray& text, const QString& prefix)
{
    QStringList out;
    for (const QByteArray& line : text.split('\n'))
        if (!line.startsWith('#') && QString::fromUtf8(line).startsWith(prefix))
            out << QString::fromUtf8(line);
    return out;
}

} // namespace

class TestMetricsRenderer : public QObject
{
    Q_OBJECT

private slots:
    void escapesLabelValues_data();
    void escapesLabelValues();
    void formatsValues();
    void countsLocksPerStatusAndDescribesMasters();
    void binaryResourcesGiveValidOutput();
    void capsLockSeriesWorstFirst_data();
    void capsLockSeriesWorstFirst();
    void waitersOnlyWhereKnownForLocksWithSeries();
    void familyNamesAreEveryTypeLine();
    void safetyIncidentsOnlyWithARecording();
    void promtoolAcceptsThePage();
    void webConfigReadsPrometheusShape();
    void webConfigRefusesWhatItDoesNotKnow_data();
    void webConfigRefusesWhatItDoesNotKnow();
    void webConfigChecksBcryptPasswords();
    void webConfigUnknownUserCostsTheSlowestHash();
};

void TestMetricsRenderer::escapesLabelValues_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QByteArray>("escaped");
    QTest::newRow("plain") << QStringLiteral("lock:a") << QByteArray("lock:a");
    QTest::newRow("quote") << QStringLiteral("a\"b") << QByteArray("a\\\"b");
    QTest::newRow("backslash") << QStringLiteral("a\\b") << QByteArray("a\\\\b");
    QTest::newRow("newline") << QStringLiteral("a\nb") << QByteArray("a\\nb");
    QTest::newRow("utf-8") << QStringLiteral("verrou-é") << QByteArray("verrou-\xc3\xa9");
}

void TestMetricsRenderer::escapesLabelValues()
{
    QFETCH(QString, value);
    QFETCH(QByteArray, escaped);
    QCOMPARE(MetricsText::escapeLabelValue(value), escaped);
}

void TestMetricsRenderer::formatsValues()
{
    QCOMPARE(MetricsText::formatValue(3), QByteArray("3"));
    QCOMPARE(MetricsText::formatValue(0.0021783), QByteArray("0.0021783"));
    QCOMPARE(MetricsText::formatValue(-0.003), QByteArray("-0.003"));
    QCOMPARE(MetricsText::formatValue(std::numeric_limits<double>::infinity()), QByteArray("+Inf"));
    QCOMPARE(MetricsText::formatValue(std::numeric_limits<double>::quiet_NaN()), QByteArray("NaN"));
}

void TestMetricsRenderer::countsLocksPerStatusAndDescribesMasters()
{
    LockTable locks;
    for (const LockView& v :
         {lockView("lock:a", LockStatus::Held, 9000), lockView("lock:b", LockStatus::Held, 100),
          lockView("lock:c", LockStatus::Stuck, -1, 3, 5, -1),
          lockView("lock:d", LockStatus::Contested, 500)})
        locks.insert(v.resource, SharedLockView(v));
    const QByteArray text = MetricsRenderer::render(inputFor(&locks));
    QVERIFY2(text.contains("lockscope_locks{status=\"held\"} 2\n"), text.constData());
    QVERIFY(text.contains("lockscope_locks{status=\"stuck\"} 1\n"));
    QVERIFY(text.contains("lockscope_locks{status=\"contested\"} 1\n"));
    QVERIFY(text.contains("lockscope_locks{status=\"partial\"} 0\n"));
    QVERIFY(text.contains("lockscope_locks{status=\"unknown\"} 0\n"));
    QVERIFY(text.contains("lockscope_master_up{master=\"redis://127.0.0.1:7001\"} 1\n"));
    QVERIFY(text.contains("lockscope_master_up{master=\"redis://127.0.0.1:7002\"} 0\n"));
    QVERIFY(text.contains("lockscope_master_latency_seconds{master=\"redis://127.0.0.1:7001\"} 0.00025\n"));
    // Unknown for a master never reached: no sample rather than a made-up zero.
    QCOMPARE(samples(text, QStringLiteral("lockscope_master_latency_seconds")).size(), 1);
    QVERIFY(
        text.contains("lockscope_master_clock_offset_seconds{master=\"redis://127.0.0.1:7001\"} -0.003\n"));
    QVERIFY(text.contains("lockscope_master_notifications{master=\"redis://127.0.0.1:7001\"} 1\n"));
    QVERIFY(text.contains("lockscope_master_restarts_total{master=\"redis://127.0.0.1:7001\"} 2\n"));
    // A server-chosen run_id is data: escaped, then quoted.
    QVERIFY(text.contains("run_id=\"a\\\"b\\\\\\\\c\\\\x0ad\""));
    QVERIFY(text.contains(
        "lockscope_lock_ttl_seconds{resource=\"lock:a\",format=\"hex-token\",status=\"held\"} 9\n"));
    QVERIFY(text.contains(
        "lockscope_lock_no_expiry{resource=\"lock:c\",format=\"hex-token\",status=\"stuck\"} 1\n"));
    QVERIFY(text.contains(
        "lockscope_lock_quorum_holding{resource=\"lock:a\",format=\"hex-token\",status=\"held\"} 3\n"));
    QVERIFY(text.contains(
        "lockscope_lock_quorum_needed{resource=\"lock:a\",format=\"hex-token\",status=\"held\"} 3\n"));
    QVERIFY(text.contains(
        "lockscope_lock_age_seconds{resource=\"lock:a\",format=\"hex-token\",status=\"held\"} 5\n"));
    // A lock without expiry has no TTL series (Prometheus has no "infinite" to show).
    QVERIFY(!text.contains("lockscope_lock_ttl_seconds{resource=\"lock:c\""));
    QVERIFY(text.contains("lockscope_lock_acquisitions_observed_total 7\n"));
    QVERIFY(text.contains("lockscope_lock_series_dropped 0\n"));
    QVERIFY(text.contains("lockscope_build_info{version=\"0.1.0\",qt_version=\"6.4.2\"} 1\n"));
    // No timestamps: every sample is `name[{labels}] value`.
    static const QRegularExpression sample(QStringLiteral(R"(^[a-z_]+(\{.*\})? [-+0-9.eEInfNa]+$)"));
    for (const QByteArray& line : text.split('\n'))
        if (!line.isEmpty() && !line.startsWith('#'))
            QVERIFY2(sample.match(QString::fromUtf8(line)).hasMatch(), line.constData());
}

void TestMetricsRenderer::binaryResourcesGiveValidOutput()
{
    LockTable locks;
    const QByteArray hostile("lock:\xff\xfe\"}\n\\x\x1b[2J\xe2\x80\xae", 18);
    locks.insert(hostile, SharedLockView(lockView(hostile, LockStatus::Held, 1000)));
    const QByteArray text = MetricsRenderer::render(inputFor(&locks));
    // Valid UTF-8 throughout, one line per sample, and the resource as escapeBytes shows it.
    QVERIFY(QString::fromUtf8(text).toUtf8() == text);
    QVERIFY(!text.contains('\x1b'));
    const QByteArray label = "resource=\"" + MetricsText::escapeLabelValue(escapeBytes(hostile)) + '"';
    QVERIFY2(text.contains(label), label.constData());
    QVERIFY(label.startsWith("resource=\"lock:\\\\xff\\\\xfe\\\"}\\\\x0a\\\\\\\\x\\\\x1b[2J"));
    if (promtoolPath().isEmpty())
        QSKIP("promtool (Debian package prometheus) is not installed");
    const PromtoolRun run = runPromtool({QStringLiteral("check"), QStringLiteral("metrics")}, text);
    QVERIFY2(run.code == 0, run.output.constData());
}

void TestMetricsRenderer::capsLockSeriesWorstFirst_data()
{
    QTest::addColumn<bool>("oldestFirst");
    QTest::newRow("ages looked up") << false;
    QTest::newRow("held locks in age order") << true;
}

void TestMetricsRenderer::capsLockSeriesWorstFirst()
{
    QFETCH(bool, oldestFirst);
    LockTable locks;
    QByteArrayList byAge{"lock:held-old"}; // oldest first, as LockActivity keeps them
    for (int i = 0; i < 10; ++i) {
        const QByteArray r = "lock:held" + QByteArray::number(i);
        locks.insert(r, SharedLockView(lockView(r, LockStatus::Held, 1000)));
        byAge << r;
    }
    locks.insert("lock:held-old", SharedLockView(lockView("lock:held-old", LockStatus::Held, 1000)));
    locks.insert("lock:stuck", SharedLockView(lockView("lock:stuck", LockStatus::Stuck, -1, 3, 5, -1)));
    locks.insert("lock:contested", SharedLockView(lockView("lock:contested", LockStatus::Contested, 1000)));
    byAge << "lock:contested"
          << "lock:stuck"
          << "lock:gone";
    const auto render = [&](int maxSeries) {
        MetricsInput in = inputFor(&locks, maxSeries);
        if (oldestFirst)
            in.oldestFirst = [&byAge](const std::function<bool(const QByteArray&)>& visit) {
                for (const QByteArray& r : byAge)
                    if (!visit(r))
                        return;
            };
        return MetricsRenderer::render(in);
    };
    const QByteArray text = render(3);
    QVERIFY(text.contains("lockscope_lock_series_dropped 10\n"));
    QVERIFY(text.contains("lockscope_lock_series_limit 3\n"));
    const QStringList held = samples(text, QStringLiteral("lockscope_lock_quorum_holding{"));
    QCOMPARE(held.size(), 3);
    // Stuck, then contested, then the oldest held lock; each family has the same three.
    QVERIFY(held.at(0).contains(QStringLiteral("lock:contested")));
    QVERIFY(held.at(1).contains(QStringLiteral("lock:held-old")));
    QVERIFY(held.at(2).contains(QStringLiteral("lock:stuck")));
    QCOMPARE(samples(text, QStringLiteral("lockscope_lock_age_seconds{")).size(), 3);
    // The status counts still see every lock.
    QVERIFY(text.contains("lockscope_locks{status=\"held\"} 11\n"));
    QVERIFY(render(0).contains("lockscope_lock_series_dropped 13\n"));
    QVERIFY(render(1).contains("lockscope_lock_series_dropped 12\n"));
    QCOMPARE(samples(render(1), QStringLiteral("lockscope_lock_quorum_holding{")).size(), 1);
    QVERIFY(render(13).contains("lockscope_lock_series_dropped 0\n"));
    QVERIFY(render(100).contains("lockscope_lock_series_dropped 0\n"));
    QCOMPARE(samples(render(100), QStringLiteral("lockscope_lock_quorum_holding{")).size(), 13);
}

void TestMetricsRenderer::waitersOnlyWhereKnownForLocksWithSeries()
{
    LockTable locks;
    locks.insert("lock:stuck", SharedLockView(lockView("lock:stuck", LockStatus::Stuck, -1, 3, 5, -1)));
    locks.insert("lock:redisson", SharedLockView(lockView("lock:redisson", LockStatus::Contested, 1000)));
    locks.insert("lock:held", SharedLockView(lockView("lock:held", LockStatus::Held, 1000)));
    MetricsInput in = inputFor(&locks, 2);
    QByteArrayList asked;
    in.waiters = [&asked](const LockView& v) {
        asked << v.resource;
        return v.resource == "lock:redisson" ? 4.0 : v.resource == "lock:held" ? 9.0 : -1.0;
    };
    const QByteArray text = MetricsRenderer::render(in);
    // Unknown (-1): no sample; the held lock has no series, so it is not even asked.
    QCOMPARE(samples(text, QStringLiteral("lockscope_lock_waiters{")),
             QStringList{QStringLiteral("lockscope_lock_waiters{resource=\"lock:redisson\",format=\"hex-"
                                        "token\",status=\"contested\"} 4")});
    std::sort(asked.begin(), asked.end());
    QCOMPARE(asked, (QByteArrayList{"lock:redisson", "lock:stuck"}));
}

void TestMetricsRenderer::familyNamesAreEveryTypeLine()
{
    LockTable locks;
    locks.insert("lock:a", SharedLockView(lockView("lock:a", LockStatus::Held, 1000)));
    MetricsInput in = inputFor(&locks);
    in.lastScrapeSeconds = 0.01;
    in.incidentsWatched = true; // every family, the recording's too
    QByteArrayList typed;
    for (const QByteArray& line : QByteArray(MetricsRenderer::render(in) + MetricsRenderer::httpGuard({}) +
                                             MetricsRenderer::pageAge(0.5))
                                      .split('\n'))
        if (line.startsWith("# TYPE "))
            typed << line.split(' ').at(2);
    QCOMPARE(typed, MetricsRenderer::familyNames());
}

void TestMetricsRenderer::safetyIncidentsOnlyWithARecording()
{
    LockTable locks;
    MetricsInput in = inputFor(&locks);
    // Without --record nothing is judged: no family at all, not a zero that would read "safe".
    QVERIFY(!MetricsRenderer::render(in).contains("lockscope_lock_safety_incidents_total"));
    in.incidentsWatched = true;
    in.incidents[{int(SafetyIncident::Kind::FailoverLoss), int(SafetyIncident::Confidence::Proven)}] = 3;
    const QStringList lines =
        samples(MetricsRenderer::render(in), QStringLiteral("lockscope_lock_safety_incidents_total{"));
    // Every kind at every confidence, zeros too (an alert on increase() needs the series first).
    QCOMPARE(lines.size(), int(allSafetyIncidentKinds().size()) * 3);
    QVERIFY(lines.contains(QStringLiteral(
        "lockscope_lock_safety_incidents_total{kind=\"failover-loss\",confidence=\"proven\"} 3")));
    QVERIFY(lines.contains(QStringLiteral(
        "lockscope_lock_safety_incidents_total{kind=\"majority-overlap\",confidence=\"proven\"} 0")));
}

void TestMetricsRenderer::promtoolAcceptsThePage()
{
    if (promtoolPath().isEmpty())
        QSKIP("promtool (Debian package prometheus) is not installed");
    LockTable locks;
    for (const LockView& v :
         {lockView("lock:a", LockStatus::Held, 9000), lockView("lock:c", LockStatus::Stuck, -1, 3, 5, -1)})
        locks.insert(v.resource, SharedLockView(v));
    MetricsInput in = inputFor(&locks);
    in.lastScrapeSeconds = 0.01;
    in.incidentsWatched = true;
    in.incidents[{int(SafetyIncident::Kind::MajorityOverlap), int(SafetyIncident::Confidence::Proven)}] = 2;
    HttpGuardCounts guard;
    guard.refused[HttpGuardCounts::RequestTimeout] = 3;
    guard.open = 2;
    guard.passwordChecksThrottled = 7;
    const PromtoolRun run = runPromtool({QStringLiteral("check"), QStringLiteral("metrics")},
                                        MetricsRenderer::render(in) + MetricsRenderer::httpGuard(guard) +
                                            MetricsRenderer::pageAge(0));
    QVERIFY2(run.code == 0, run.output.constData());
    QVERIFY2(run.output.trimmed().isEmpty(), run.output.constData()); // no lint warnings either
}

void TestMetricsRenderer::webConfigReadsPrometheusShape()
{
    QByteArray apache = bcryptHash("one", 4);
    apache[2] = 'y'; // htpasswd -B writes $2y$
    const auto config = WebConfig::parse("# Prometheus's web config shape\n"
                                         "tls_server_config:\n"
                                         "  cert_file: server.crt\n"
                                         "  key_file: \"/etc/lockscope/server.key\"\n"
                                         "basic_auth_users:\n"
                                         "  prometheus: '" +
                                             apache +
                                             "'  \n"
                                             "  grafana: " +
                                             bcryptHash("two", 4) + " # comment\n",
                                         QStringLiteral("/etc/lockscope"));
    QVERIFY2(config.ok(), config ? "" : qPrintable(config.error().message));
    QVERIFY(config->tls());
    QCOMPARE(config->certFile(), QStringLiteral("/etc/lockscope/server.crt"));
    QCOMPARE(config->keyFile(), QStringLiteral("/etc/lockscope/server.key"));
    QVERIFY(config->requiresAuth());
    QStringList users = config->users();
    users.sort();
    QCOMPARE(users, (QStringList{QStringLiteral("grafana"), QStringLiteral("prometheus")}));
    const auto empty = WebConfig::parse("");
    QVERIFY(empty.ok());
    QVERIFY(!empty->tls());
    QVERIFY(!empty->requiresAuth());
}

void TestMetricsRenderer::webConfigRefusesWhatItDoesNotKnow_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("says");
    QTest::newRow("unknown section") << QByteArray("http_server_config:\n  http2: false\n")
                                     << QStringLiteral("http_server_config");
    QTest::newRow("unknown tls key") << QByteArray("tls_server_config:\n  client_ca_file: ca.crt\n")
                                     << QStringLiteral("client_ca_file");
    QTest::newRow("clear-text password")
        << QByteArray("basic_auth_users:\n  alice: secret\n") << QStringLiteral("bcrypt");
    // A hash cut short (or mangled) would lock its user out for good: an error at start instead.
    QTest::newRow("truncated hash") << QByteArray(
                                           "basic_auth_users:\n  alice: $2y$10$abcdefghijklmnopqrstuv\n")
                                    << QStringLiteral("not a valid bcrypt hash");
    QTest::newRow("mangled hash") << QByteArray("basic_auth_users:\n  alice: " +
                                                bcryptHash("x", 4).replace(7, 1, "*") + '\n')
                                  << QStringLiteral("'alice' is not a valid bcrypt hash");
    QTest::newRow("cert without key")
        << QByteArray("tls_server_config:\n  cert_file: a.crt\n") << QStringLiteral("both");
    QTest::newRow("not a mapping") << QByteArray("basic_auth_users: alice\n") << QStringLiteral("mapping");
}

void TestMetricsRenderer::webConfigRefusesWhatItDoesNotKnow()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, says);
    const auto config = WebConfig::parse(text);
    QVERIFY(!config.ok());
    QVERIFY2(config.error().message.contains(says), qPrintable(config.error().message));
    // A refused password is never repeated in the message.
    QVERIFY(!config.error().message.contains(QStringLiteral("secret")));
}

void TestMetricsRenderer::webConfigChecksBcryptPasswords()
{
    const QByteArray hash = bcryptHash("correct horse", 4);
    QVERIFY2(hash.startsWith("$2b$04$"), hash.constData());
    const auto config = WebConfig::parse("basic_auth_users:\n  prometheus: " + hash + '\n');
    QVERIFY(config.ok());
    const auto basic = [](const QByteArray& credentials) -> QByteArray {
        return "Basic " + credentials.toBase64();
    };
    QVERIFY(config->authorize(basic("prometheus:correct horse")));
    QVERIFY(config->authorize(basic("prometheus:correct horse"))); // remembered
    QVERIFY(!config->authorize(basic("prometheus:wrong")));
    QVERIFY(!config->authorize(basic("nobody:correct horse")));
    QVERIFY(!config->authorize(basic("prometheus")));
    QVERIFY(!config->authorize("Bearer abc"));
    QVERIFY(!config->authorize("Basic !!!"));
    // Apache's $2y$ (htpasswd -B) is the same algorithm.
    QByteArray apache = hash;
    apache[2] = 'y';
    const auto y = WebConfig::parse("basic_auth_users:\n  p: " + apache + '\n');
    QVERIFY(y.ok());
    QVERIFY(y->authorize(basic("p:correct horse")));
}

// An unknown user is checked against a hash of the slowest configured cost, so that the time of a
// wrong answer does not tell which names exist. It used to be a fixed cost of 10: an unknown user
// took 16 times as long as a wrong password for a user with a cost-6 hash. bcrypt's time is set by
// its cost (2^cost rounds), so the cost is what is checked: a stopwatch here failed on a loaded
// machine (the fastest of five wrong passwords took 3.3 times the unknown user's).
void TestMetricsRenderer::webConfigUnknownUserCostsTheSlowestHash()
{
    const auto mixed = WebConfig::parse("basic_auth_users:\n  fast: " + bcryptHash("a", 4) + "\n  slow: " +
                                        bcryptHash("b", 6) + "\n  mid: " + bcryptHash("c", 5) + '\n');
    QVERIFY(mixed.ok());
    QCOMPARE(mixed->unknownUserCost(), 6);
    const auto single = WebConfig::parse("basic_auth_users:\n  only: " + bcryptHash("a", 4) + '\n');
    QVERIFY(single.ok());
    QCOMPARE(single->unknownUserCost(), 4);
    QVERIFY(!single->authorize("Basic " + QByteArray("nobody:a").toBase64()));
    QVERIFY(!single->authorize("Basic " + QByteArray("nobody:no such user").toBase64()));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestMetricsRenderer)

} // namespace tst_metricsrenderer

#include "tst_metricsrenderer.moc"
