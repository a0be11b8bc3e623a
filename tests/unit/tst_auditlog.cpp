// SPDX-License-Identifier: Apache-2.0
#include "audit/auditlog.h"
#include "audit/auditreader.h"
#include "audit/writegate.h"
#include "base/bytesdisplay.h"
#include "support/filesizelimit.h"
#include "support/testregistry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

namespace tst_auditlog {

using namespace lockscope;
using namespace lockscope::test;

class TestAuditLog : public QObject
{
    Q_OBJECT

private slots:
    void appendsOneJsonLinePerRecord();
    void neverTruncatesWhatIsThere();
    void createsDirectoryAndPrivateFile();
    void unwritablePathIsAnError();
    void tornLineNeverMergesTwoRecords();
    void directoriesAreCreatedPrivate();
    void symbolicLinkIsRefused();
    void sharedFileIsRefusedUnlessAllowed();
    void namesAndTokensAreByteExact();
    void defaultPathFollowsXdgState();
    void gateRefusesBeforeAnyWrite();
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
    QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner)); // as AuditLog made it
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

namespace {

QList<QByteArray> linesOf(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<QByteArray> lines = file.readAll().split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

} // namespace

void TestAuditLog::tornLineNeverMergesTwoRecords()
{
    QTemporaryDir dir;
    const AuditLog log(dir.filePath(QStringLiteral("audit.jsonl")));
    QVERIFY(!log.append(sample(QStringLiteral("acquire"))).isError());
    const qint64 size = QFileInfo(log.path()).size();
    {
        // The disk fills up 20 bytes into the next record: a short write, a torn line.
        const FileSizeLimit full(rlim_t(size + 20));
        const RedisError error = log.append(sample(QStringLiteral("extend")));
        QCOMPARE(error.kind, ErrorKind::Io);
        QVERIFY2(error.message.contains(QStringLiteral("20 of")), qPrintable(error.message));
    }
    QCOMPARE(QFileInfo(log.path()).size(), size + 20);
    // Space again: the next record starts on a line of its own.
    QVERIFY(!log.append(sample(QStringLiteral("release"))).isError());
    const QList<QByteArray> lines = linesOf(log.path());
    QCOMPARE(lines.size(), 3);
    QCOMPARE(QJsonDocument::fromJson(lines.at(0)).object().value(QStringLiteral("action")).toString(),
             QStringLiteral("acquire"));
    QVERIFY(QJsonDocument::fromJson(lines.at(1)).isNull()); // the torn one, alone
    QCOMPARE(QJsonDocument::fromJson(lines.at(2)).object().value(QStringLiteral("action")).toString(),
             QStringLiteral("release"));
    // A reader skips it and says where it was.
    const AuditReader::Tail tail = AuditReader::read(log.path(), 100);
    QCOMPARE(tail.records.size(), 2);
    QCOMPARE(tail.tornLines, QList<qint64>{2});
}

void TestAuditLog::directoriesAreCreatedPrivate()
{
    QTemporaryDir dir;
    const AuditLog log(dir.filePath(QStringLiteral("state/lockscope/audit.jsonl")));
    QVERIFY(!log.check().isError());
    for (const QString& d : {QStringLiteral("state"), QStringLiteral("state/lockscope")}) {
        struct stat info = {};
        QCOMPARE(::stat(QFile::encodeName(dir.filePath(d)).constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0700u);
    }
}

void TestAuditLog::symbolicLinkIsRefused()
{
    QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("elsewhere"));
    const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
    QVERIFY(QFile::link(target, path));
    const AuditLog log(path);
    const RedisError error = log.check();
    QCOMPARE(error.kind, ErrorKind::Io);
    QVERIFY2(error.message.contains(QStringLiteral("symbolic link")), qPrintable(error.message));
    QCOMPARE(log.append(sample(QStringLiteral("acquire"))).kind, ErrorKind::Io);
    QVERIFY(!QFile::exists(target)); // nothing created or written through the link
}

void TestAuditLog::sharedFileIsRefusedUnlessAllowed()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("audit.jsonl"));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    QCOMPARE(::chmod(QFile::encodeName(path).constData(), 0644), 0);
    const AuditLog log(path);
    const RedisError error = log.check();
    QCOMPARE(error.kind, ErrorKind::Io);
    QVERIFY2(error.message.contains(QStringLiteral("0644")), qPrintable(error.message));
    QCOMPARE(log.append(sample(QStringLiteral("acquire"))).kind, ErrorKind::Io);
    QCOMPARE(QFileInfo(path).size(), 0);
    QVERIFY(log.permissionProblem().contains(QStringLiteral("readable")));
    // The user said so: written, and still reported.
    const AuditLog shared(path, true);
    QVERIFY(!shared.check().isError());
    QVERIFY(!shared.append(sample(QStringLiteral("acquire"))).isError());
    QVERIFY(!shared.permissionProblem().isEmpty());
}

void TestAuditLog::namesAndTokensAreByteExact()
{
    QTemporaryDir dir;
    const AuditLog log(dir.filePath(QStringLiteral("audit.jsonl")));
    const QList<QByteArray> names{QByteArray("lock:\xff"), QByteArray("lock:\xfe"), QByteArray("lock:\\xff"),
                                  QByteArray("lock:a\0b", 8)};
    for (const QByteArray& name : names) {
        AuditRecord r = sample(QStringLiteral("force-release"));
        r.resource = name;
        r.token = name + "-token";
        r.tokenBefore = QByteArray("\x01\x02");
        r.results.first().tokenBefore = name;
        QVERIFY(!log.append(r).isError());
    }
    const QList<QByteArray> lines = linesOf(log.path());
    QCOMPARE(lines.size(), names.size());
    QSet<QString> seen;
    for (int i = 0; i < names.size(); ++i) {
        const QJsonObject o = QJsonDocument::fromJson(lines.at(i)).object();
        const QString resource = o.value(QStringLiteral("resource")).toString();
        QCOMPARE(resource, escapeBytes(names.at(i)));
        QVERIFY2(!resource.contains(QChar(0xfffd)), qPrintable(resource));
        QCOMPARE(*unescapeBytes(resource), names.at(i)); // every byte is there
        QCOMPARE(o.value(QStringLiteral("token")).toString(), escapeBytes(names.at(i) + "-token"));
        QCOMPARE(o.value(QStringLiteral("tokenBefore")).toString(), QStringLiteral("\\x01\\x02"));
        QCOMPARE(o.value(QStringLiteral("results"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("tokenBefore"))
                     .toString(),
                 escapeBytes(names.at(i)));
        seen.insert(resource);
    }
    QCOMPARE(seen.size(), names.size()); // two different keys never give the same record
}

void TestAuditLog::defaultPathFollowsXdgState()
{
    const QByteArray saved = qgetenv("XDG_STATE_HOME");
    qputenv("XDG_STATE_HOME", "/srv/state");
    QCOMPARE(AuditLog::defaultPath(), QStringLiteral("/srv/state/lockscope/audit.jsonl"));
    qputenv("XDG_STATE_HOME", "relative/state"); // invalid by the spec: ignored
    QCOMPARE(AuditLog::defaultPath(),
             QDir::homePath() + QStringLiteral("/.local/state/lockscope/audit.jsonl"));
    qunsetenv("XDG_STATE_HOME");
    QCOMPARE(AuditLog::defaultPath(),
             QDir::homePath() + QStringLiteral("/.local/state/lockscope/audit.jsonl"));
    QVERIFY(AuditLog::legacyDefaultPath().endsWith(QStringLiteral("/lockscope/audit.jsonl")));
    QVERIFY(AuditLog::legacyDefaultPath() != AuditLog::defaultPath());
    if (!saved.isEmpty())
        qputenv("XDG_STATE_HOME", saved);
}

void TestAuditLog::gateRefusesBeforeAnyWrite()
{
    QTemporaryDir dir;
    QFile blocker(dir.filePath(QStringLiteral("file")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const AuditLog unwritable(dir.filePath(QStringLiteral("file/audit.jsonl")));
    const AuditLog fine(dir.filePath(QStringLiteral("audit.jsonl")));
    QCOMPARE(WriteGate(true, &fine).admit(QStringLiteral("acquire")).kind, ErrorKind::ReadOnlyMode);
    QCOMPARE(WriteGate(true, nullptr).admit(QStringLiteral("acquire")).kind, ErrorKind::ReadOnlyMode);
    const RedisError refused = WriteGate(false, &unwritable).admit(QStringLiteral("acquire"));
    QCOMPARE(refused.kind, ErrorKind::Io);
    QVERIFY2(refused.message.contains(QStringLiteral("nothing was sent")), qPrintable(refused.message));
    QVERIFY(!WriteGate(false, &fine).admit(QStringLiteral("acquire")).isError());
    QVERIFY(!WriteGate(false, nullptr).admit(QStringLiteral("acquire")).isError());
    QCOMPARE(WriteGate(false, &unwritable).record(sample(QStringLiteral("acquire"))).kind, ErrorKind::Io);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestAuditLog)

} // namespace tst_auditlog

#include "tst_auditlog.moc"
