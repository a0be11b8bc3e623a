#include "auditlog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace lockscope;

class TestAuditLog : public QObject
{
    Q_OBJECT

private slots:
    void appendsOneJsonLinePerRecord();
    void neverTruncatesWhatIsThere();
    void createsDirectoryAndPrivateFile();
    void unwritablePathIsAnError();
};

namespace {

AuditRecord sample(const QString& action)
{
    AuditRecord r = AuditRecord::now(action, "res:1");
    r.masters = {QStringLiteral("redis://127.0.0.1:7000"), QStringLiteral("redis://127.0.0.1:7001")};
    r.token = QByteArray("me@host:1/0123456789abcdef0123456789abcdef");
    r.outcome = QStringLiteral("done");
    r.results = {
        {QStringLiteral("redis://127.0.0.1:7000"), QStringLiteral("locked"), std::nullopt, QString()},
        {QStringLiteral("redis://127.0.0.1:7001"), QStringLiteral("timeout"), std::nullopt,
         QStringLiteral("no answer in time")}};
    return r;
}

} // namespace

void TestAuditLog::appendsOneJsonLinePerRecord()
{
    QTemporaryDir dir;
    const AuditLog log(dir.filePath(QStringLiteral("audit.jsonl")));
    QVERIFY(!log.append(sample(QStringLiteral("acquire"))).isError());
    AuditRecord force = sample(QStringLiteral("force-release"));
    force.token.reset();
    force.tokenBefore = QByteArray("theirs");
    force.expectedToken = QByteArray("theirs");
    force.mode = QStringLiteral("expect-token");
    force.results.first().tokenBefore = QByteArray("theirs");
    QVERIFY(!log.append(force).isError());

    QFile file(log.path());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QCOMPARE(lines.size(), 3); // two lines and the empty rest after the last newline
    QVERIFY(lines.last().isEmpty());
    const QJsonObject first = QJsonDocument::fromJson(lines.at(0)).object();
    QCOMPARE(first.value(QStringLiteral("action")).toString(), QStringLiteral("acquire"));
    QCOMPARE(first.value(QStringLiteral("resource")).toString(), QStringLiteral("res:1"));
    QVERIFY(first.value(QStringLiteral("expectedToken")).isNull());
    QVERIFY(!first.value(QStringLiteral("user")).toString().isEmpty());
    QVERIFY(first.value(QStringLiteral("time")).toString().endsWith(QLatin1Char('Z')));
    QCOMPARE(
        first.value(QStringLiteral("results")).toArray().at(1).toObject().value(QStringLiteral("detail")),
        QStringLiteral("no answer in time"));
    const QJsonObject second = QJsonDocument::fromJson(lines.at(1)).object();
    QVERIFY(second.value(QStringLiteral("token")).isNull());
    QCOMPARE(second.value(QStringLiteral("expectedToken")).toString(), QStringLiteral("theirs"));
    QCOMPARE(second.value(QStringLiteral("mode")).toString(), QStringLiteral("expect-token"));
    QCOMPARE(second.value(QStringLiteral("results"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("tokenBefore")),
             QStringLiteral("theirs"));
}

void TestAuditLog::neverTruncatesWhatIsThere()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"earlier\":true}\n");
    }
    const AuditLog log(path);
    QVERIFY(!log.check().isError());
    QVERIFY(!log.append(sample(QStringLiteral("release"))).isError());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readLine().startsWith("{\"earlier\":true}"));
    QVERIFY(QJsonDocument::fromJson(file.readLine()).object().contains(QStringLiteral("action")));
}

void TestAuditLog::createsDirectoryAndPrivateFile()
{
    QTemporaryDir dir;
    const AuditLog log(dir.filePath(QStringLiteral("a/b/audit.jsonl")));
    QVERIFY(!log.append(sample(QStringLiteral("extend"))).isError());
    struct stat info = {};
    QCOMPARE(::stat(QFile::encodeName(log.path()).constData(), &info), 0);
    QCOMPARE(info.st_mode & 0777, 0600u);
}

void TestAuditLog::unwritablePathIsAnError()
{
    QTemporaryDir dir;
    QFile blocker(dir.filePath(QStringLiteral("file")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const AuditLog log(
        dir.filePath(QStringLiteral("file/audit.jsonl"))); // a file where a directory should be
    QCOMPARE(log.check().kind, ErrorKind::Io);
    QCOMPARE(log.append(sample(QStringLiteral("acquire"))).kind, ErrorKind::Io);
    QCOMPARE(AuditLog(QString()).check().kind, ErrorKind::Io);
}

QTEST_GUILESS_MAIN(TestAuditLog)
#include "tst_auditlog.moc"
