// SPDX-License-Identifier: Apache-2.0
#include "record/keyspacenote.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_keyspacenote {

using namespace lockscope;
using How = KeyspaceNote::End::How;

// How a note of a key's keyspace events is read for each holder the key had: the rules, on times
// given here (monotonic milliseconds; the wall clock is the same plus a million, so that a release's
// time can be told from which event it came). The recorder's reading of real servers' events is
// tested in tst_recordednoteorder.
class TestKeyspaceNote : public QObject
{
    Q_OBJECT

private slots:
    void aDeleteIsTheReleaseOfAHolderOfItsMaster();
    void anExpiryIsTheHoldersWhenItsLeaseWasDue();
    void anExpiryJustAfterAFreshLeaseIsThePreviousHolders();
    void aCopyGoneEarlyFromALongHolderIsItsExpiry();
    void aDeleteAfterAnExpiryThereIsOfTheKeyWrittenSince();
    void anExpiryOutweighsADeleteForTwoSecondsOnly();
    void aDeleteFromAnotherMasterReplacesTheExpiry();
};

namespace {

constexpr qint64 wall = 1000000;

KeyspaceNote note(bool expiry, int master, qint64 atMs)
{
    return KeyspaceNote(expiry, master, atMs, wall + atMs);
}

void add(KeyspaceNote& n, bool expiry, int master, qint64 atMs)
{
    n.add(expiry, master, atMs, wall + atMs);
}

constexpr quint64 m0 = 1, m1 = 2;

} // namespace

void TestKeyspaceNote::aDeleteIsTheReleaseOfAHolderOfItsMaster()
{
    const KeyspaceNote del = note(false, 0, 5000);
    const KeyspaceNote::End end = del.endFor(1000, m0, 60000);
    QCOMPARE(end.how, How::Released);
    QCOMPARE(end.atMs, 5000);
    QCOMPARE(end.wallMs, wall + 5000);
    // Not of a holder never on that master, nor of one that began after it came.
    QCOMPARE(del.endFor(1000, m1, 60000).how, How::Unknown);
    QCOMPARE(del.endFor(5001, m0, 60000).how, How::Unknown);
}

void TestKeyspaceNote::anExpiryIsTheHoldersWhenItsLeaseWasDue()
{
    const KeyspaceNote expired = note(true, 0, 1030);
    QCOMPARE(expired.endFor(1000, m0, 1010).how, How::Expired);      // just after its deadline
    QCOMPARE(expired.endFor(1000, m0, 1100).how, How::Expired);      // within the tolerance of it
    QCOMPARE(expired.endFor(1000, m0, -1).how, How::Expired);        // a deadline not known
    QCOMPARE(expired.endFor(1000, m1 | m0, 1100).how, How::Expired); // a Redlock's
}

void TestKeyspaceNote::anExpiryJustAfterAFreshLeaseIsThePreviousHolders()
{
    // Read holding a 984 ms lease at 1000; an expiry from its master at 1002: the previous holder's,
    // come behind the read. It tells nothing of this holder.
    const KeyspaceNote expired = note(true, 0, 1002);
    QCOMPARE(expired.endFor(1000, m0, 1984).how, How::Unknown);
    // At the limit of what an event's lag explains, too (beyond it:
    // aCopyGoneEarlyFromALongHolderIsItsExpiry).
    QCOMPARE(note(true, 0, 1000 + KeyspaceNote::eventLagMs).endFor(1000, m0, 60000).how, How::Unknown);
}

void TestKeyspaceNote::aCopyGoneEarlyFromALongHolderIsItsExpiry()
{
    // Held since 1000 with its lease due at 60000, its key expired at 5000: gone early (a server's
    // clock running fast). Still told as its expiry, at that moment.
    const KeyspaceNote::End end = note(true, 0, 5000).endFor(1000, m0, 60000);
    QCOMPARE(end.how, How::Expired);
    QCOMPARE(end.atMs, 5000);
    QCOMPARE(note(true, 0, 1001 + KeyspaceNote::eventLagMs).endFor(1000, m0, 60000).how, How::Expired);
}

void TestKeyspaceNote::aDeleteAfterAnExpiryThereIsOfTheKeyWrittenSince()
{
    // A's lease due at 1000 ran out on master 0 (event at 1010); B was read there at 1005 and
    // deleted it at 1400.
    KeyspaceNote n = note(true, 0, 1010);
    add(n, false, 0, 1400);
    QVERIFY(n.isExpiry());
    QCOMPARE(n.endFor(0, m0, 1000).how, How::Expired); // A's end: the delete is not its
    const KeyspaceNote::End b = n.endFor(1005, m0, 61005);
    QCOMPARE(b.how, How::Released); // B's end: the delete, the expiry being A's
    QCOMPARE(b.atMs, 1400);
    QCOMPARE(b.wallMs, wall + 1400);
    // B read only after the expiry came: the same.
    QCOMPARE(n.endFor(1020, m0, 61020).how, How::Released);
    // A third holder, begun after the delete: nothing is known of it.
    QCOMPARE(n.endFor(1500, m0, 61500).how, How::Unknown);
    // A later expiry elsewhere (a Redlock's copies) keeps the delete for its writer.
    add(n, true, 1, 1420);
    QCOMPARE(n.expiredOn(), m0 | m1);
    QCOMPARE(n.endFor(1005, m0, 61005).how, How::Released);
}

void TestKeyspaceNote::anExpiryOutweighsADeleteForTwoSecondsOnly()
{
    KeyspaceNote n = note(true, 0, 1000);
    add(n, false, 0, 1000 + KeyspaceNote::expiryHoldsMs + 1);
    QVERIFY(!n.isExpiry());
    QCOMPARE(n.expiredOn(), quint64(0));
    QCOMPARE(n.endFor(0, m0, 1000).how, How::Released); // the last word, as for any key
}

void TestKeyspaceNote::aDeleteFromAnotherMasterReplacesTheExpiry()
{
    KeyspaceNote n = note(true, 0, 1000);
    add(n, false, 1, 1200);
    QVERIFY(!n.isExpiry());
    QCOMPARE(n.master(), 1);
    QCOMPARE(n.endFor(500, m1, 61000).how, How::Released);
    // A holder never on master 1: the note says nothing of it any more.
    QCOMPARE(n.endFor(0, m0, 1000).how, How::Unknown);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestKeyspaceNote)

} // namespace tst_keyspacenote

#include "tst_keyspacenote.moc"
