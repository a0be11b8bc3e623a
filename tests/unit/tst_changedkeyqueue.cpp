// SPDX-License-Identifier: Apache-2.0
#include "discovery/changedkeyqueue.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_changedkeyqueue {

using namespace lockscope;

// Each key as a keyspace event names it: through the table's entry.
void push(ChangedKeyQueue& q, ScanKeyTable& table, const QByteArray& key)
{
    q.push(table.insertCopy(key));
}

class TestChangedKeyQueue : public QObject
{
    Q_OBJECT

private slots:
    void eachKeyOnceOldestFirst();
    void aTakenKeyQueuesAgain();
    void takesAtMostWhatIsAsked();
    void manyKeysComeOutInArrivalOrder();
    void theWaitingMarkIsTheTables();
    void aSweepMovesTheWaitingKeysWithTheirEntries();
};

void TestChangedKeyQueue::eachKeyOnceOldestFirst()
{
    ScanKeyTable table;
    ChangedKeyQueue q(table);
    QVERIFY(q.isEmpty());
    for (const char* k : {"lock:b", "lock:a", "lock:b", "lock:c", "lock:a", ""})
        push(q, table, k);
    QCOMPARE(q.size(), 4);
    QCOMPARE(q.take(100), (QByteArrayList{"lock:b", "lock:a", "lock:c", ""}));
    QVERIFY(q.isEmpty());
    QCOMPARE(q.take(100), QByteArrayList());
}

void TestChangedKeyQueue::aTakenKeyQueuesAgain()
{
    ScanKeyTable table;
    ChangedKeyQueue q(table);
    push(q, table, "lock:a");
    push(q, table, "lock:b");
    QCOMPARE(q.take(1), QByteArrayList{"lock:a"});
    push(q, table, "lock:a"); // changed again after it was handed out: read again, after lock:b
    push(q, table, "lock:b"); // still waiting: not twice
    QCOMPARE(q.take(10), (QByteArrayList{"lock:b", "lock:a"}));
}

void TestChangedKeyQueue::takesAtMostWhatIsAsked()
{
    ScanKeyTable table;
    ChangedKeyQueue q(table);
    for (int i = 0; i < 10000; ++i)
        push(q, table, "k" + QByteArray::number(i));
    qsizetype total = 0;
    while (!q.isEmpty()) {
        const QByteArrayList slice = q.take(4096);
        QVERIFY(slice.size() <= 4096);
        QCOMPARE(slice.first(), "k" + QByteArray::number(total));
        total += slice.size();
    }
    QCOMPARE(total, 10000);
}

// Interleaved pushes and takes over many keys (the list is compacted along the way): nothing lost,
// nothing twice, and the order is the order of arrival, not of any hash.
void TestChangedKeyQueue::manyKeysComeOutInArrivalOrder()
{
    ScanKeyTable table;
    ChangedKeyQueue q(table);
    QByteArrayList out;
    int next = 0;
    while (next < 200000) {
        for (int i = 0; i < 7000 && next < 200000; ++i)
            push(q, table, "lock:m" + QByteArray::number(next++));
        out << q.take(5000);
    }
    while (!q.isEmpty())
        out << q.take(5000);
    QCOMPARE(out.size(), 200000);
    for (int i = 0; i < out.size(); ++i)
        if (out.at(i) != "lock:m" + QByteArray::number(i))
            QFAIL(qPrintable(
                QStringLiteral("key %1 out of order: %2").arg(i).arg(QString::fromLatin1(out.at(i)))));
}

// Whether a key waits is its mark in the key table: set while queued, cleared when taken, and a
// sweep at the end of a pass keeps the entry of a key that waits even if it is not known.
void TestChangedKeyQueue::theWaitingMarkIsTheTables()
{
    ScanKeyTable table;
    ChangedKeyQueue q(table);
    table["lock:known"].known = true;
    push(q, table, "lock:known");
    push(q, table, "lock:new");
    QVERIFY(table.find("lock:known")->waiting);
    QVERIFY(table.find("lock:new")->waiting);
    QCOMPARE(table.size(), 2);

    // Swept by the rule of a pass end (only what is known stays): a waiting key stays as well.
    table.sweep([](const QByteArray&, ScanKeyTable::Mark& mark) { return mark.known; });
    QCOMPARE(table.size(), 2);
    QCOMPARE(q.take(1), QByteArrayList{"lock:known"});
    QVERIFY(!table.find("lock:known")->waiting);
    QVERIFY(table.find("lock:new")->waiting);

    // Taken, it is no longer kept for the queue's sake.
    QCOMPARE(q.take(10), QByteArrayList{"lock:new"});
    QVERIFY(q.isEmpty());
    table.sweep([](const QByteArray&, ScanKeyTable::Mark& mark) { return mark.known; });
    QVERIFY(!table.find("lock:new"));
    QCOMPARE(table.size(), 1);
}

// The queue holds places in the table: a sweep that drops the entries before and between the waiting
// ones moves them, and the queue still hands out the same keys, in the same order, once each.
void TestChangedKeyQueue::aSweepMovesTheWaitingKeysWithTheirEntries()
{
    ScanKeyTable table;
    ChangedKeyQueue q(table);
    QByteArrayList queued;
    for (int i = 0; i < 3000; ++i) {
        const QByteArray key = "k" + QByteArray::number(i);
        table[key].known = i % 3 == 0; // two of three go at the sweep, unless they wait
        if (i % 7 == 0) {
            push(q, table, key);
            queued << key;
        }
    }
    // Taken before the sweep: its entry may go.
    const QByteArrayList first = q.take(10);
    QCOMPARE(first, queued.mid(0, 10));
    // Queued in an order other than the table's.
    for (const QByteArray& key : {QByteArray("k2999"), QByteArray("k1"), QByteArray("late")}) {
        push(q, table, key);
        queued << key;
    }
    table.sweep([](const QByteArray&, ScanKeyTable::Mark& mark) { return mark.known; });
    QVERIFY(table.size() < 1500);
    QVERIFY(!table.find("k2")); // neither known nor waiting: gone, so the waiting ones moved
    // A key queued after the sweep lands behind the moved ones.
    push(q, table, "after");
    queued << "after";
    QByteArrayList out = first;
    while (!q.isEmpty())
        out << q.take(64);
    QCOMPARE(out, queued);
    for (const QByteArray& key : std::as_const(queued)) {
        const ScanKeyTable::Mark* mark = table.find(key); // those taken before the sweep may be gone
        QVERIFY2(!mark || !mark->waiting, key.constData());
    }
    QVERIFY(!table.find("k7")); // taken before the sweep, not known: gone
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestChangedKeyQueue)

} // namespace tst_changedkeyqueue

#include "tst_changedkeyqueue.moc"
