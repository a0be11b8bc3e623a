// SPDX-License-Identifier: Apache-2.0
#include "monitor/masterobservation.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_masterobservation {

using namespace lockscope;

namespace {

KeyObservation read(const QByteArray& type)
{
    KeyObservation key;
    key.present = !type.isEmpty();
    key.type = type;
    key.pttlMs = key.present ? 30000 : -2;
    key.readAtMs = 77;
    return key;
}

} // namespace

class TestMasterObservation : public QObject
{
    Q_OBJECT

private slots:
    void theReadComesBackWhole();
    void sharedContentKeepsItsType();
    void anErrorKeepsTheContentShownLast();
    void whenTheReadWentOutIsKeptBesideItsTime();
};

// The type is kept as a byte for Redis's own types and by name for any other; what was read comes
// back as it was, and compares equal to it.
void TestMasterObservation::theReadComesBackWhole()
{
    QList<QPair<const char*, KeyObservation>> cases;
    KeyObservation string = read("string");
    string.value = "01HZ6Y3Q";
    cases.append({"string", string});
    KeyObservation cut = read("string");
    cut.value = QByteArray(64, 'x');
    cut.valueSize = 1 << 20;
    cut.truncated = true;
    cases.append({"string, cut", cut});
    KeyObservation hash = read("hash");
    hash.fields = {{"8a6f:1", "2"}};
    hash.elementCount = 1;
    cases.append({"hash", hash});
    KeyObservation zset = read("zset");
    zset.members = {{"a", 1.5}, {"b", 2}};
    zset.elementCount = 2;
    cases.append({"zset", zset});
    cases.append({"list, empty", read("list")});
    cases.append({"stream", read("stream")});
    // A module's type (RedisJSON): kept by name, not taken for a type Redis has of its own.
    cases.append({"module type", read("ReJSON-RL")});
    cases.append({"a type with a NUL", read(QByteArray("str\0ng", 6))});
    cases.append({"absent", read(QByteArray())});
    KeyObservation failed = read(QByteArray());
    failed.error = RedisError(ErrorKind::Timeout, QStringLiteral("m1"), QStringLiteral("no reply"));
    cases.append({"unreachable", failed});

    for (const auto& [name, key] : cases) {
        const MasterObservation m(key, RecognizedLock());
        QVERIFY2(m.type() == key.type, name);
        QVERIFY2(m.value() == key.value, name);
        QVERIFY2(m.valueSize() == key.valueSize, name);
        QVERIFY2(m.truncated() == key.truncated, name);
        QVERIFY2(m.fields() == key.fields, name);
        QVERIFY2(m.members() == key.members, name);
        QVERIFY2(m.elementCount() == key.elementCount, name);
        QVERIFY2(m.pttlMs() == key.pttlMs, name);
        QVERIFY2(m.error().kind == key.error.kind, name);
        QVERIFY2(m.key() == key, name);
        QVERIFY2(m.sameContent(key), name);
        KeyObservation other = key;
        other.type = key.type == "hash" ? QByteArray("zset") : QByteArray("hash");
        QVERIFY2(!m.sameContent(other), name);
        QVERIFY2(!(m == MasterObservation(other, RecognizedLock())), name);
        QVERIFY2(m == MasterObservation(key, RecognizedLock()), name);
    }
}

void TestMasterObservation::sharedContentKeepsItsType()
{
    const MasterObservation first(read("ReJSON-RL"), RecognizedLock());
    KeyObservation later = read("ReJSON-RL");
    later.pttlMs = 5;
    const MasterObservation second = MasterObservation::sharingContent(first, later);
    QCOMPARE(second.type(), QByteArray("ReJSON-RL"));
    QCOMPARE(second.pttlMs(), 5);
    QVERIFY(second == first);
}

// A master that cannot be read keeps what it showed last, with the error beside it (both behind the
// one pointer an observation has); clearing the error gives the content back as it was, copies and
// moves keep each their own, and a reading shared from an unreachable master does not inherit its
// error. Run under ASan in CI: a reference count off by one is a leak or a use after free there.
void TestMasterObservation::anErrorKeepsTheContentShownLast()
{
    KeyObservation key = read("string");
    key.value = "tok-1";
    RecognizedLock lock;
    lock.token = "tok-1";
    const MasterObservation fresh(key, lock);
    QVERIFY(!fresh.error().isError());

    MasterObservation down = fresh;
    const RedisError timeout(ErrorKind::Timeout, QStringLiteral("m1"), QStringLiteral("no reply"));
    down.setError(timeout);
    QCOMPARE(down.error().kind, ErrorKind::Timeout);
    QCOMPARE(down.error().message, QStringLiteral("no reply"));
    QCOMPARE(down.value(), QByteArray("tok-1"));
    QCOMPARE(down.lock().token, QByteArray("tok-1"));
    QCOMPARE(down.pttlMs(), 30000);
    QVERIFY(!fresh.error().isError()); // the copy it came from is untouched
    QVERIFY(!(down == fresh));         // an error is a difference
    QCOMPARE(down.key().error.kind, ErrorKind::Timeout);

    // Another error replaces the first; copies and moves carry it.
    down.setError(RedisError(ErrorKind::ConnectionLost, QStringLiteral("m1"), QStringLiteral("refused")));
    MasterObservation copy = down;
    MasterObservation moved = std::move(copy);
    QCOMPARE(moved.error().message, QStringLiteral("refused"));
    copy = moved; // assigned back after the move
    QCOMPARE(copy.error().kind, ErrorKind::ConnectionLost);
    copy = copy; // self-assignment keeps it
    QCOMPARE(copy.value(), QByteArray("tok-1"));

    // Cleared, it is the reading it was.
    down.setError(RedisError());
    QVERIFY(!down.error().isError());
    QVERIFY(down == fresh);
    QCOMPARE(moved.error().kind, ErrorKind::ConnectionLost); // copies keep theirs

    // Another master's read of the same content shares it, without the error.
    KeyObservation other = key;
    other.pttlMs = 12000;
    const MasterObservation shared = MasterObservation::sharingContent(moved, other);
    QVERIFY(!shared.error().isError());
    QCOMPARE(shared.value(), QByteArray("tok-1"));
    QCOMPARE(shared.pttlMs(), 12000);
    QVERIFY(shared == fresh);
    other.error = timeout;
    QCOMPARE(MasterObservation::sharingContent(fresh, other).error().kind, ErrorKind::Timeout);

    // Nothing read yet, then unreachable: no content, the error only.
    MasterObservation never;
    never.setError(timeout);
    QCOMPARE(never.error().kind, ErrorKind::Timeout);
    QVERIFY(never.value().isNull());
    never.setError(RedisError());
    QVERIFY(never == MasterObservation());
}

// When the read went out (the recorder orders it against keyspace notes) shares the read time's
// word: kept to the millisecond, unknown when not given or when the round trip is beyond a few minutes.
void TestMasterObservation::whenTheReadWentOutIsKeptBesideItsTime()
{
    const qint64 bootMs = qint64(40) * 24 * 3600 * 1000; // a machine up for 40 days
    KeyObservation key = read("string");
    key.readAtMs = bootMs + 12;
    key.sentAtMs = bootMs + 3;
    MasterObservation m(key, RecognizedLock());
    QCOMPARE(m.readAtMs(), bootMs + 12);
    QCOMPARE(m.sentAtMs(), bootMs + 3);
    QCOMPARE(m.key().sentAtMs, bootMs + 3);
    QCOMPARE(MasterObservation(m).sentAtMs(), bootMs + 3);
    QCOMPARE(MasterObservation::sharingContent(m, key).sentAtMs(), bootMs + 3);
    m.setExpiry(20000, bootMs + 500, bootMs + 499);
    QCOMPARE(m.readAtMs(), bootMs + 500);
    QCOMPARE(m.sentAtMs(), bootMs + 499);
    QCOMPARE(m.pttlMs(), 20000);
    // Not given (an old caller), or a round trip of ten minutes: unknown, never a later time than true.
    m.setExpiry(20000, bootMs + 600);
    QCOMPARE(m.sentAtMs(), 0);
    m.setExpiry(20000, bootMs + 600000 + 700, bootMs + 700);
    QCOMPARE(m.sentAtMs(), 0);
    QCOMPARE(m.readAtMs(), bootMs + 600000 + 700);
    key.sentAtMs = 0;
    QCOMPARE(MasterObservation(key, RecognizedLock()).sentAtMs(), 0);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestMasterObservation)

} // namespace tst_masterobservation

#include "tst_masterobservation.moc"
