// The streaming `lockctl list --json` writes each lock with LockJsonWriter instead of a QJsonObject:
// the bytes must be exactly what QJsonDocument::toJson(Compact) made of LockJson::lock() plus its
// "diagnosis", for every member that can appear and every byte a server can put in a key or token.
#include "base/bytesdisplay.h"
#include "config/configloader.h"
#include "diagnosis/diagnosisjson.h"
#include "export/jsontext.h"
#include "export/lockjson.h"
#include "export/lockjsonwriter.h"
#include "heldobservation.h"
#include "testregistry.h"
#include "topology/masterset.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

namespace tst_lockjsonwriter {

using namespace lockscope;
using namespace lockscope::test;

class TestLockJsonWriter : public QObject
{
    Q_OBJECT

private slots:
    void writesWhatQJsonDocumentWrote_data();
    void writesWhatQJsonDocumentWrote();
    void stringsEscapeAsQJsonDocument();
    void randomBytesEscapeAsQJsonDocument();
    void longTextsEscapeAsQJsonDocument();
};

void TestLockJsonWriter::writesWhatQJsonDocumentWrote_data()
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

void TestLockJsonWriter::writesWhatQJsonDocumentWrote()
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
    view.observations = {
        heldObservation(token, 60000, 900, {}),
        heldObservation("other" + token, -1, 950,
                        {{token, owner, 2, -1}, {QByteArray("id\x1b"), QStringLiteral("b"), 1, -1}}, "hash",
                        true),
        failed,
    };
    for (const QList<Diagnosis>& diagnoses :
         {QList<Diagnosis>(), QList<Diagnosis>{{DiagnosisCode::Contested, sentence}}}) {
        for (const qint64 now : {qint64(1000), qint64(5000), qint64(100000)}) {
            QJsonObject object = LockJson::lock(view, masters, now);
            object.insert(QStringLiteral("diagnosis"), diagnosisJson(diagnoses));
            const QByteArray expected = QJsonDocument(object).toJson(QJsonDocument::Compact);
            std::string diagnosis;
            appendDiagnosisJson(diagnosis, diagnoses);
            std::string written;
            LockJsonWriter::appendLock(written, view, masters, now, diagnosis);
            QCOMPARE(QByteArray::fromStdString(written), expected);
        }
    }
}

void TestLockJsonWriter::stringsEscapeAsQJsonDocument()
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
void TestLockJsonWriter::randomBytesEscapeAsQJsonDocument()
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
void TestLockJsonWriter::longTextsEscapeAsQJsonDocument()
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

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockJsonWriter)

} // namespace tst_lockjsonwriter

#include "tst_lockjsonwriter.moc"
