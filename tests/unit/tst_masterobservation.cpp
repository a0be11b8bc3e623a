#include "monitor/masterobservation.h"
#include "testregistry.h"

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

LOCKSCOPE_TEST_GUILESS_MAIN(TestMasterObservation)

} // namespace tst_masterobservation

#include "tst_masterobservation.moc"
