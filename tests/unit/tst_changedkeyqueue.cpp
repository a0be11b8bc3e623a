#include "discovery/changedkeyqueue.h"
#include "testregistry.h"

#include <QTest>

namespace tst_changedkeyqueue {

using namespace lockscope;

class TestChangedKeyQueue : public QObject
{
    Q_OBJECT

private slots:
    void eachKeyOnceOldestFirst();
    void aTakenKeyQueuesAgain();
    void takesAtMostWhatIsAsked();
    void manyKeysComeOutInArrivalOrder();
};

void TestChangedKeyQueue::eachKeyOnceOldestFirst()
{
    ChangedKeyQueue q;
    QVERIFY(q.isEmpty());
    for (const char* k : {"lock:b", "lock:a", "lock:b", "lock:c", "lock:a", ""})
        q.push(k);
    QCOMPARE(q.size(), 4);
    QCOMPARE(q.take(100), (QByteArrayList{"lock:b", "lock:a", "lock:c", ""}));
    QVERIFY(q.isEmpty());
    QCOMPARE(q.take(100), QByteArrayList());
}

void TestChangedKeyQueue::aTakenKeyQueuesAgain()
{
    ChangedKeyQueue q;
    q.push("lock:a");
    q.push("lock:b");
    QCOMPARE(q.take(1), QByteArrayList{"lock:a"});
    q.push("lock:a"); // changed again after it was handed out: read again, after lock:b
    q.push("lock:b"); // still waiting: not twice
    QCOMPARE(q.take(10), (QByteArrayList{"lock:b", "lock:a"}));
}

void TestChangedKeyQueue::takesAtMostWhatIsAsked()
{
    ChangedKeyQueue q;
    for (int i = 0; i < 10000; ++i)
        q.push("k" + QByteArray::number(i));
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
    ChangedKeyQueue q;
    QByteArrayList out;
    int next = 0;
    while (next < 200000) {
        for (int i = 0; i < 7000 && next < 200000; ++i)
            q.push("lock:m" + QByteArray::number(next++));
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

LOCKSCOPE_TEST_GUILESS_MAIN(TestChangedKeyQueue)

} // namespace tst_changedkeyqueue

#include "tst_changedkeyqueue.moc"
