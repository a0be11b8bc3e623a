// SPDX-License-Identifier: Apache-2.0
#include "discovery/keypool.h"
#include "discovery/scankeytable.h"
#include "support/testregistry.h"

#include <QTest>
#include <QThread>

#include <memory>
#include <vector>

namespace tst_keypool {

using namespace lockscope;

class TestKeyPool : public QObject
{
    Q_OBJECT

private slots:
    void aNameIsKeptOnce();
    void aCopyIsMadeOnlyWhenAsked();
    void namesNobodyHoldsAreDropped();
    void tablesOfSeveralMastersShareTheBytes();
    void threadsInterningTheSameNamesGetOneCopy();
};

void TestKeyPool::aNameIsKeptOnce()
{
    KeyPool pool;
    const QByteArray a = pool.intern(QByteArray("lock:orders"));
    const QByteArray b = pool.intern(QByteArray("lock:orders")); // another allocation, same name
    QCOMPARE(a, QByteArray("lock:orders"));
    QVERIFY(a.isSharedWith(b));
    QCOMPARE(pool.size(), 1);
    // Binary and empty names are names like any other.
    const QByteArray binary("a\0b\xff", 4);
    QCOMPARE(pool.intern(binary), binary);
    QVERIFY(pool.intern(QByteArray("a\0b\xff", 4)).isSharedWith(pool.intern(binary)));
    QVERIFY(pool.intern(QByteArray("a\0c\xff", 4)) != binary);
    QCOMPARE(pool.intern(QByteArray("")), QByteArray(""));
    QCOMPARE(pool.size(), 4);
}

void TestKeyPool::aCopyIsMadeOnlyWhenAsked()
{
    KeyPool pool;
    const QByteArray reply("lock:a");
    QVERIFY(pool.intern(reply).isSharedWith(reply)); // a reply's own bytes are taken as they are
    // A name inside a buffer that changes (a keyspace event's channel) is copied.
    QByteArray channel("__keyspace@0__:lock:b");
    const QByteArray inside = QByteArray::fromRawData(channel.constData() + 15, channel.size() - 15);
    const QByteArray pooled = pool.intern(inside, true);
    QVERIFY(pooled.constData() != inside.constData());
    channel.fill('x');
    QCOMPARE(pooled, QByteArray("lock:b"));
    // A name the pool has is not copied again, whatever the caller says.
    QVERIFY(pool.intern(QByteArray("lock:b"), true).isSharedWith(pooled));
}

void TestKeyPool::namesNobodyHoldsAreDropped()
{
    KeyPool pool;
    QList<QByteArray> held;
    for (int i = 0; i < 1000; ++i) {
        const QByteArray name = pool.intern("lock:" + QByteArray::number(i));
        if (i % 4 == 0)
            held << name;
    }
    QCOMPARE(pool.size(), 1000);
    QCOMPARE(pool.purge(), 750);
    QCOMPARE(pool.size(), 250);
    for (const QByteArray& name : std::as_const(held))
        QVERIFY(pool.intern(QByteArray(name.constData(), name.size()))
                    .isSharedWith(name)); // still the same bytes
    held.clear();
    QCOMPARE(pool.purge(), 250);
    QCOMPARE(pool.size(), 0);

    // Names that come and go (a lock per order) are dropped as the pool grows, without a purge():
    // it stays within twice what is held (plus a little per part of the pool).
    QList<QByteArray> live;
    for (int i = 0; i < 200000; ++i) {
        live << pool.intern("order:" + QByteArray::number(i));
        if (live.size() > 500)
            live.removeFirst();
    }
    QVERIFY2(pool.size() <= 2 * 500 + 16 * 2 * 64, qPrintable(QString::number(pool.size())));
    for (const QByteArray& name : std::as_const(live))
        QVERIFY(pool.intern(QByteArray(name.constData(), name.size())).isSharedWith(name));
}

// Five masters' tables meeting the same names keep one copy of each.
void TestKeyPool::tablesOfSeveralMastersShareTheBytes()
{
    const auto pool = std::make_shared<KeyPool>();
    std::vector<std::unique_ptr<ScanKeyTable>> tables;
    for (int m = 0; m < 5; ++m) {
        tables.push_back(std::make_unique<ScanKeyTable>());
        tables.back()->setPool(pool);
    }
    QList<QByteArray> first;
    for (int m = 0; m < 5; ++m) {
        for (int i = 0; i < 3000; ++i) {
            const QByteArray reply = "lock:" + QByteArray::number(i); // a reply's own allocation
            const ScanKeyTable::Stored stored = tables[size_t(m)]->insert(reply);
            stored.mark.known = true;
            if (m == 0)
                first << stored.key;
            else
                QVERIFY(stored.key.isSharedWith(first.at(i)));
        }
    }
    QCOMPARE(pool->size(), 3000);
    // A key named by an event is the pooled copy too.
    QByteArray channel("__keyspace@0__:lock:7");
    const ScanKeyTable::Stored named =
        tables[2]->insertCopy(QByteArray::fromRawData(channel.constData() + 15, channel.size() - 15));
    QVERIFY(named.key.isSharedWith(first.at(7)));
    // Once every table has let a name go and nobody else holds it, the pool lets it go too.
    first.clear();
    for (auto& table : tables)
        table->sweep([](const QByteArray& key, ScanKeyTable::Mark&) { return !key.endsWith('5'); });
    QCOMPARE(pool->purge(), 300);
    QCOMPARE(pool->size(), 2700);
    // A table without a pool keeps its own copies, as before.
    ScanKeyTable own;
    const QByteArray reply("lock:1");
    QVERIFY(own.insert(reply).key.isSharedWith(reply));
    QCOMPARE(pool->size(), 2700);
}

// The scan workers intern from threads of their own: every thread ends up with the same bytes for
// a name, and the pool holds each once.
void TestKeyPool::threadsInterningTheSameNamesGetOneCopy()
{
    KeyPool pool;
    constexpr int threads = 4;
    constexpr int names = 20000;
    std::vector<QList<QByteArray>> got(threads);
    std::vector<std::unique_ptr<QThread>> running;
    for (int t = 0; t < threads; ++t) {
        running.emplace_back(QThread::create([&pool, &got, t] {
            got[size_t(t)].resize(names);
            // Each thread in an order of its own (a stride prime to the count), so that they meet
            // the same names at once.
            static constexpr int strides[threads] = {1, 3, 7, 9};
            for (int n = 0; n < names; ++n) {
                const int i = (n * strides[t] + t * 977) % names;
                got[size_t(t)][i] = pool.intern("lock:" + QByteArray::number(i));
            }
        }));
        running.back()->start();
    }
    for (auto& thread : running)
        QVERIFY(thread->wait(60000));
    QCOMPARE(pool.size(), names);
    for (int i = 0; i < names; ++i) {
        QCOMPARE(got[0].at(i), "lock:" + QByteArray::number(i));
        for (int t = 1; t < threads; ++t)
            QVERIFY(got[size_t(t)].at(i).isSharedWith(got[0].at(i)));
    }
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestKeyPool)

} // namespace tst_keypool

#include "tst_keypool.moc"
