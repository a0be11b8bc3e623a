// SPDX-License-Identifier: Apache-2.0
#include "record/recordingschema.h"

#include <QList>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace lockscope {

namespace {

// Each step takes a database at version i to i + 1. Frozen once released: a change to the schema
// is a new step, never an edit of an old one (a recording made with it would not match).
const QList<QStringList>& migrationSteps()
{
    static const QList<QStringList> all{
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
        // 6 -> 7: each session names its recorder (user@host/program:pid): several may write one
        // file at once (issue #45).
        {QStringLiteral("ALTER TABLE sessions ADD COLUMN recorder TEXT")},
    };
    return all;
}

struct RecordingTable
{
    QString name;
    int since;                              // the version that made it
    QList<std::pair<QString, int>> columns; // each with the version that added it
};

// What the readers and the writer rely on, by version.
const QList<RecordingTable>& recordingTables()
{
    static const QList<RecordingTable> all{
        {QStringLiteral("sessions"),
         1,
         {{QStringLiteral("id"), 1},
          {QStringLiteral("started"), 1},
          {QStringLiteral("last"), 1},
          {QStringLiteral("ended"), 1},
          {QStringLiteral("masters"), 1},
          {QStringLiteral("recorder"), 7}}},
        {QStringLiteral("resources"),
         1,
         {{QStringLiteral("id"), 1}, {QStringLiteral("name"), 1}, {QStringLiteral("last"), 5}}},
        {QStringLiteral("events"),
         1,
         {{QStringLiteral("id"), 1},
          {QStringLiteral("session"), 1},
          {QStringLiteral("t"), 1},
          {QStringLiteral("resource"), 1},
          {QStringLiteral("master"), 1},
          {QStringLiteral("kind"), 1},
          {QStringLiteral("token"), 1},
          {QStringLiteral("owner"), 1},
          {QStringLiteral("ttl"), 1},
          {QStringLiteral("holding"), 1},
          {QStringLiteral("holders"), 1},
          {QStringLiteral("detail"), 1},
          {QStringLiteral("audit"), 2},
          {QStringLiteral("prev"), 5}}},
        {QStringLiteral("heads_saved"), 6, {{QStringLiteral("through"), 6}}},
    };
    return all;
}

} // namespace

const QStringList& RecordingSchema::migrationStep(int fromVersion)
{
    static const QStringList none;
    return fromVersion >= 0 && fromVersion < migrationSteps().size() ? migrationSteps().at(fromVersion)
                                                                     : none;
}

QString RecordingSchema::problem(const QSqlDatabase& db, int version)
{
    if (version < 0 || version > currentVersion)
        return QStringLiteral("schema version %1 is not one LockScope wrote (this one knows 1 to %2)")
            .arg(version)
            .arg(currentVersion);
    // sqlite_master as it is stored: the schema itself, read without running anything it defines.
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT type, name, coalesce(sql, '') FROM sqlite_master LIMIT 1001")))
        return QStringLiteral("cannot read its schema: %1").arg(q.lastError().text());
    QSet<QString> tablesFound;
    int objects = 0;
    while (q.next()) {
        if (++objects > 1000)
            return QStringLiteral("its schema has over 1000 objects; a recording has a few");
        const QString type = q.value(0).toString();
        const QString name = q.value(1).toString();
        // A recording has neither: a view in a table's place can make a read run forever, a
        // trigger makes the writer run the file's own statements.
        if (type == QLatin1String("view") || type == QLatin1String("trigger"))
            return QStringLiteral("it has a %1 (%2), which no recording has").arg(type, name);
        if (type == QLatin1String("table")) {
            if (q.value(2).toString().startsWith(QLatin1String("CREATE VIRTUAL"), Qt::CaseInsensitive))
                return QStringLiteral("it has a virtual table (%1), which no recording has").arg(name);
            tablesFound.insert(name);
        }
    }
    if (version == 0)
        return tablesFound.isEmpty() ? QString()
                                     : QStringLiteral("it has tables but no recording schema version");
    for (const RecordingTable& table : recordingTables()) {
        if (table.since > version)
            continue;
        if (!tablesFound.contains(table.name))
            return QStringLiteral("schema version %1 has a table `%2`; this file has none")
                .arg(version)
                .arg(table.name);
        QSqlQuery columns(db);
        columns.prepare(QStringLiteral("SELECT name, pk FROM pragma_table_info(?)"));
        columns.addBindValue(table.name);
        if (!columns.exec())
            return QStringLiteral("cannot read the columns of `%1`: %2")
                .arg(table.name, columns.lastError().text());
        QSet<QString> names;
        bool idIsKey = false;
        while (columns.next()) {
            names.insert(columns.value(0).toString());
            if (columns.value(0).toString() == QLatin1String("id") && columns.value(1).toInt() == 1)
                idIsKey = true;
        }
        for (const auto& [column, since] : table.columns) {
            if (since > version)
                continue;
            if (!names.contains(column))
                return QStringLiteral("schema version %1 has a column `%2.%3`; this file has none")
                    .arg(version)
                    .arg(table.name, column);
            // Every read and the retention go by id order: the row id, as the recorder made it.
            if (column == QLatin1String("id") && !idIsKey)
                return QStringLiteral("`%1.id` is not its primary key").arg(table.name);
        }
    }
    return {};
}

} // namespace lockscope
