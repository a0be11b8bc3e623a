// SPDX-License-Identifier: Apache-2.0
#include "config/lockscopeconfig.h"
#include "monitor/quorumcalculator.h"
#include "monitor/viewchange.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_viewchange {

using namespace lockscope;

namespace {

// Three masters holding "tok", each read at `readAt` with `pttl` left.
QList<MasterObservation> held(qint64 pttl, qint64 readAt)
{
    QList<MasterObservation> out;
    for (int i = 0; i < 3; ++i) {
        KeyObservation key;
        key.present = true;
        key.type = "string";
        key.value = "tok";
        key.pttlMs = pttl;
        key.readAtMs = readAt;
        RecognizedLock lock;
        lock.token = "tok";
        lock.format = LockFormat::PlainToken;
        out << MasterObservation(key, lock);
    }
    return out;
}

} // namespace

class TestViewChange : public QObject
{
    Q_OBJECT

private slots:
    void theCountdownIsNoNews();
    void anExtensionIsNews();
    void aReadingsJitterIsNoNews();
};

// A lock of an hour, shown, then recomputed from later readings of the same expiry (a reconciliation
// pass, a minute on): its validity counted down slower than the clock by the drift allowance, which
// is no news. Before, at the drift factor's 1 %, every recomputation more than 5 s later was.
void TestViewChange::theCountdownIsNoNews()
{
    const RedlockSettings drift;
    const LockView shown = QuorumCalculator::compute("r", held(3600000, 1000), drift, 1000);
    for (const qint64 later : {1000, 5000, 6000, 60000, 3000000}) {
        const qint64 at = 1000 + later;
        const LockView again = QuorumCalculator::compute("r", held(3600000 - later, at), drift, at);
        QVERIFY2(again.validityMs > shown.validityAt(at) + 5, "the allowance shrank: the premise holds");
        QVERIFY2(!ViewChange::significant(shown, again, drift.driftFactor),
                 qPrintable(QString::number(later)));
        // Counted down by the clock alone, as the rule was, the allowance's 1 % of the time between
        // passes 50 ms after 5 s.
        QCOMPARE(ViewChange::significant(shown, again, 0.0), later > 5000);
    }
}

// The same lock extended on every master by a second, or by a tenth of one, is news at once and a
// minute later; so is a shorter TTL.
void TestViewChange::anExtensionIsNews()
{
    const RedlockSettings drift;
    const LockView shown = QuorumCalculator::compute("r", held(3600000, 1000), drift, 1000);
    for (const qint64 later : {0, 60000}) {
        for (const qint64 moved : {1000, 100, -100}) {
            const qint64 at = 1000 + later;
            const LockView again =
                QuorumCalculator::compute("r", held(3600000 - later + moved, at), drift, at);
            QVERIFY2(ViewChange::significant(shown, again, drift.driftFactor),
                     qPrintable(QStringLiteral("%1 ms later, moved by %2").arg(later).arg(moved)));
        }
    }
}

// A reading 30 ms off the countdown (a slow reply) is not an expiry that moved; 80 ms is.
void TestViewChange::aReadingsJitterIsNoNews()
{
    QVERIFY(!ViewChange::expiryMoved(10000, 1000, 7970, 3000));
    QVERIFY(!ViewChange::expiryMoved(10000, 1000, 8030, 3000));
    QVERIFY(ViewChange::expiryMoved(10000, 1000, 8080, 3000));
    QVERIFY(ViewChange::expiryMoved(10000, 1000, 7920, 3000));
    QVERIFY(ViewChange::expiryMoved(10000, 1000, -1, 3000)); // PERSIST
    QVERIFY(!ViewChange::expiryMoved(-1, 1000, -1, 3000));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestViewChange)

} // namespace tst_viewchange

#include "tst_viewchange.moc"
