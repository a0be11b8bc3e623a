#include "record/recordingdatabase.h"

#include "audit/auditlog.h"

#include <QAtomicInteger>
#include <QDir>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <fcntl.h>
#include <unistd.h>

namespace lockscope {

namespace {

QAtomicInteger<quint64> connectionCounter;

// Each step takes a database at version i to i + 1. Frozen once released: a change to the schema
// is a new step, never an edit of an old one (a recording made with it would not match).
const QStringList& migrationStep(int fromVersion)
{
    static const QList<QStringList> steps{
        // 0 -> 1: the first recorder.
        {QStringLiteral("CREATE TABLE sessions(id INTEGER PRIMARY KEY, started INTEGER NOT NULL, "
                        "last INTEGER NOT NULL, ended INTEGER, masters TEXT NOT NULL)"),
         QStringLiteral("CREATE TABLE resources(id INTEGER PRIMARY KEY, name BLOB NOT NULL UNIQUE)"),
         QStringLiteral(
             "CREATE TABLE events(id INTEGER PRIMARY KEY, session INTEGER NOT NULL, "
             "t INTEGER NOT NULL, resource INTEGER, master INTEGER, kind INTEGER NOT NULL, "
             "token BLOB, owner TEXT, ttl INTEGER, holding INTEGER, holders INTEGER, detail TEXT)"),
         QStringLiteral("CREATE INDEX events_by_resource ON events(resource, t)"),
         QStringLiteral("CREATE INDEX events_by_time ON events(t)")},
        // 1 -> 2: a force-release names its audit record.
        {QStringLiteral("ALTER TABLE events ADD COLUMN audit TEXT")},
        // 2 -> 3: no index on every event's time (a third of the cost of an insert at 5k changes/s);
        // retention goes by row id, which follows time, and the masters' events (few) keep one.
        {QStringLiteral("DROP INDEX events_by_time"),
         QStringLiteral("CREATE INDEX master_events_by_time ON events(t) WHERE resource IS NULL")},
        // 3 -> 4: the per-resource index without the time (a history reads all of a resource's
        // events and sorts them) and without the masters' events: an entry half the size, so half the
        // pages each commit rewrites (the index takes an insert at a random place per event).
        {QStringLiteral("DROP INDEX events_by_resource"),
         QStringLiteral("CREATE INDEX events_of_resource ON events(resource) WHERE resource IS NOT NULL")},
        // 4 -> 5: no per-resource index (inserting every event at a random place in it was most of
        // what recording cost at 5k changes/s, and it grew with the file): each resource event names
        // the same resource's event before it (prev), the resource its latest (last), and a
        // history walks that chain back. The chain of the events already there is built here,
        // with the old index, before it goes.
        {QStringLiteral("ALTER TABLE events ADD COLUMN prev INTEGER"),
         QStringLiteral("ALTER TABLE resources ADD COLUMN last INTEGER"),
         QStringLiteral("UPDATE events SET prev = (SELECT max(e.id) FROM events e WHERE e.resource = "
                        "events.resource AND e.id < events.id) WHERE resource IS NOT NULL"),
         QStringLiteral("UPDATE resources SET last = (SELECT max(e.id) FROM events e WHERE e.resource = "
                        "resources.id)"),
         QStringLiteral("DROP INDEX events_of_resource")},
        // 5 -> 6: resources.last is stored every 30 s, not with every batch (it rewrote most of the
        // table at each commit); it covers the events up to `through`, and a resource's later
        // events are read from the tail after it.
        {QStringLiteral("CREATE TABLE heads_saved(through INTEGER NOT NULL)"),
         QStringLiteral("INSERT INTO heads_saved(through) SELECT coalesce(max(id), 0) FROM events")},
    };
    return steps.at(fromVersion);
}

} // namespace

RecordingDatabase::RecordingDatabase()
    : m_connectionName(QStringLiteral("lockscope-recording-%1").arg(connectionCounter.fetchAndAddRelaxed(1)))
{}

RecordingDatabase::~RecordingDatabase()
{
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

RedisError RecordingDatabase::error(const QString& what, const QString& detail) const
{
    return {ErrorKind::Io, QString(), QStringLiteral("%1: %2: %3").arg(m_path, what, detail)};
}

RedisError RecordingDatabase::open(const QString& path, bool mustExist, int upToVersion)
{
    m_path = path;
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return error(QStringLiteral("cannot open"),
                     QStringLiteral("Qt's SQLite driver is missing (Debian: libqt6sql6-sqlite)"));
    const QFileInfo info(path);
    if (!info.exists()) {
        if (mustExist)
            return error(QStringLiteral("cannot open"), QStringLiteral("no such file"));
        const QString dir = info.absolutePath();
        if (!QFileInfo(dir).isDir()) {
            if (!QDir().mkpath(dir))
                return error(QStringLiteral("cannot create its directory"), dir);
            QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        }
        // Created private before SQLite sees it (SQLite would create it 0644 under the usual umask);
        // SQLite gives its -wal and -shm files the same mode.
        const int fd =
            ::open(QFile::encodeName(path).constData(), O_CREAT | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0)
            return error(QStringLiteral("cannot create"), QString::fromLocal8Bit(strerror(errno)));
        ::close(fd);
    }
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    m_db.setDatabaseName(path);
    m_db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    if (!m_db.open())
        return error(QStringLiteral("cannot open"), m_db.lastError().text());
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
    return migrate(qBound(0, upToVersion, int(schemaVersion)));
}

RedisError RecordingDatabase::migrate(int upToVersion)
{
    const QVariant found = scalar(QStringLiteral("PRAGMA user_version"));
    if (!found.isValid())
        return error(QStringLiteral("not a readable SQLite database"), m_db.lastError().text());
    const int version = found.toInt();
    if (version > schemaVersion)
        return error(QStringLiteral("written by a newer LockScope"),
                     QStringLiteral("schema version %1, this one reads up to version %2; open it with "
                                    "that LockScope or a newer one")
                         .arg(version)
                         .arg(schemaVersion));
    if (version == 0 && scalar(QStringLiteral("SELECT count(*) FROM sqlite_master")).toInt() > 0)
        return error(QStringLiteral("not a LockScope recording"),
                     QStringLiteral("it has tables but no recording schema version"));
    for (int v = version; v < upToVersion; ++v) {
        if (!m_db.transaction())
            return error(QStringLiteral("cannot migrate"), m_db.lastError().text());
        for (const QString& sql : migrationStep(v))
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
