// SPDX-License-Identifier: Apache-2.0
#include "record/recordingdatabase.h"

#include "audit/auditlog.h"
#include "base/privatefile.h"
#include "record/sqlitestatement.h"

#include <QAtomicInteger>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QVariant>

#include <fcntl.h>
#include <memory>
#include <sqlite3.h>
#include <sys/stat.h>

namespace lockscope {

namespace {

QAtomicInteger<quint64> connectionCounter;

struct BackupFinish
{
    void operator()(sqlite3_backup* backup) const { sqlite3_backup_finish(backup); }
};

// A file SQLite opens by URI: percent-encoded, so that '?' or '#' in a name stay part of it.
QString uriOf(const QString& path, const char* parameters)
{
    return QStringLiteral("file:") +
           QString::fromLatin1(QUrl::toPercentEncoding(QFileInfo(path).absoluteFilePath(), "/")) +
           QLatin1Char('?') + QLatin1String(parameters);
}

} // namespace

RecordingDatabase::RecordingDatabase()
    : m_connectionName(QStringLiteral("lockscope-recording-%1").arg(connectionCounter.fetchAndAddRelaxed(1)))
{}

RecordingDatabase::~RecordingDatabase()
{
    close();
}

void RecordingDatabase::close()
{
    if (m_team) {
        m_db = QSqlDatabase(); // a handle on the team database's connection, which it closes
        m_team.reset();
    }
    if (m_db.isValid())
        m_db.close();
    m_db = QSqlDatabase();
    if (QSqlDatabase::contains(m_connectionName))
        QSqlDatabase::removeDatabase(m_connectionName);
}

QString RecordingDatabase::defaultPath()
{
    return QFileInfo(AuditLog::defaultPath()).absolutePath() + QStringLiteral("/recording.sqlite");
}

QString RecordingDatabase::demoPath()
{
    return QFileInfo(AuditLog::defaultPath()).absolutePath() + QStringLiteral("/demo-recording.sqlite");
}

RedisError RecordingDatabase::error(const QString& what, const QString& detail) const
{
    return {ErrorKind::Io, QString(), QStringLiteral("%1: %2: %3").arg(m_path, what, detail)};
}

RedisError RecordingDatabase::connect(const QString& name, const QString& options)
{
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return error(QStringLiteral("cannot open"),
                     QStringLiteral("Qt's SQLite driver is missing (Debian: libqt6sql6-sqlite)"));
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    m_db.setDatabaseName(name);
    m_db.setConnectOptions(options);
    if (!m_db.open())
        return error(QStringLiteral("cannot open"), m_db.lastError().text());
    return {};
}

RedisError RecordingDatabase::harden(Use use)
{
    sqlite3* handle = SqliteStatement::handle(m_db);
    if (!handle)
        return error(QStringLiteral("cannot open"), QStringLiteral("not an SQLite connection"));
    // Defensive mode: no statement can corrupt the file (writable_schema, journal_mode=OFF...).
    // Untrusted schema: functions with side effects never run from the file's own schema. No
    // triggers or views run at all: a recording has none (RecordingSchema refuses them too).
    for (const int option : {SQLITE_DBCONFIG_DEFENSIVE, SQLITE_DBCONFIG_TRUSTED_SCHEMA,
                             SQLITE_DBCONFIG_ENABLE_TRIGGER, SQLITE_DBCONFIG_ENABLE_VIEW}) {
        const int on = option == SQLITE_DBCONFIG_DEFENSIVE ? 1 : 0;
        int now = -1;
        if (sqlite3_db_config(handle, option, on, &now) != SQLITE_OK || now != on)
            return error(QStringLiteral("cannot protect the connection"),
                         QStringLiteral("sqlite3_db_config(%1) refused").arg(option));
    }
    if (use == Use::Read) {
        // Bounded: no value larger than this is read (a token, a name, a session's masters).
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, maxValueBytes);
        if (RedisError e = exec(QStringLiteral("PRAGMA cell_size_check = ON")))
            return e;
    }
    return exec(QStringLiteral("PRAGMA trusted_schema = OFF"));
}

RedisError RecordingDatabase::checkSchema(int* version)
{
    const QVariant found = scalar(QStringLiteral("PRAGMA user_version"));
    if (!found.isValid())
        return error(QStringLiteral("not a readable SQLite database"), m_db.lastError().text());
    *version = found.toInt();
    if (*version > schemaVersion && *version <= schemaVersion + 1000)
        return error(QStringLiteral("written by a newer LockScope"),
                     QStringLiteral("schema version %1, this one reads up to version %2; open it with "
                                    "that LockScope or a newer one")
                         .arg(*version)
                         .arg(schemaVersion));
    if (const QString problem = RecordingSchema::problem(m_db, *version); !problem.isEmpty())
        return error(QStringLiteral("not a LockScope recording"), problem);
    return {};
}

RedisError RecordingDatabase::notAFile(const QString& path)
{
    // `postgresql://user@host/db` taken for a file name made a folder `postgresql:` in the working
    // directory and a SQLite file in it (issue #45). The URL is never repeated: it may hold a password.
    static const QRegularExpression url(QStringLiteral("^([A-Za-z][A-Za-z0-9+.-]*)://"));
    const QRegularExpressionMatch m = url.match(path);
    if (!m.hasMatch())
        return {};
    return {
        ErrorKind::InvalidArgument, QString(),
        QStringLiteral("a %1:// URL is not a recording this version can open: a recording is a SQLite "
                       "file, named by its path, or a PostgreSQL database (postgresql://USER@HOST/DBNAME)")
            .arg(m.captured(1).toLower())};
}

RedisError RecordingDatabase::open(const QString& path, bool mustExist, int upToVersion, bool allowShared)
{
    if (RedisError e = notAFile(path))
        return e;
    m_path = path;
    close();
    struct stat before = {};
    if (mustExist && ::lstat(QFile::encodeName(path).constData(), &before) != 0)
        return error(QStringLiteral("cannot open"), QStringLiteral("no such file"));
    // The user's own private file, never through a symbolic link; created 0600 before SQLite sees
    // it (SQLite would create it 0644 under the usual umask, and gives its -wal and -shm the same
    // mode). Kept open until SQLite has it, to see that SQLite opened this same file.
    const PrivateFile::Rules rules{QStringLiteral("recording"),
                                   QStringLiteral("it holds every holder's token and owner"),
                                   QStringLiteral("--allow-shared-recording"), allowShared};
    RedisError refused;
    const FileDescriptor fd = PrivateFile::open(path, O_RDWR | (mustExist ? 0 : O_CREAT), rules, &refused);
    if (!fd.isValid())
        return refused;
    if (RedisError e = connect(path, QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000")))
        return e;
    struct stat checked = {}, opened = {};
    if (::fstat(fd.get(), &checked) != 0 || ::lstat(QFile::encodeName(path).constData(), &opened) != 0 ||
        checked.st_dev != opened.st_dev || checked.st_ino != opened.st_ino)
        return error(QStringLiteral("cannot open"),
                     QStringLiteral("the file was replaced while it was opened"));
    if (RedisError e = harden(Use::Write))
        return e;
    // Checked before anything is written to it: a file that is not a recording stays as it was.
    int version = 0;
    if (RedisError e = checkSchema(&version))
        return e;
    m_fileVersion = version;
    // auto_vacuum takes effect only before the first table: on a new file it makes pruning give
    // space back (incremental_vacuum), on an existing one it is a no-op.
    for (const QString& pragma :
         {QStringLiteral("PRAGMA auto_vacuum = INCREMENTAL"), QStringLiteral("PRAGMA synchronous = NORMAL"),
          // 4 MiB of pages. 16 kept the recent pages of the per-resource index, but cost the window
          // 7 MB at 100k locks, and the writer's CPU at 200k resources and 20k changes a second is
          // the same with 4 (recorder-bench --resources 200000: 17.6 % of a core, 17.1 with 16):
          // the pages it reads again come from the OS's cache.
          QStringLiteral("PRAGMA cache_size = -4096"), QStringLiteral("PRAGMA journal_size_limit = 4194304")})
        if (RedisError e = exec(pragma))
            return e;
    const QString mode = scalar(QStringLiteral("PRAGMA journal_mode = WAL")).toString();
    if (mode.compare(QLatin1String("wal"), Qt::CaseInsensitive) != 0)
        return error(QStringLiteral("cannot switch to WAL mode"),
                     mode.isEmpty() ? m_db.lastError().text() : mode);
    return migrate(version, qBound(0, upToVersion, int(schemaVersion)));
}

RedisError RecordingDatabase::openTeamDatabase(const QString& text, const QString& password)
{
    close();
    const Result<TeamDatabaseUrl> url = TeamDatabaseUrl::parse(text);
    if (!url)
        return url.error();
    m_path = url->toString(); // named without a password, always
    m_team = std::make_unique<TeamDatabase>();
    if (RedisError e = m_team->open(*url, password)) {
        m_team.reset();
        return e;
    }
    m_db = m_team->db();
    m_fileVersion = schemaVersion;
    // Readers read: the server refuses a write on this connection, whatever the role may do.
    if (RedisError e = exec(QStringLiteral("SET default_transaction_read_only = on"))) {
        close();
        return e;
    }
    return {};
}

RedisError RecordingDatabase::openForReading(const QString& path, const QString& password)
{
    if (TeamDatabaseUrl::isPostgresUrl(path))
        return openTeamDatabase(path, password);
    if (RedisError e = notAFile(path))
        return e;
    m_path = path;
    close();
    const QFileInfo info(path);
    if (!info.exists())
        return error(QStringLiteral("cannot open"), QStringLiteral("no such file"));
    if (!info.isFile())
        return error(QStringLiteral("cannot open"), QStringLiteral("not a regular file"));
    // Read-only: nothing a reader does writes to the file. A WAL file is read through its -shm,
    // which a read-only connection cannot create where the directory is not writable (a copy kept
    // as evidence): without -wal and -shm nobody is writing it, and it is read as immutable (no
    // locks, no -shm); with them, a recorder may be writing, and it is read alongside.
    const bool walInUse =
        QFileInfo::exists(path + QStringLiteral("-wal")) || QFileInfo::exists(path + QStringLiteral("-shm"));
    if (RedisError e =
            connect(uriOf(path, walInUse ? "mode=ro" : "immutable=1"),
                    QStringLiteral("QSQLITE_OPEN_URI;QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000")))
        return e;
    if (RedisError e = harden(Use::Read))
        return e;
    int version = 0;
    if (RedisError e = checkSchema(&version))
        return e;
    m_fileVersion = version;
    if (version == 0)
        return error(QStringLiteral("not a LockScope recording"),
                     QStringLiteral("schema version 0: no recording schema (nothing was recorded in it)"));
    if (version < schemaVersion)
        if (RedisError e = upgradeInMemory())
            return e;
    return exec(QStringLiteral("PRAGMA query_only = ON"));
}

RedisError RecordingDatabase::upgradeInMemory()
{
    // Reading an older recording in place would mean upgrading it, changing the file (and its
    // hash, when it is evidence): the upgrade is made in a copy in memory instead, bounded.
    const qint64 bytes = scalar(QStringLiteral("PRAGMA page_count")).toLongLong() *
                         scalar(QStringLiteral("PRAGMA page_size")).toLongLong();
    if (bytes > maxUpgradeInMemoryBytes)
        return error(QStringLiteral("written by an older LockScope"),
                     QStringLiteral("schema version %1 (this one writes %2); at %3 MiB it is too large to "
                                    "read through a copy in memory (%4 MiB at most): read it with the "
                                    "LockScope that wrote it, or upgrade a copy of it with `lockctl record "
                                    "--db COPY`")
                         .arg(m_fileVersion)
                         .arg(schemaVersion)
                         .arg(bytes >> 20)
                         .arg(maxUpgradeInMemoryBytes >> 20));
    const QString fileConnection = m_connectionName;
    QSqlDatabase file = m_db;
    m_connectionName += QStringLiteral("-memory");
    RedisError failed = connect(QStringLiteral(":memory:"), QString());
    if (!failed) {
        sqlite3* from = SqliteStatement::handle(file);
        sqlite3* to = SqliteStatement::handle(m_db);
        const std::unique_ptr<sqlite3_backup, BackupFinish> backup(
            from && to ? sqlite3_backup_init(to, "main", from, "main") : nullptr);
        const int rc = backup ? sqlite3_backup_step(backup.get(), -1) : SQLITE_ERROR;
        if (rc != SQLITE_DONE)
            failed = error(QStringLiteral("cannot copy it to upgrade it in memory"),
                           QString::fromUtf8(sqlite3_errstr(rc)));
    }
    file.close();
    file = QSqlDatabase();
    QSqlDatabase::removeDatabase(fileConnection);
    if (failed)
        return failed;
    if (RedisError e = harden(Use::Read))
        return e;
    return migrate(m_fileVersion, schemaVersion);
}

RedisError RecordingDatabase::migrate(int fromVersion, int upToVersion)
{
    for (int v = fromVersion; v < upToVersion; ++v) {
        if (!m_db.transaction())
            return error(QStringLiteral("cannot migrate"), m_db.lastError().text());
        for (const QString& sql : RecordingSchema::migrationStep(v))
            if (RedisError e = exec(sql)) {
                m_db.rollback();
                return e;
            }
        // PRAGMA takes no bound values; the number is ours.
        if (RedisError e = exec(QStringLiteral("PRAGMA user_version = %1").arg(v + 1))) {
            m_db.rollback();
            return e;
        }
        if (!m_db.commit())
            return error(QStringLiteral("cannot migrate"), m_db.lastError().text());
    }
    return {};
}

RedisError RecordingDatabase::exec(const QString& sql)
{
    QSqlQuery q(m_db);
    if (!q.exec(sql))
        return error(sql.section(QLatin1Char(' '), 0, 1), q.lastError().text());
    return {};
}

QVariant RecordingDatabase::scalar(const QString& sql)
{
    QSqlQuery q(m_db);
    if (!q.exec(sql) || !q.next())
        return {};
    return q.value(0);
}

} // namespace lockscope
