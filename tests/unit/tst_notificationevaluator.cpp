// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/notificationevaluator.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_notificationevaluator {

using namespace lockscope;

namespace {

const QList<Diagnosis> stuck{Diagnosis{DiagnosisCode::NoExpiry, QStringLiteral("Stuck: no TTL")}};
const QList<Diagnosis> contested{Diagnosis{DiagnosisCode::Contested, QStringLiteral("Contested: a, b")},
                                 Diagnosis{DiagnosisCode::Waiters, QStringLiteral("Waiters: 2")}};

} // namespace

class TestNotificationEvaluator : public QObject
{
    Q_OBJECT

private slots:
    void firesOncePerLockPerRuleUntilItClears();
    void aBlipDoesNotNotifyAgain();
    void waitsForTheRulesDelay();
    void disabledRuleNeverFires();
    void masterDownIsEdgeTriggered();
    void namesRoundTrip();
};

void TestNotificationEvaluator::firesOncePerLockPerRuleUntilItClears()
{
    NotificationEvaluator e;
    NotificationRules rules;
    rules.rule(NotificationRule::Stuck).afterMs = 0;
    rules.rule(NotificationRule::Contested).afterMs = 0;
    e.setRules(rules);
    QList<NotificationEvent> fired = e.evaluateLock("a", stuck, 0);
    QCOMPARE(fired.size(), 1);
    QCOMPARE(fired.at(0).rule, NotificationRule::Stuck);
    QCOMPARE(fired.at(0).body, QStringLiteral("Stuck: no TTL"));
    QCOMPARE(fired.at(0).title, QStringLiteral("Lock stuck: a"));
    QVERIFY(e.evaluateLock("a", stuck, 100).isEmpty());
    QVERIFY(e.tick(10'000).isEmpty());
    // Another lock, the same rule: its own notification.
    QCOMPARE(e.evaluateLock("b", stuck, 200).size(), 1);
    // Another rule on the same lock (the waiters are no rule): one more.
    fired = e.evaluateLock("a", contested, 300);
    QCOMPARE(fired.size(), 1);
    QCOMPARE(fired.at(0).rule, NotificationRule::Contested);
    // "stuck" cleared on a (contested has no stuck): it fires again when it holds again, once
    // the re-arm period is over...
    e.lockGone("a", 400);
    QCOMPARE(e.evaluateLock("a", stuck, 300 + NotificationEvaluator::rearmMs).size(), 1);
    // ... or at once for another holder.
    QVERIFY(e.evaluateLock("c", stuck, 100'000, "t1").size() == 1);
    e.lockGone("c", 101'000);
    QCOMPARE(e.evaluateLock("c", stuck, 102'000, "t2").size(), 1);
}

void TestNotificationEvaluator::aBlipDoesNotNotifyAgain()
{
    // Issue #41: the same stuck lock was notified again after a 3 s master blip (read unknown,
    // then stuck again).
    NotificationEvaluator e;
    NotificationRules rules;
    rules.rule(NotificationRule::Stuck).afterMs = 10'000;
    e.setRules(rules);
    QVERIFY(e.evaluateLock("a", stuck, 0).isEmpty());
    QCOMPARE(e.tick(10'000).size(), 1);
    QVERIFY(e.evaluateLock("a", {}, 20'000).isEmpty()); // the master blips: unknown, no diagnosis
    QVERIFY(e.evaluateLock("a", stuck, 23'000).isEmpty());
    QVERIFY(e.tick(40'000).isEmpty());
    e.lockGone("a", 50'000); // unreadable for a moment
    QVERIFY(e.evaluateLock("a", stuck, 52'000).isEmpty());
    QVERIFY(e.tick(70'000).isEmpty());
    // Cleared for longer than the re-arm period: news again, after the rule's delay.
    QVERIFY(e.evaluateLock("a", {}, 80'000).isEmpty());
    QVERIFY(e.tick(80'000 + NotificationEvaluator::rearmMs).isEmpty());
    QVERIFY(e.evaluateLock("a", stuck, 80'000 + NotificationEvaluator::rearmMs).isEmpty());
    QCOMPARE(e.tick(90'000 + NotificationEvaluator::rearmMs).size(), 1);
    // A condition cleared before it was told is not remembered: its delay starts again.
    QVERIFY(e.evaluateLock("b", stuck, 0).isEmpty());
    QVERIFY(e.evaluateLock("b", {}, 5'000).isEmpty());
    QVERIFY(e.evaluateLock("b", stuck, 6'000).isEmpty());
    QCOMPARE(e.tick(16'000).size(), 1);
}

void TestNotificationEvaluator::waitsForTheRulesDelay()
{
    NotificationEvaluator e; // stuck: 10 s by default
    QVERIFY(e.evaluateLock("a", stuck, 1'000).isEmpty());
    QVERIFY(e.tick(10'999).isEmpty());
    QCOMPARE(e.tick(11'000).size(), 1);
    QVERIFY(e.tick(12'000).isEmpty());
    // Cleared before its delay: nothing at all.
    QVERIFY(e.evaluateLock("b", stuck, 1'000).isEmpty());
    QVERIFY(e.evaluateLock("b", {}, 5'000).isEmpty());
    QVERIFY(e.tick(20'000).isEmpty());
}

void TestNotificationEvaluator::disabledRuleNeverFires()
{
    NotificationEvaluator e;
    NotificationRules rules;
    rules.rule(NotificationRule::Stuck).enabled = false;
    e.setRules(rules);
    QVERIFY(e.evaluateLock("a", stuck, 0).isEmpty());
    QVERIFY(e.tick(100'000).isEmpty());
    QCOMPARE(e.holdingCount(), 0);
}

void TestNotificationEvaluator::masterDownIsEdgeTriggered()
{
    NotificationEvaluator e; // master down: 10 s
    QVERIFY(e.evaluateMaster(1, QStringLiteral("redis://b"), false, QStringLiteral("refused"), 0).isEmpty());
    const QList<NotificationEvent> fired =
        e.evaluateMaster(1, QStringLiteral("redis://b"), false, QStringLiteral("refused"), 10'000);
    QCOMPARE(fired.size(), 1);
    QCOMPARE(fired.at(0).master, 1);
    QCOMPARE(fired.at(0).body, QStringLiteral("refused"));
    QVERIFY(e.evaluateMaster(1, QStringLiteral("redis://b"), false, QString(), 20'000).isEmpty());
    QVERIFY(e.evaluateMaster(1, QStringLiteral("redis://b"), true, QString(), 21'000).isEmpty());
    QVERIFY(e.evaluateMaster(1, QStringLiteral("redis://b"), false, QString(), 22'000).isEmpty());
    QCOMPARE(e.tick(32'000).size(), 1);
}

void TestNotificationEvaluator::namesRoundTrip()
{
    for (NotificationRule r : NotificationRules::all())
        QCOMPARE(notificationRuleFromName(notificationRuleName(r)), std::optional<NotificationRule>(r));
    QCOMPARE(notificationRuleFromName(QStringLiteral("nope")), std::nullopt);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestNotificationEvaluator)

} // namespace tst_notificationevaluator

#include "tst_notificationevaluator.moc"
