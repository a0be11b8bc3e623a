// SPDX-License-Identifier: Apache-2.0
#include "record/recordingreader.h"

#include "record/recorderechofilter.h"

#include "base/bytesdisplay.h"
#include "record/episodebuilder.h"
#include "record/escapedtextcache.h"
#include "record/sqlitestatement.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>

namespace lockscope {

namespace {

// Resources' names by number: in a list when the numbers are dense (they count up from 1; pruning
// leaves holes), since looking each of millions of events' name up in a hash missed the cache
// twice an event.
class ResourceNameTable
{
public:
    explicit ResourceNameTable(QHash<qint64, QByteArray> names) : m_names(std::move(names))
    {
        qint64 highest = 0;
        for (auto it = m_names.cbegin(); it != m_names.cend(); ++it)
            highest = qMax(highest, it.key());
        if (highest >= 4 * m_names.size() + 4096)
            return;
        m_byNumber.resize(highest + 1);
        for (auto it = m_names.cbegin(); it != m_names.cend(); ++it)
            if (it.key() >= 0)
                m_byNumber[it.key()] = it.value();
        m_names.removeIf([](const auto& it) { return it.key() >= 0; }); // in the list now
    }
    QByteArray of(qint64 id) const
    {
        return id >= 0 && id < m_byNumber.size() ? m_byNumber.at(id) : m_names.value(id);
    }

private:
    QHash<qint64, QByteArray> m_names;
    QList<QByteArray> m_byNumber;
};

} // namespace

RecordingReader::RecordingReader() = default;
RecordingReader::~RecordingReader() = default;

RedisError RecordingReader::open(const QString& path, const QString& password)
{
    m_prepared.clear();
    m_db = std::make_unique<RecordingDatabase>();
    RedisError error = m_db->openForReading(path, password);
    if (error)
        m_db.reset();
    return error;
}

Result<QList<RecordingSession>> RecordingReader::sessions()
{
    Result<SessionGroups> groups = sessionGroups();
    if (!groups)
        return groups.error();
    return groups->merged();
}

Result<SessionGroups> RecordingReader::sessionGroups()
{
    Result<QList<RecordingSession>> raw = recorderSessions();
    if (!raw)
        return raw.error();
    return SessionGroups(*raw);
}

Result<QList<RecordingSession>> RecordingReader::recorderSessions()
{
    if (!m_db)
        return RedisError(ErrorKind::Io, QString(), QStringLiteral("no recording open"));
    // Bounded: the newest sessions, oldest first.
    const Result<QSqlQuery*> query =
        run(QStringLiteral("SELECT id, started, last, ended, masters, recorder FROM (SELECT * FROM sessions "
                           "ORDER BY id DESC LIMIT %1) AS newest ORDER BY id")
                .arg(maxSessions),
            {}, QStringLiteral("cannot read its sessions"));
    if (!query)
        return query.error();
    QSqlQuery& q = **query;
    const auto finished = qScopeGuard([&q] { q.finish(); });
    QList<RecordingSession> out;
    qint64 bytes = 0;
    while (q.next()) {
        RecordingSession s;
        s.id = q.value(0).toLongLong();
        s.startedMs = q.value(1).toLongLong();
        s.lastMs = q.value(2).toLongLong();
        s.endedMs = q.value(3).isNull() ? -1 : q.value(3).toLongLong();
        const QByteArray masters = q.value(4).toString().toUtf8();
        if ((bytes += masters.size()) > maxBytes)
            return m_db->error(QStringLiteral("cannot read its sessions"),
                               QStringLiteral("over %1 MiB of them").arg(maxBytes >> 20));
        for (const QJsonValue& m : QJsonDocument::fromJson(masters).array())
            s.masters << escapeText(m.toString());
        if (const QString recorder = q.value(5).toString(); !recorder.isEmpty())
            s.recorders << escapeText(recorder.left(1024));
        out << s;
    }
    if (q.lastError().isValid())
        return m_db->error(QStringLiteral("cannot read its sessions"), q.lastError().text());
    return out;
}

RedisError RecordingReader::forEachEvent(const std::function<bool(const HistoryEvent&)>& visit)
{
    if (!m_db)
        return RedisError(ErrorKind::Io, QString(), QStringLiteral("no recording open"));
    const Result<SessionGroups> groups = sessionGroups();
    if (!groups)
        return groups.error();
    RecorderEchoFilter echoes(&*groups);
    const auto judged = [&](HistoryEvent& h) {
        if (groups->any()) {
            // Two recorders of one watch: each change once, told as one session's.
            if (echoes.isEcho(h))
                return true;
            h.session = groups->groupOf(h.session);
        }
        return visit(h);
    };
    return m_db->isTeamDatabase() ? forEachTeamEvent(judged) : forEachFileEvent(judged);
}

RedisError RecordingReader::forEachStoredEvent(const std::function<bool(const HistoryEvent&)>& visit)
{
    if (!m_db)
        return RedisError(ErrorKind::Io, QString(), QStringLiteral("no recording open"));
    const auto each = [&visit](HistoryEvent& h) { return visit(h); };
    return m_db->isTeamDatabase() ? forEachTeamEvent(each) : forEachFileEvent(each);
}

Result<QHash<qint64, QByteArray>> RecordingReader::resourceNames()
{
    QHash<qint64, QByteArray> names;
    qint64 bytes = 0;
    const auto add = [&](qint64 id, const QByteArray& name) {
        names.insert(id, name);
        return names.size() <= maxResources && (bytes += name.size()) <= maxBytes;
    };
    const RedisError tooMany = m_db->error(
        QStringLiteral("cannot read its resources"),
        QStringLiteral("more than %1 of them, or over %2 MiB").arg(maxResources).arg(maxBytes >> 20));
    if (m_db->isTeamDatabase()) {
        QSqlQuery q(m_db->db());
        q.setForwardOnly(true);
        if (!q.exec(QStringLiteral("SELECT id, name FROM resources")))
            return m_db->error(QStringLiteral("cannot read its resources"), q.lastError().text());
        while (q.next())
            if (!add(q.value(0).toLongLong(), q.value(1).toByteArray()))
                return tooMany;
        if (q.lastError().isValid())
            return m_db->error(QStringLiteral("cannot read its resources"), q.lastError().text());
        return names;
    }
    // SQLite's own API: a million resources through Qt SQL were two million QVariants.
    SqliteStatement q;
    if (!q.prepare(SqliteStatement::handle(m_db->db()), "SELECT id, name FROM resources"))
        return m_db->error(QStringLiteral("cannot read its resources"), q.error());
    while (true) {
        if (!q.step())
            return m_db->error(QStringLiteral("cannot read its resources"), q.error());
        if (!q.hasRow())
            return names;
        if (!add(q.columnInt(0), q.columnBlob(1)))
            return tooMany;
    }
}

RedisError RecordingReader::forEachFileEvent(const std::function<bool(HistoryEvent&)>& visit)
{
    sqlite3* handle = SqliteStatement::handle(m_db->db());
    if (!handle)
        return m_db->error(QStringLiteral("cannot read its events"), QStringLiteral("not an SQLite file"));
    // The names once (bounded as resources() is): each event names its resource by number.
    Result<QHash<qint64, QByteArray>> read = resourceNames();
    if (!read)
        return read.error();
    const ResourceNameTable names(std::move(*read));
    // SQLite's own API, one row at a time: through Qt SQL each of millions of rows cost a dozen
    // QVariants.
    SqliteStatement q;
    if (!q.prepare(handle,
                   "SELECT id, session, t, resource, master, kind, token, owner, ttl, holding, holders, "
                   "detail, audit FROM events ORDER BY id"))
        return m_db->error(QStringLiteral("cannot read its events"), q.error());
    HistoryEvent h;
    EscapedTextCache texts; // owners and details repeat over millions of rows
    while (true) {
        if (!q.step())
            return m_db->error(QStringLiteral("cannot read its events"), q.error());
        if (!q.hasRow())
            return {};
        RecordEvent& e = h.event;
        if (!recordEventKindFromNumber(int(q.columnInt(5)), &e.kind))
            continue; // written by a newer LockScope: not ours to interpret
        h.id = q.columnInt(0);
        h.session = q.columnInt(1);
        e.timeMs = q.columnInt(2);
        h.resourceId = q.columnIsNull(3) ? -1 : q.columnInt(3);
        e.resource = h.resourceId < 0 ? QByteArray() : names.of(h.resourceId);
        if (!q.columnIsNull(3) && e.resource.isEmpty())
            continue; // a resource event whose resource is gone (damaged file): nothing to judge
        e.master = q.columnIsNull(4) ? -1 : int(q.columnInt(4));
        e.token = q.columnBlob(6);
        e.owner = q.columnIsNull(7) ? QString() : texts.escaped(q.columnView(7));
        e.ttlMs = q.columnIsNull(8) ? -1 : q.columnInt(8);
        e.holding = int(q.columnInt(9));
        e.holders = quint64(q.columnInt(10));
        e.detail = q.columnIsNull(11) ? QString() : texts.escaped(q.columnView(11));
        e.auditId = q.columnIsNull(12) ? QString() : escapeText(QString::fromUtf8(q.columnBlob(12)));
        if (!visit(h))
            return {};
    }
}

RedisError RecordingReader::forEachTeamEvent(const std::function<bool(HistoryEvent&)>& visit)
{
    Result<QHash<qint64, QByteArray>> read = resourceNames();
    if (!read)
        return read.error();
    const ResourceNameTable names(std::move(*read));
    // A page of rows at a time, by id: libpq holds a query's whole answer in memory.
    constexpr int pageRows = 20000;
    qint64 after = 0;
    QSqlQuery q(m_db->db());
    q.setForwardOnly(true);
    HistoryEvent h;
    while (true) {
        q.prepare(QStringLiteral("SELECT id, session, t, master, kind, token, owner, ttl, holding, holders, "
                                 "detail, audit, resource FROM events WHERE id > ? ORDER BY id LIMIT %1")
                      .arg(pageRows));
        q.addBindValue(after);
        if (!q.exec())
            return m_db->error(QStringLiteral("cannot read its events"), q.lastError().text());
        int rows = 0;
        while (q.next()) {
            ++rows;
            after = q.value(0).toLongLong();
            if (!fromRow(q, h))
                continue; // written by a newer LockScope: not ours to interpret
            h.resourceId = q.value(12).isNull() ? -1 : q.value(12).toLongLong();
            h.event.resource = h.resourceId < 0 ? QByteArray() : names.of(h.resourceId);
            if (h.resourceId >= 0 && h.event.resource.isEmpty())
                continue;
            if (!visit(h))
                return {};
        }
        if (q.lastError().isValid())
            return m_db->error(QStringLiteral("cannot read its events"), q.lastError().text());
        if (rows < pageRows)
            return {};
    }
}

Result<QSqlQuery*> RecordingReader::run(const QString& sql, const QVariantList& values,
                                        const QString& failure)
{
    auto it =
        std::find_if(m_prepared.begin(), m_prepared.end(), [&sql](const auto& p) { return p.first == sql; });
    if (it == m_prepared.end()) {
        auto q = std::make_unique<QSqlQuery>(m_db->db());
        q->setForwardOnly(true);
        if (!q->prepare(sql))
            return m_db->error(failure, q->lastError().text());
        m_prepared.emplace_back(sql, std::move(q));
        it = std::prev(m_prepared.end());
    }
    QSqlQuery* q = it->second.get();
    for (qsizetype i = 0; i < values.size(); ++i)
        q->bindValue(int(i), values.at(i));
    if (q->exec())
        return q;
    const RedisError error = m_db->error(failure, q->lastError().text());
    m_prepared.erase(it);
    return error;
}

bool RecordingReader::fromRow(const QSqlQuery& q, HistoryEvent& h)
{
    RecordEvent& e = h.event;
    if (!recordEventKindFromNumber(q.value(4).toInt(), &e.kind))
        return false;
    h.id = q.value(0).toLongLong();
    h.session = q.value(1).toLongLong();
    e.timeMs = q.value(2).toLongLong();
    e.master = q.value(3).isNull() ? -1 : q.value(3).toInt();
    e.token = q.value(5).toByteArray();
    // Text from the store is shown as it is read: escaped again in case it was not (#39).
    e.owner = escapeText(q.value(6).toString());
    e.ttlMs = q.value(7).isNull() ? -1 : q.value(7).toLongLong();
    e.holding = q.value(8).toInt();
    e.holders = quint64(q.value(9).toLongLong());
    e.detail = escapeText(q.value(10).toString());
    e.auditId = escapeText(q.value(11).toString());
    return true;
}

Result<QList<QByteArray>> RecordingReader::resources()
{
    if (!m_db)
        return RedisError(ErrorKind::Io, QString(), QStringLiteral("no recording open"));
    QSqlQuery q(m_db->db());
    // Its latest event still there (retention removes the oldest first, so it has some), or an
    // event after the stored latest events. A team database has an index per resource instead.
    const QString sql =
        m_db->isTeamDatabase()
            ? QStringLiteral("SELECT name FROM resources r WHERE EXISTS (SELECT 1 FROM events e WHERE "
                             "e.resource = r.id) ORDER BY name LIMIT %1")
            : QStringLiteral("SELECT name FROM resources r WHERE EXISTS (SELECT 1 FROM events e WHERE "
                             "e.id = r.last AND e.resource = r.id) OR r.id IN (SELECT resource FROM events "
                             "WHERE id > (SELECT through FROM heads_saved)) ORDER BY name LIMIT %1");
    if (!q.exec(sql.arg(maxResources)))
        return m_db->error(QStringLiteral("cannot read its resources"), q.lastError().text());
    QList<QByteArray> out;
    qint64 bytes = 0;
    while (q.next()) {
        out << q.value(0).toByteArray();
        if ((bytes += out.last().size()) > maxBytes)
            return m_db->error(QStringLiteral("cannot read its resources"),
                               QStringLiteral("their names take over %1 MiB").arg(maxBytes >> 20));
    }
    if (q.lastError().isValid())
        return m_db->error(QStringLiteral("cannot read its resources"), q.lastError().text());
    return out;
}

Result<QList<HistoryEvent>> RecordingReader::events(const QString& where, const QVariantList& values,
                                                    const QList<RecordingSession>& sessions)
{
    QHash<qint64, QStringList> masters;
    for (const RecordingSession& s : sessions)
        masters.insert(s.id, s.masters);
    const Result<QSqlQuery*> query = run(
        QStringLiteral("SELECT id, session, t, master, kind, token, owner, ttl, holding, holders, detail, "
                       "audit FROM events WHERE %1 ORDER BY t, id LIMIT %2")
            .arg(where, QString::number(maxEvents)),
        values, QStringLiteral("cannot read its events"));
    if (!query)
        return query.error();
    QSqlQuery& q = **query;
    const auto finished = qScopeGuard([&q] { q.finish(); });
    QList<HistoryEvent> out;
    qint64 bytes = 0;
    while (q.next()) {
        HistoryEvent h;
        if (!fromRow(q, h))
            continue; // written by a newer LockScope: not ours to interpret
        const RecordEvent& e = h.event;
        bytes += e.token.size() + 2 * (e.owner.size() + e.detail.size() + e.auditId.size());
        if (bytes > maxBytes)
            return m_db->error(QStringLiteral("cannot read its events"),
                               QStringLiteral("over %1 MiB of them").arg(maxBytes >> 20));
        if (e.master >= 0)
            h.masterName = masters.value(h.session).value(e.master);
        out << h;
    }
    if (q.lastError().isValid())
        return m_db->error(QStringLiteral("cannot read its events"), q.lastError().text());
    return out;
}

void RecordingReader::reconcile(QList<HistoryEvent>& events, const SessionGroups& groups)
{
    if (!groups.any())
        return;
    RecorderEchoFilter echoes(&groups);
    QList<HistoryEvent> kept;
    kept.reserve(events.size());
    for (HistoryEvent& h : events)
        if (!echoes.isEcho(h)) {
            h.session = groups.groupOf(h.session);
            kept << std::move(h);
        }
    events = std::move(kept);
}

void RecordingReader::keepOneMasterSet(ResourceHistory& history, QList<HistoryEvent>& own,
                                       const QStringList& masters)
{
    QHash<qint64, const RecordingSession*> byId;
    for (const RecordingSession& s : std::as_const(history.sessions))
        byId.insert(s.id, &s);
    const auto mastersOf = [&byId](qint64 session) {
        const RecordingSession* s = byId.value(session);
        return s ? s->masters : QStringList();
    };
    // The set asked for, or the one that recorded the latest event.
    history.masters = !masters.isEmpty() ? masters
                      : own.isEmpty()    ? QStringList()
                                         : mastersOf(own.last().session);
    if (history.masters.isEmpty() && masters.isEmpty())
        return; // nothing recorded, or a damaged file without its sessions: as it is
    QList<HistoryEvent> kept;
    for (const HistoryEvent& h : std::as_const(own)) {
        const QStringList from = mastersOf(h.session);
        if (sameMasters(from, history.masters)) {
            kept << h;
            continue;
        }
        if (from.isEmpty())
            continue; // its session is not among those read (the oldest beyond maxSessions)
        const bool known = std::any_of(history.otherMasterSets.cbegin(), history.otherMasterSets.cend(),
                                       [&from](const QStringList& set) { return sameMasters(set, from); });
        if (!known)
            history.otherMasterSets << from;
    }
    own = kept;
    QList<RecordingSession> sessions;
    for (const RecordingSession& s : std::as_const(history.sessions))
        if (sameMasters(s.masters, history.masters))
            sessions << s;
    history.sessions = sessions;
}

void RecordingReader::restoreReplacements(QList<HistoryEvent>& events, const QByteArray& resource)
{
    QList<HistoryEvent> out;
    out.reserve(events.size());
    QByteArray holder; // the main token held, in the session of `holderSession`; empty when none
    qint64 holderSession = -1;
    bool holding = false;
    QByteArrayList beside; // tokens held beside it at the same time (`contested`), oldest first
    for (HistoryEvent& h : events) {
        h.event.resource = resource;
        const RecordEvent::Kind kind = h.event.kind;
        const bool starts = kind == RecordEvent::Kind::Seen || kind == RecordEvent::Kind::Acquired;
        if (h.session != holderSession)
            beside.clear();
        if (starts && holding && h.session == holderSession && h.event.token != holder &&
            !beside.contains(h.event.token)) {
            HistoryEvent replaced = h;
            replaced.event = RecordEvent();
            replaced.event.kind = RecordEvent::Kind::Replaced;
            replaced.event.timeMs = h.event.timeMs;
            replaced.event.resource = resource;
            replaced.event.token = holder;
            out << replaced;
        }
        if (starts) {
            holding = true;
            holder = h.event.token;
            holderSession = h.session;
        } else if (kind == RecordEvent::Kind::Contested) {
            if (!beside.contains(h.event.token))
                beside << h.event.token;
            if (!holding) { // its main holder's start was pruned: it is the one held
                holding = true;
                holder = h.event.token;
                holderSession = h.session;
            }
        } else if (kind == RecordEvent::Kind::Released || kind == RecordEvent::Kind::Expired ||
                   kind == RecordEvent::Kind::Replaced || kind == RecordEvent::Kind::Lost) {
            beside.removeAll(h.event.token);
            if (h.event.token == holder) {
                // The main holder went; one held beside it goes on as the main one (as the
                // recorder and EpisodeBuilder see it).
                holding = !beside.isEmpty();
                holder = holding ? beside.takeFirst() : QByteArray();
            }
        }
        out << h;
    }
    events = out;
}

bool sameMasters(const QStringList& a, const QStringList& b)
{
    if (a.size() != b.size())
        return false;
    QStringList x = a;
    QStringList y = b;
    x.sort();
    y.sort();
    return x == y;
}

Result<ResourceHistory> RecordingReader::history(const QByteArray& resource, qint64 sinceMs,
                                                 const QStringList& masters, qint64 latestId)
{
    if (!m_db)
        return RedisError(ErrorKind::Io, QString(), QStringLiteral("no recording open"));
    Result<QList<RecordingSession>> sessions = recorderSessions();
    if (!sessions)
        return sessions.error();
    const SessionGroups groups(*sessions);
    ResourceHistory history;
    history.resource = resource;
    history.sessions = groups.merged();
    const Result<QSqlQuery*> byName = run(QStringLiteral("SELECT id FROM resources WHERE name = ?"),
                                          {resource}, QStringLiteral("cannot read its resources"));
    if (!byName)
        return byName.error();
    const QVariant resourceId = (*byName)->next() ? (*byName)->value(0) : QVariant();
    (*byName)->finish();
    if (!resourceId.isValid())
        return history; // never recorded
    // Its chain from its latest event back, while each link is an older event of the same
    // resource (retention removed the ones before; a stale link is never followed). The latest is
    // the caller's, or the newest in the tail the writers have not stored yet, or the stored one.
    const QVariant latest = latestId > 0 ? QVariant(latestId) : QVariant(QMetaType::fromType<qint64>());
    Result<QList<HistoryEvent>> own =
        m_db->isTeamDatabase()
            ? events(
                  QStringLiteral("id IN (SELECT id FROM events WHERE resource = ? ORDER BY id DESC LIMIT %1)")
                      .arg(maxEvents),
                  {resourceId}, *sessions)
            : events(QStringLiteral(
                         "id IN (WITH RECURSIVE chain(id, prev) AS (SELECT id, prev FROM events WHERE "
                         "id = coalesce(?, (SELECT max(id) FROM events WHERE id > (SELECT through FROM "
                         "heads_saved) AND resource = ?), (SELECT last FROM resources WHERE id = ?)) "
                         "AND resource = ? UNION ALL "
                         "SELECT e.id, e.prev FROM chain c JOIN events e ON e.id = c.prev WHERE "
                         "c.prev < c.id AND e.resource = ?) SELECT id FROM chain LIMIT %1)")
                         .arg(maxEvents),
                     {latest, resourceId, resourceId, resourceId, resourceId}, *sessions);
    if (!own)
        return own.error();
    reconcile(*own, groups);
    keepOneMasterSet(history, *own, masters);
    restoreReplacements(*own, resource);
    const QList<Episode> all = EpisodeBuilder::build(*own, history.sessions);
    for (const Episode& e : all)
        if (sinceMs < 0 || e.endMs < 0 || e.endMs >= sinceMs)
            history.episodes << e;
    const qint64 from = history.episodes.isEmpty() ? sinceMs : history.episodes.first().startMs;
    for (const HistoryEvent& h : *own)
        if (sinceMs < 0 || h.event.timeMs >= qMin(from, sinceMs))
            history.events << h;
    if (history.events.isEmpty())
        return history;
    // The masters' events while it was recorded: a restart or failover is part of its story.
    // (A damaged file may have lost its sessions: then up to its last event.)
    const qint64 last = !history.episodes.isEmpty() && history.episodes.last().endMs >= 0
                            ? history.episodes.last().endMs
                        : !history.sessions.isEmpty() ? history.sessions.last().lastMs
                                                      : history.events.last().event.timeMs;
    Result<QList<HistoryEvent>> masterEvents =
        events(QStringLiteral("resource IS NULL AND t >= ? AND t <= ?"),
               {history.events.first().event.timeMs, last}, *sessions);
    if (!masterEvents)
        return masterEvents.error();
    reconcile(*masterEvents, groups);
    // Only these masters' own events: another set's restart is not part of this story.
    QSet<qint64> watching;
    for (const RecordingSession& s : std::as_const(history.sessions))
        watching.insert(s.id);
    for (const HistoryEvent& h : std::as_const(*masterEvents))
        if (watching.contains(h.session))
            history.events << h;
    // In one millisecond an administrator's force-release (stamped when it was sent) comes before
    // what the recorders saw of it, whichever reached the file first.
    const auto forced = [](const HistoryEvent& h) {
        return h.event.kind == RecordEvent::Kind::ForceReleased;
    };
    std::stable_sort(history.events.begin(), history.events.end(),
                     [&forced](const HistoryEvent& a, const HistoryEvent& b) {
                         if (a.event.timeMs != b.event.timeMs)
                             return a.event.timeMs < b.event.timeMs;
                         if (forced(a) != forced(b))
                             return forced(a);
                         return a.id < b.id;
                     });
    return history;
}

} // namespace lockscope
