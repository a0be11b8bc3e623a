// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/doublegrantdetector.h"
#include "support/testregistry.h"

#include <QTest>

#include <bit>

namespace tst_doublegrantdetector {

using namespace lockscope;

namespace {

using Kind = RecordEvent::Kind;

HistoryEvent resourceEvent(qint64 ms, Kind kind, const QByteArray& token, quint64 holders = 0, qint64 ttlMs = -1)
{
    HistoryEvent h;
    h.session = 1;
    h.event.timeMs = ms;
    h.event.kind = kind;
    h.event.resource = "r";
    h.event.token = token;
    h.event.holders = holders;
    h.event.holding = std::popcount(holders);
    h.event.ttlMs = ttlMs;
    return h;
}

HistoryEvent masterEvent(qint64 ms, Kind kind, int master, const QString& detail)
{
    HistoryEvent h;
    h.session = 1;
    h.event.timeMs = ms;
    h.event.kind = kind;
    h.event.master = master;
    h.event.detail = detail;
    return h;
}

ResourceHistory history(int masters, const QList<HistoryEvent>& events)
{
    ResourceHistory h;
    h.resource = "r";
    RecordingSession s;
    s.id = 1;
    for (int i = 0; i < masters; ++i)
        s.masters << QStringLiteral("redis://127.0.0.1:%1").arg(7000 + i);
    h.sessions = {s};
    h.events = events;
    return h;
}

} // namespace

// Issue #42, against hand-made records of the demo's cases and of handovers that are no double grant.
class TestDoubleGrantDetector : public QObject
{
    Q_OBJECT

private slots:
    void restartDuringAHoldIsAMajorityOverlap();
    void failoverOfAPrimaryIsAFailoverLoss();
    void handoversThatAreNoDoubleGrant();
};

void TestDoubleGrantDetector::restartDuringAHoldIsAMajorityOverlap()
{
    // A on M1-M3 (M4, M5 down); M3 restarts empty; B gets M3-M5 while A's validity runs.
    const QList<SafetyIncident> found = DoubleGrantDetector::detect(history(
        5, {resourceEvent(1000, Kind::Acquired, "A", 0b00111, 29000),
            masterEvent(3000, Kind::MasterRestarted, 2, QStringLiteral("run_id a1 → 9c")),
            resourceEvent(3100, Kind::Holders, "A", 0b00011), resourceEvent(3100, Kind::AtRisk, "A", 0b00011),
            resourceEvent(8000, Kind::Contested, "B", 0b11100, 9000),
            resourceEvent(20000, Kind::Released, "B"), resourceEvent(26000, Kind::Released, "A")}));
    QCOMPARE(found.size(), 1);
    const SafetyIncident& i = found.first();
    QCOMPARE(i.kind, SafetyIncident::Kind::MajorityOverlap);
    QCOMPARE(i.confidence, SafetyIncident::Confidence::Proven);
    QCOMPARE(i.firstToken, QByteArray("A"));
    QCOMPARE(i.secondToken, QByteArray("B"));
    QCOMPARE(i.fromMs, 8000);
    QCOMPARE(i.toMs, 30000);
    QVERIFY2(i.cause.contains(QLatin1String("M3")) && i.cause.contains(QLatin1String("restarted")), qPrintable(i.cause));
    QVERIFY(i.evidence.size() >= 3);
}

void TestDoubleGrantDetector::failoverOfAPrimaryIsAFailoverLoss()
{
    // One master (a Sentinel group's): A's write never reached the replica that was promoted.
    const QList<SafetyIncident> found = DoubleGrantDetector::detect(
        history(1, {resourceEvent(1000, Kind::Acquired, "A", 0b1, 10000),
                    masterEvent(3000, Kind::Failover, 0, QStringLiteral("10.0.0.1:6379 → 10.0.0.2:6379")),
                    resourceEvent(3500, Kind::Lost, "A"), resourceEvent(5000, Kind::Acquired, "B", 0b1, 10000)}));
    QCOMPARE(found.size(), 1);
    QCOMPARE(found.first().kind, SafetyIncident::Kind::FailoverLoss);
    QCOMPARE(found.first().fromMs, 5000);
    QCOMPARE(found.first().toMs, 11000);
    QVERIFY(found.first().cause.contains(QLatin1String("failover")));
}

void TestDoubleGrantDetector::handoversThatAreNoDoubleGrant()
{
    struct Case
    {
        const char* name;
        int masters;
        QList<HistoryEvent> events;
    };
    const QList<Case> cases{
        {"released, then taken", 5,
         {resourceEvent(1000, Kind::Acquired, "A", 0b11111, 10000), resourceEvent(2000, Kind::Released, "A"),
          resourceEvent(2001, Kind::Acquired, "B", 0b11111, 10000)}},
        {"a killed holder's lease ran out", 5,
         {resourceEvent(1000, Kind::Acquired, "A", 0b11111, 9900), resourceEvent(11000, Kind::Expired, "A"),
          resourceEvent(11050, Kind::Acquired, "B", 0b11111, 10000)}},
        {"the drift allowance: validity over before the keys expired", 5,
         {resourceEvent(1000, Kind::Acquired, "A", 0b00111, 1978), resourceEvent(3000, Kind::Expired, "A"),
          resourceEvent(3010, Kind::Acquired, "B", 0b00111, 2000)}},
        {"a minority lost, nobody else on a quorum", 5,
         {resourceEvent(1000, Kind::Acquired, "A", 0b00111, 29000),
          masterEvent(3000, Kind::MasterRestarted, 2, QStringLiteral("run_id")),
          resourceEvent(3100, Kind::Holders, "A", 0b00011), resourceEvent(5000, Kind::Contested, "B", 0b11000, 9000)}},
        {"contested, neither on a quorum", 5,
         {resourceEvent(1000, Kind::Acquired, "A", 0b00011, 9000),
          resourceEvent(1000, Kind::Contested, "B", 0b01100, 9000)}},
        {"a force-release, then taken", 3,
         {resourceEvent(1000, Kind::Acquired, "A", 0b111, 60000), resourceEvent(2000, Kind::ForceReleased, "A"),
          resourceEvent(2500, Kind::Acquired, "B", 0b111, 60000)}},
        {"one master, expired then taken", 1,
         {resourceEvent(1000, Kind::Acquired, "A", 0b1, 1000), resourceEvent(2100, Kind::Expired, "A"),
          resourceEvent(2200, Kind::Acquired, "B", 0b1, 1000)}},
    };
    for (const Case& c : cases) {
        const QList<SafetyIncident> found = DoubleGrantDetector::detect(history(c.masters, c.events));
        QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("%1: %2").arg(QString::fromLatin1(c.name),
                                                                          found.isEmpty() ? QString()
                                                                                          : found.first().cause)));
    }
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestDoubleGrantDetector)

} // namespace tst_doublegrantdetector

#include "tst_doublegrantdetector.moc"
