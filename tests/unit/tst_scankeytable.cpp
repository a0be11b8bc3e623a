// SPDX-License-Identifier: Apache-2.0
#include "discovery/scankeytable.h"
#include "support/testregistry.h"

#include <QSet>
#include <QTest>

namespace tst_scankeytable {

using namespace lockscope;

class TestScanKeyTable : public QObject
{
    Q_OBJECT

private slots:
    void insertsFindsAndKeepsMarks();
    void sweepDropsWhatItIsToldAndShrinks();
    void binaryAndEmptyKeys();
    void insertCopyGivesTheTablesOwnCopy();
    void lookUpAllVisitsEachKeyInOrderWithItsHash();
};

void TestScanKeyTable::insertsFindsAndKeepsMarks()
{
    ScanKeyTable table;
    QCOMPARE(table.size(), 0);
    QVERIFY(!table.find("lock:1"));
    // Enough keys to grow the index many times over.
    for (int i = 0; i < 50000; ++i) {
        ScanKeyTable::Mark& mark = table["lock:" + QByteArray::number(i)];
        QCOMPARE(mark.metInPass, 0u);
        QVERIFY(!mark.known);
        mark.metInPass = quint32(i);
        mark.known = i % 2 == 0;
    }
    QCOMPARE(table.size(), 50000);
    for (int i = 0; i < 50000; ++i) {
        const ScanKeyTable::Mark* mark = table.find("lock:" + QByteArray::number(i));
        QVERIFY(mark);
        QCOMPARE(mark->metInPass, quint32(i));
        QCOMPARE(mark->known, i % 2 == 0);
    }
    // An existing key is found, not added again.
    table["lock:7"].metInPass = 99;
    QCOMPARE(table.size(), 50000);
    QCOMPARE(table.find("lock:7")->metInPass, 99u);
    QVERIFY(!table.find("lock:50000"));
    QVERIFY(!table.find("lock:"));
}

void TestScanKeyTable::sweepDropsWhatItIsToldAndShrinks()
{
    ScanKeyTable table;
    for (int i = 0; i < 10000; ++i)
        table["k" + QByteArray::number(i)].known = i % 10 == 0;
    QSet<QByteArray> seen;
    table.sweep([&](const QByteArray& key, ScanKeyTable::Mark& mark) {
        seen.insert(key);
        return mark.known;
    });
    QCOMPARE(seen.size(), 10000);
    QCOMPARE(table.size(), 1000);
    for (int i = 0; i < 10000; ++i)
        QCOMPARE(table.find("k" + QByteArray::number(i)) != nullptr, i % 10 == 0);
    // Marks can be changed during the sweep; what is kept keeps the change.
    table.sweep([](const QByteArray&, ScanKeyTable::Mark& mark) {
        mark.metInPass = 5;
        return true;
    });
    QCOMPARE(table.find("k0")->metInPass, 5u);
    table.sweep([](const QByteArray&, ScanKeyTable::Mark&) { return false; });
    QCOMPARE(table.size(), 0);
    QVERIFY(!table.find("k0"));
    table["again"].known = true;
    QVERIFY(table.find("again")->known);
}

void TestScanKeyTable::binaryAndEmptyKeys()
{
    ScanKeyTable table;
    const QByteArray withNul("a\0b", 3);
    const QByteArray other("a\0c", 3);
    table[withNul].metInPass = 1;
    table[QByteArray()].metInPass = 2;
    QCOMPARE(table.find(withNul)->metInPass, 1u);
    QVERIFY(!table.find(other));
    QCOMPARE(table.find(QByteArray(""))->metInPass, 2u);
    QCOMPARE(table.size(), 2);
}

// What a keyspace event names is looked up without a copy of its own (bytes inside the channel
// name) and comes back as the table's copy, sharing its bytes: a key waiting to be read costs none.
// A key the table did not know is copied: the channel's buffer goes away.
void TestScanKeyTable::insertCopyGivesTheTablesOwnCopy()
{
    ScanKeyTable table;
    const QByteArray stored("lock:orders");
    table[stored].known = true;
    const QByteArray channel("__keyspace@0__:lock:orders");
    const QByteArray inside = QByteArray::fromRawData(channel.constData() + 15, channel.size() - 15);
    const ScanKeyTable::Stored found = table.insertCopy(inside);
    QCOMPARE(found.key, stored);
    QVERIFY(found.mark.known);
    QCOMPARE(QByteArray(found.key).constData(), stored.constData()); // shared, not copied
    QCOMPARE(table.size(), 1);

    QByteArray other("__keyspace@0__:lock:other");
    const QByteArray otherInside = QByteArray::fromRawData(other.constData() + 15, other.size() - 15);
    const ScanKeyTable::Stored added = table.insertCopy(otherInside);
    QVERIFY(!added.mark.known);
    QVERIFY(!added.mark.waiting);
    QCOMPARE(added.mark.metInPass, 0u);
    QVERIFY(added.key.constData() != otherInside.constData()); // its own bytes
    other.fill('x');                                           // the buffer it was named in changes
    QCOMPARE(table.find("lock:other") != nullptr, true);
    QCOMPARE(table.size(), 2);
}

// The prefetching walk is only a faster loop: every key once, in order, with its own hash, whatever
// the run's length against the keys it has in flight, and while the lookups grow the index under it.
void TestScanKeyTable::lookUpAllVisitsEachKeyInOrderWithItsHash()
{
    for (const int count : {0, 1, 3, 4, 5, 8, 9, 17, 5000}) {
        ScanKeyTable table;
        QByteArrayList keys;
        for (int i = 0; i < count; ++i)
            keys << "lock:" + QByteArray::number(count) + ":" + QByteArray::number(i);
        QList<qsizetype> visited;
        table.lookUpAll(
            keys.size(), [&keys](qsizetype i) -> const QByteArray& { return keys.at(i); },
            [&](qsizetype i, quint32 hash) {
                QCOMPARE(hash, HashedKey::hashOf(keys.at(i)));
                visited << i;
                table.insert(keys.at(i), hash, false).mark.metInPass = quint32(i + 1);
            });
        QCOMPARE(visited.size(), count);
        for (int i = 0; i < count; ++i) {
            QCOMPARE(visited.at(i), qsizetype(i));
            const ScanKeyTable::Mark* mark = table.find(keys.at(i), HashedKey::hashOf(keys.at(i)));
            QVERIFY(mark);
            QCOMPARE(mark->metInPass, quint32(i + 1));
        }
        QCOMPARE(table.size(), qsizetype(count));
        // A second walk over the same keys finds each: no key is added twice.
        int found = 0;
        table.lookUpAll(
            keys.size(), [&keys](qsizetype i) -> const QByteArray& { return keys.at(i); },
            [&](qsizetype i, quint32 hash) { found += table.find(keys.at(i), hash) ? 1 : 0; });
        QCOMPARE(found, count);
    }
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestScanKeyTable)

} // namespace tst_scankeytable

#include "tst_scankeytable.moc"
