// SPDX-License-Identifier: Apache-2.0
// The audit log viewer: a torn line (an append cut short by a full disk) is skipped and reported,
// the records around it are all shown, and the default file of earlier versions is read as well.
#include "audit/auditlog.h"
#include "support/testregistry.h"
#include "writes/auditlogdialog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/resource.h>

namespace tst_uiauditlogdialog {

using namespace lockscope;

namespace {

AuditRecord record(const QString& action, const QByteArray& resource, const QString& time)
{
    AuditRecord r = AuditRecord::now(action, resource);
    r.time = QDateTime::fromString(time, Qt::ISODate);
    r.masters = {QStringLiteral("redis://127.0.0.1:7000")};
    r.token = QByteArray("tok");
    r.outcome = QStringLiteral("done");
    return r;
}

// An append that the "disk" cuts short after `room` bytes.
RedisError appendTorn(const AuditLog& log, const AuditRecord& r, qint64 room)
{
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit saved = {};
    ::getrlimit(RLIMIT_FSIZE, &saved);
    rlimit limit = saved;
    limit.rlim_cur = rlim_t(QFileInfo(log.path()).size() + room);
    ::setrlimit(RLIMIT_FSIZE, &limit);
    const RedisError error = log.append(r);
    ::setrlimit(RLIMIT_FSIZE, &saved);
    return error;
}

QStringList column(QTableWidget* table, int c)
{
    QStringList out;
    for (int r = 0; r < table->rowCount(); ++r)
        out << table->item(r, c)->text();
    return out;
}

} // namespace

class TestUiAuditLogDialog : public QObject
{
    Q_OBJECT

private slots:
    void tornLineIsSkippedAndReported();
    void oldDefaultFileIsStillRead();
};

void TestUiAuditLogDialog::tornLineIsSkippedAndReported()
{
    QTemporaryDir dir;
    const AuditLog log(dir.filePath(QStringLiteral("audit.jsonl")));
    QVERIFY(!log.append(record(QStringLiteral("acquire"), "lock:one", QStringLiteral("2026-01-01T10:00:00Z")))
                 .isError());
    QVERIFY(appendTorn(log,
                       record(QStringLiteral("extend"), "lock:torn", QStringLiteral("2026-01-01T10:00:01Z")),
                       30)
                .isError());
    QVERIFY(!log.append(record(QStringLiteral("release"), "lock:two", QStringLiteral("2026-01-01T10:00:02Z")))
                 .isError());

    AuditLogDialog dialog(log.path());
    QCOMPARE(column(dialog.table(), 3),
             (QStringList{QStringLiteral("lock:two"), QStringLiteral("lock:one")}));
    const QString status = dialog.statusLabel()->text();
    QVERIFY2(status.contains(QStringLiteral("torn")) && status.contains(QStringLiteral("line 2")),
             qPrintable(status));
}

void TestUiAuditLogDialog::oldDefaultFileIsStillRead()
{
    QTemporaryDir dir;
    const QByteArray savedState = qgetenv("XDG_STATE_HOME");
    const QByteArray savedData = qgetenv("XDG_DATA_HOME");
    qputenv("XDG_STATE_HOME", QFile::encodeName(dir.filePath(QStringLiteral("state"))));
    qputenv("XDG_DATA_HOME", QFile::encodeName(dir.filePath(QStringLiteral("data"))));
    const QString current = dir.filePath(QStringLiteral("state/lockscope/audit.jsonl"));
    const QString old = dir.filePath(QStringLiteral("data/lockscope/audit.jsonl"));
    QCOMPARE(AuditLog::defaultPath(), current);
    QCOMPARE(AuditLog::legacyDefaultPath(), old);
    QVERIFY(
        !AuditLog(old)
             .append(record(QStringLiteral("acquire"), "lock:old", QStringLiteral("2025-06-01T08:00:00Z")))
             .isError());
    QVERIFY(
        !AuditLog(current)
             .append(record(QStringLiteral("release"), "lock:new", QStringLiteral("2026-06-01T08:00:00Z")))
             .isError());

    AuditLogDialog dialog(AuditLog::defaultPath());
    QCOMPARE(column(dialog.table(), 3),
             (QStringList{QStringLiteral("lock:new"), QStringLiteral("lock:old")}));
    QVERIFY2(dialog.statusLabel()->text().contains(old), qPrintable(dialog.statusLabel()->text()));
    // Another file named explicitly: only that one.
    AuditLogDialog other(old);
    QCOMPARE(column(other.table(), 3), QStringList{QStringLiteral("lock:old")});
    qputenv("XDG_STATE_HOME", savedState);
    qputenv("XDG_DATA_HOME", savedData);
}

LOCKSCOPE_TEST_MAIN(TestUiAuditLogDialog)

} // namespace tst_uiauditlogdialog

#include "tst_uiauditlogdialog.moc"
