// SPDX-License-Identifier: Apache-2.0
// `lockctl list --json`, `watch --json` and the window's export write each lock with
// LockJson::appendLock, straight into a buffer: the bytes must be exactly what
// QJsonDocument::toJson(Compact) makes of the same object (members in its order, its escapes),
// with the caller's members merged in at their places, for every member that can appear and every
// byte a server can put in a key or token.
#include "base/bytesdisplay.h"
#include "config/configloader.h"
#include "diagnosis/diagnosisjson.h"
#include "export/jsontext.h"
#include "export/lockjson.h"
#include "support/heldobservation.h"
#include "support/testregistry.h"
#include "topology/masterset.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

namespace tst_lockjson {

using namespace lockscope;
using namespace lockscope::test;

class TestLockJson : public QObject
{
    Q_OBJECT

private slots:
    void writesTheLockAsQJsonDocumentWould_data();
    void writesTheLockAsQJsonDocumentWould();
    void callersMembersTakeTheirPlaces();
    void stringsEscapeAsQJsonDocument();
    void randomBytesEscapeAsQJsonDocument();
    void longTextsEscapeAsQJsonDocument();
};

void TestLockJson::writesTheLockAsQJsonDocumentWould_data()
{
    QTest::addColumn<QByteArray>("resource");
    QTest::addColumn<QByteArray>("token");
    QTest::addColumn<QString>("owner");
    QTest::addColumn<bool>("atRisk");
    QTest::addColumn<QString>("sentence");
    QTest::newRow("plain") << QByteArray("lock:m1") << QByteArray("00112233445566778899aabbccddeeff")
                           << QString() << false << QString();
    QTest::newRow("quotes and backslashes")
        << QByteArray("lock:\"a\\b\"") << QByteArray("t\"o\\k") << QStringLiteral("say \"hi\" \\ there")
        << true << QStringLiteral("a \"quoted\" sentence\twith a tab");
    QTest::newRow("control and invalid bytes")
        << QByteArray("lock:\x1b[31m\r\n\x00\x7f\xff", 15) << QByteArray("\x01\x02\xc3\x28", 4)
        << QStringLiteral("line\nbreak\x01") << false << QStringLiteral("bell\a");
    QTest::newRow("unicode") << QByteArray("lock:caf\xc3\xa9:\xe2\x80\xae") << QByteArray("tok\xe2\x82\xac")
                             << QStringLiteral("J\u00fcrgen \u202e") << true
                             << QStringLiteral("held \u2192 too long \U0001F512");
}

void TestLockJson::writesTheLockAsQJsonDocumentWould()
{
    QFETCH(QByteArray, resource);
    QFETCH(QByteArray, token);
    QFETCH(QString, owner);
    QFETCH(bool, atRisk);
    QFETCH(QString, sentence);
    QList<ConnectionOptions> options;
    for (const char* url : {"redis://127.0.0.1:1", "redis://127.0.0.1:2", "redis://127.0.0.1:3"}) {
        const Result<ConnectionOptions> o =
            ConfigLoader::masterFromUrl(QString::fromLatin1(url), TlsOptions(), 2000);
        QVERIFY(o.ok());
        options << *o;
    }
    const MasterSet masters(options);

    LockView view;
    view.resource = resource;
    view.status = LockStatus::Contested;
    view.format = LockFormat::PlainToken;
    view.token = token;
    view.owner = owner;
    view.holding = 1;
    view.needed = 2;
    view.total = 3;
    view.validityMs = 12345;
    view.computedAtMs = 1000;
    view.holders = {0};
    view.atRisk = atRisk;
    view.setAtRiskReason(owner + QStringLiteral(" restarted"));
    MasterObservation failed;
    failed.setError(RedisError(ErrorKind::Timeout, masters.at(2)->name(), QStringLiteral("timed \"out\"")));
    const QList<LockHolder> holders{{token, owner, 2, -1},
                                    {QByteArray("id\x1b"), QStringLiteral("b"), 1, -1}};
    view.observations = {
        heldObservation(token, 60000, 900, {}),
        heldObservation("other" + token, -1, 950, holders, "hash", true),
        failed,
    };
    for (const QList<Diagnosis>& diagnoses :
         {QList<Diagnosis>(), QList<Diagnosis>{{DiagnosisCode::Contested, sentence}}}) {
        for (const qint64 now : {qint64(1000), qint64(5000), qint64(100000)}) {
            std::string diagnosis;
            appendDiagnosisJson(diagnosis, diagnoses);
            std::string written;
            LockJson::appendLock(written, view, masters, now, {{"diagnosis", diagnosis}});
            const QByteArray bytes = QByteArray::fromStdString(written);
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
            QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
            // Qt's own writing of what it read: the same order, escapes and numbers to the byte.
            QCOMPARE(document.toJson(QJsonDocument::Compact), bytes);

            const QJsonObject lock = document.object();
            QStringList keys{QStringLiteral("diagnosis"), QStringLiteral("format"),
                             QStringLiteral("holders"),   QStringLiteral("observations"),
                             QStringLiteral("owner"),     QStringLiteral("quorum"),
                             QStringLiteral("resource"),  QStringLiteral("status"),
                             QStringLiteral("token"),     QStringLiteral("validityMs")};
            if (atRisk)
                keys << QStringLiteral("atRisk");
            keys.sort();
            QCOMPARE(lock.keys(), keys);
            if (atRisk)
                QCOMPARE(lock.value(QStringLiteral("atRisk")).toString(),
                         owner + QStringLiteral(" restarted"));
            QCOMPARE(lock.value(QStringLiteral("diagnosis")).toArray(), diagnosisJson(diagnoses));
            QCOMPARE(lock.value(QStringLiteral("format")).toString(), lockFormatName(LockFormat::PlainToken));
            QCOMPARE(lock.value(QStringLiteral("holders")).toArray(), QJsonArray{masters.at(0)->name()});
            QCOMPARE(lock.value(QStringLiteral("owner")).toString(), owner);
            QCOMPARE(lock.value(QStringLiteral("quorum")).toObject(),
                     (QJsonObject{{QStringLiteral("holding"), 1},
                                  {QStringLiteral("needed"), 2},
                                  {QStringLiteral("total"), 3}}));
            QCOMPARE(lock.value(QStringLiteral("resource")).toString(), escapeBytes(resource));
            QCOMPARE(lock.value(QStringLiteral("status")).toString(), lockStatusName(LockStatus::Contested));
            QCOMPARE(lock.value(QStringLiteral("token")).toString(), escapeBytes(token));
            QCOMPARE(lock.value(QStringLiteral("validityMs")).toInteger(),
                     qMax<qint64>(0, 12345 - (now - 1000)));

            const QJsonArray observations = lock.value(QStringLiteral("observations")).toArray();
            QCOMPARE(observations.size(), 3);
            // Counted down from its read at 900.
            QCOMPARE(observations.at(0).toObject(),
                     (QJsonObject{{QStringLiteral("master"), masters.at(0)->name()},
                                  {QStringLiteral("present"), true},
                                  {QStringLiteral("pttlMs"), qMax<qint64>(0, 60000 - (now - 900))},
                                  {QStringLiteral("token"), escapeBytes(token)},
                                  {QStringLiteral("type"), QStringLiteral("string")}}));
            QJsonArray lockHolders;
            for (const LockHolder& h : holders)
                lockHolders << QJsonObject{{QStringLiteral("count"), h.count},
                                           {QStringLiteral("id"), escapeBytes(h.id)},
                                           {QStringLiteral("owner"), h.owner}};
            QCOMPARE(observations.at(1).toObject(),
                     (QJsonObject{{QStringLiteral("lockHolders"), lockHolders},
                                  {QStringLiteral("master"), masters.at(1)->name()},
                                  {QStringLiteral("present"), true},
                                  {QStringLiteral("pttlMs"), -1},
                                  {QStringLiteral("token"), escapeBytes("other" + token)},
                                  {QStringLiteral("truncated"), true},
                                  {QStringLiteral("type"), QStringLiteral("hash")}}));
            QCOMPARE(observations.at(2).toObject(),
                     (QJsonObject{{QStringLiteral("error"), QStringLiteral("timed \"out\"")},
                                  {QStringLiteral("master"), masters.at(2)->name()},
                                  {QStringLiteral("present"), false}}));
        }
    }
}

// watch's "event" and "time" (and list's "diagnosis") land where QJsonObject's order puts them,
// before, between and after the lock's own members.
void TestLockJson::callersMembersTakeTheirPlaces()
{
    const Result<ConnectionOptions> o =
        ConfigLoader::masterFromUrl(QStringLiteral("redis://127.0.0.1:1"), TlsOptions(), 2000);
    QVERIFY(o.ok());
    const MasterSet masters(QList<ConnectionOptions>{*o});
    LockView view;
    view.resource = "lock:a";
    view.token = "t";
    view.holders = {0};
    view.observations = {heldObservation("t", 5000, 0, {})};
    view.atRisk = true;
    view.setAtRiskReason(QStringLiteral("restarted"));
    std::string written;
    LockJson::appendLock(
        written, view, masters, 0,
        {{"aaa", "1"}, {"diagnosis", "[]"}, {"event", "\"added\""}, {"time", "\"now\""}, {"zzz", "null"}});
    const QByteArray bytes = QByteArray::fromStdString(written);
    const QJsonDocument document = QJsonDocument::fromJson(bytes);
    QCOMPARE(document.toJson(QJsonDocument::Compact), bytes);
    const QJsonObject lock = document.object();
    QCOMPARE(lock.value(QStringLiteral("aaa")).toInt(), 1);
    QCOMPARE(lock.value(QStringLiteral("diagnosis")).toArray(), QJsonArray());
    QCOMPARE(lock.value(QStringLiteral("event")).toString(), QStringLiteral("added"));
    QCOMPARE(lock.value(QStringLiteral("time")).toString(), QStringLiteral("now"));
    QVERIFY(lock.value(QStringLiteral("zzz")).isNull());
    QCOMPARE(lock.value(QStringLiteral("atRisk")).toString(), QStringLiteral("restarted"));
    QCOMPARE(lock.value(QStringLiteral("resource")).toString(), QStringLiteral("lock:a"));
}

void TestLockJson::stringsEscapeAsQJsonDocument()
{
    // Every code unit below 0x100, a lone surrogate and a pair, one by one.
    QList<QString> texts;
    for (char16_t c = 0; c < 0x100; ++c)
        texts << QStringLiteral("a") + QChar(c) + QStringLiteral("b");
    texts << QString(QChar(0xd800)) << QStringLiteral("\U0001F512") << QString();
    for (const QString& text : texts) {
        const QByteArray doc = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
        std::string written;
        JsonText::appendString(written, text);
        QCOMPARE(QByteArray::fromStdString(written), doc.mid(1, doc.size() - 2));
    }
    for (int b = 0; b < 0x100; ++b) {
        const QByteArray bytes = "k" + QByteArray(1, char(b)) + "\"";
        const QByteArray doc = QJsonDocument(QJsonArray{escapeBytes(bytes)}).toJson(QJsonDocument::Compact);
        std::string written;
        JsonText::appendBytes(written, bytes);
        QCOMPARE(QByteArray::fromStdString(written), doc.mid(1, doc.size() - 2));
    }
}

// Mixed runs of controls, quotes, backslashes and text, mostly ASCII (written without escapeBytes'
// QString) and sometimes not: the same JSON as Qt's writer of escapeBytes' text either way.
void TestLockJson::randomBytesEscapeAsQJsonDocument()
{
    QRandomGenerator rng(19);
    for (int i = 0; i < 3000; ++i) {
        QByteArray bytes(rng.bounded(24), Qt::Uninitialized);
        const bool beyondAscii = i % 4 == 0;
        for (char& c : bytes)
            c = char(rng.bounded(beyondAscii ? 256 : 128));
        const QByteArray doc = QJsonDocument(QJsonArray{escapeBytes(bytes)}).toJson(QJsonDocument::Compact);
        std::string written = "x";
        JsonText::appendBytes(written, bytes);
        QCOMPARE(QByteArray::fromStdString(written), "x" + doc.mid(1, doc.size() - 2));
        std::string text;
        JsonText::appendString(text, escapeBytes(bytes));
        QCOMPARE(QByteArray::fromStdString(text), doc.mid(1, doc.size() - 2));
    }
}

// Sentences of any length (written eight code units at a time where the CPU can, the rest one by
// one), with quotes, backslashes and controls anywhere in them, and now and then beyond ASCII.
void TestLockJson::longTextsEscapeAsQJsonDocument()
{
    const QList<char16_t> alphabet{u'a',  u'Z',    u' ',    u'7',    u'"', u'\\',
                                   u'\n', u'\x01', u'\x1f', u'\x7f', u'~'};
    QRandomGenerator rng(23);
    for (int i = 0; i < 3000; ++i) {
        QString text(rng.bounded(80), Qt::Uninitialized);
        const bool plain = i % 3 == 0; // only letters, quotes and backslashes
        for (QChar& c : text)
            c = QChar(alphabet.at(rng.bounded(plain ? 7 : qsizetype(alphabet.size()))));
        if (i % 10 == 1 && !text.isEmpty())
            text[rng.bounded(text.size())] = QChar(i % 20 == 1 ? 0x00e9 : 0x8000);
        const QByteArray doc = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
        std::string written = "x";
        JsonText::appendString(written, text);
        QCOMPARE(QByteArray::fromStdString(written), "x" + doc.mid(1, doc.size() - 2));
    }
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockJson)

} // namespace tst_lockjson

#include "tst_lockjson.moc"
