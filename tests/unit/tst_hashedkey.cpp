// SPDX-License-Identifier: Apache-2.0
#include "base/hashedkey.h"
#include "monitor/lockview.h"
#include "support/testregistry.h"

#include <QHash>
#include <QTest>

namespace tst_hashedkey {

using namespace lockscope;

// A name carries its hash from the scan worker that met it to every table that keeps the lock by
// name: the tables find it however the name reaches them, with or without its hash.
class TestHashedKey : public QObject
{
    Q_OBJECT

private slots:
    void aNameIsTheSameKeyWithOrWithoutItsHash();
    void namesOfOneSizeAreToldApart();
    void aTableFindsItsNamesHoweverTheyCome();
    void aViewGivesTheMonitorsHashOrComputesIt();
};

void TestHashedKey::aNameIsTheSameKeyWithOrWithoutItsHash()
{
    const QByteArray name("lock:orders:42");
    const HashedKey computed(name);
    const HashedKey carried(name, HashedKey::hashOf(name));
    QCOMPARE(computed.hash(), HashedKey::hashOf(name));
    QCOMPARE(carried.hash(), computed.hash());
    QVERIFY(computed == carried);
    QCOMPARE(qHash(computed, 0), qHash(carried, 0));
    // Equal bytes held apart (no shared block) are the same key too.
    const HashedKey copied(QByteArray(name.constData(), name.size()));
    QVERIFY(copied.bytes().constData() != name.constData());
    QVERIFY(copied == computed);
    // A name with bytes no text has: hashed and compared as bytes.
    const QByteArray binary("lock:\x00\xff\x01", 8);
    QVERIFY(HashedKey(binary) == HashedKey(QByteArray(binary.constData(), binary.size())));
    QVERIFY(!(HashedKey(binary) == HashedKey(QByteArray("lock:"))));
    QCOMPARE(HashedKey().hash(), HashedKey(QByteArray()).hash());
    QVERIFY(HashedKey() == HashedKey(QByteArray("")));
}

void TestHashedKey::namesOfOneSizeAreToldApart()
{
    // A key made to carry another's hash (what a wrong hash would look like) is still told apart by
    // its bytes: the hash narrows a comparison, it never decides one alone.
    const QByteArray a("lock:a"), b("lock:b");
    QVERIFY(!(HashedKey(a) == HashedKey(b)));
    QVERIFY(!(HashedKey(a) == HashedKey(b, HashedKey::hashOf(a))));
    QVERIFY(!(HashedKey(a, 1) == HashedKey(a, 2))); // and a different hash is a different key
}

void TestHashedKey::aTableFindsItsNamesHoweverTheyCome()
{
    QHash<HashedKey, int> table;
    QList<QByteArray> names;
    for (int i = 0; i < 20000; ++i) // past several growths, which move entries by their hash alone
        names << "lock:bench:" + QByteArray::number(i);
    for (int i = 0; i < names.size(); ++i)
        table.insert(HashedKey(names.at(i), HashedKey::hashOf(names.at(i))), i);
    QCOMPARE(table.size(), names.size());
    for (int i = 0; i < names.size(); ++i) {
        // By a copy of the name without its hash (a user's input, an event), and by the name itself.
        const QByteArray again(names.at(i).constData(), names.at(i).size());
        QCOMPARE(table.value(again, -1), i);
        QCOMPARE(table.value(HashedKey(names.at(i), HashedKey::hashOf(names.at(i))), -1), i);
    }
    QCOMPARE(table.value(QByteArray("lock:bench:20000"), -1), -1);
    QVERIFY(table.remove(QByteArray("lock:bench:7")));
    QVERIFY(!table.contains(QByteArray("lock:bench:7")));
    QCOMPARE(table.size(), names.size() - 1);
}

void TestHashedKey::aViewGivesTheMonitorsHashOrComputesIt()
{
    LockView view;
    view.resource = "lock:view";
    QCOMPARE(view.key().hash(), HashedKey::hashOf(view.resource)); // none given: computed
    view.resourceHash = HashedKey::hashOf(view.resource);
    QVERIFY(view.key() == HashedKey(QByteArray("lock:view")));
    QCOMPARE(view.key().bytes().constData(), view.resource.constData()); // the view's bytes, shared
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestHashedKey)

} // namespace tst_hashedkey

#include "tst_hashedkey.moc"
