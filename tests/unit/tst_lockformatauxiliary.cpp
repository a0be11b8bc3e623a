// SPDX-License-Identifier: Apache-2.0
#include "formats/lockformatrecognizer.h"
#include "support/recognizersamples.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_lockformatauxiliary {

using namespace lockscope;
using namespace lockscope::test;

// The auxiliary keys of LockFormatRecognizer (formats/auxiliaryformats): the helpers libraries keep
// next to their locks, known by name whatever their type.
class TestLockFormatAuxiliary : public QObject
{
    Q_OBJECT

private slots:
    void recognizesAuxiliaryKeys_data();
    void recognizesAuxiliaryKeys();
};

void TestLockFormatAuxiliary::recognizesAuxiliaryKeys_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArray>("type");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<bool>("auxiliary");
    QTest::addColumn<int>("format");
    QTest::addColumn<QByteArray>("token");

    // A helper key: its value (if a string) is the token, and it names no holder.
    auto helper = [](const char* name, const QByteArray& key, const QByteArray& type, const QByteArray& value,
                     LockFormat format) {
        QTest::newRow(name) << key << type << value << true << int(format) << value;
    };
    helper("python-redis-lock signal list", "lock-signal:report", "list", {}, LockFormat::PythonRedisLock);
    helper("redisson fair-lock queue", "redisson_lock_queue:{orders}", "list", {}, LockFormat::Redisson);
    helper("redisson fair-lock timeouts", "redisson_lock_timeout:{orders}", "zset", {}, LockFormat::Redisson);
    helper("redisson unlock channel name", "redisson_lock__channel:{orders}", "string", "0",
           LockFormat::Redisson);
    helper("redisson fenced-lock counter", "redisson_lock_token:{orders}", "string", "42",
           LockFormat::Redisson);
    helper("redisson read-lock lease", "{orders}:" + kInstanceA + ":57:rwlock_timeout:1", "string", "1",
           LockFormat::Redisson);
    helper("helper that is gone", "lock-signal:report", {}, {}, LockFormat::PythonRedisLock);
    QTest::newRow("lock:signal is a lock, not a helper")
        << QByteArray("lock:signal") << QByteArray("string") << QByteArray("ZGVmZ2hpamtsbW5vcHFyc3R1")
        << false << int(LockFormat::PythonRedisLock) << QByteArray("ZGVmZ2hpamtsbW5vcHFyc3R1");
    QTest::newRow("prefix must start the key")
        << QByteArray("my-lock-signal:x") << QByteArray("string") << QByteArray("t") << false
        << int(LockFormat::PlainToken) << QByteArray("t");
    QTest::newRow("a list elsewhere is not a lock")
        << QByteArray("jobs-lock-list") << QByteArray("list") << QByteArray() << false
        << int(LockFormat::Unknown) << QByteArray();
}

void TestLockFormatAuxiliary::recognizesAuxiliaryKeys()
{
    QFETCH(QByteArray, key);
    QFETCH(QByteArray, type);
    QFETCH(QByteArray, value);
    QFETCH(bool, auxiliary);
    QFETCH(int, format);
    QFETCH(QByteArray, token);

    KeyObservation o;
    o.present = !type.isEmpty();
    o.type = type;
    o.value = value;
    o.elementCount = 2;
    // A rule matching everything must not give a helper an owner.
    const QList<OwnerRule> rules = rulesFrom({QStringLiteral("*\t^.*$")});
    const RecognizedLock lock = LockFormatRecognizer::recognize(key, o, rules, kNowMs);
    QCOMPARE(lock.auxiliary, auxiliary);
    QCOMPARE(lockFormatName(lock.format), lockFormatName(LockFormat(format)));
    QCOMPARE(lock.token, token);
    if (auxiliary) {
        QVERIFY(lock.holderList().isEmpty());
        QVERIFY(lock.owner.isEmpty());
        QVERIFY(!lock.detail().isEmpty());
    }
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockFormatAuxiliary)

} // namespace tst_lockformatauxiliary

#include "tst_lockformatauxiliary.moc"
