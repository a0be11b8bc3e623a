// SPDX-License-Identifier: Apache-2.0
#include "audit/teamdatabase.h"
#include "bench/lockbench/benchargs.h"
#include "bench/lockbench/benchmark.h"
#include "record/recordevent.h"
#include "record/recordingreader.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>
#include <cstdio>

using namespace lockscope;

namespace lockbench {

namespace {

// `history` of one resource from a team database of --events events (issue #45: 8 million within
// 200 ms). The events are made by the server (INSERT … SELECT generate_series, a million to a
// statement): --resources locks taken and released in turn on one master, spread over a month, in one
// session, as a recorder would have stored them. Then RecordingReader::history of --samples
// resources picked at random, each on a new connection as `lockctl history` reads it.
int runTeamHistory(const QStringList& argv)
{
    const BenchArgs args(argv);
    const double maxMs = args.value(QStringLiteral("--max-ms"), QStringLiteral("200")).toDouble();
    const QString url = args.value(QStringLiteral("--db"));
    const qint64 events = args.number(QStringLiteral("--events"), 8000000);
    const qint64 resources = args.number(QStringLiteral("--resources"), 100000);
    const int samples = int(args.number(QStringLiteral("--samples"), 20));
    const Result<TeamDatabaseUrl> parsed = TeamDatabaseUrl::parse(url);
    if (!parsed) {
        std::fprintf(stderr, "lockbench: %s\n", qPrintable(parsed.error().message));
        return 2;
    }
    TeamDatabase db; // password: PGPASSWORD
    if (const RedisError e = db.open(*parsed, QString()); e.isError()) {
        std::fprintf(stderr, "lockbench: %s\n", qPrintable(e.message));
        return 1;
    }
    QSqlQuery q(db.db());
    const auto run = [&](const QString& sql) {
        if (q.exec(sql))
            return true;
        std::fprintf(stderr, "lockbench: %s: %s\n", qPrintable(sql.left(80)),
                     qPrintable(q.lastError().text()));
        return false;
    };
    const qint64 startMs = QDateTime::currentMSecsSinceEpoch() - 30LL * 24 * 3600 * 1000;
    const qint64 stepMs = std::max<qint64>(1, 30LL * 24 * 3600 * 1000 / std::max<qint64>(1, events));
    QElapsedTimer fill;
    fill.start();
    if (!run(QStringLiteral("TRUNCATE events, resources, sessions RESTART IDENTITY")) ||
        !run(QStringLiteral("INSERT INTO sessions(id, started, last, masters, recorder) VALUES (1, %1, %2, "
                            "'[\"M1\"]', 'lockbench')")
                 .arg(startMs)
                 .arg(startMs + events * stepMs)) ||
        !run(
            QStringLiteral("INSERT INTO resources(id, name) SELECT i, convert_to('bench:lock:' || i, 'UTF8') "
                           "FROM generate_series(1, %1) i")
                .arg(resources)))
        return 1;
    // Event i: resource i mod R; the resource's (i div R)th event, taken when even, released when odd.
    constexpr qint64 chunk = 1000000;
    for (qint64 from = 1; from <= events; from += chunk)
        if (!run(QStringLiteral(
                     "INSERT INTO events(id, session, t, resource, master, kind, token, owner, ttl, holding, "
                     "holders) SELECT i, 1, %1 + i * %2, mod(i, %3) + 1, 0, CASE WHEN mod(i / %3, 2) = 0 "
                     "THEN %4 "
                     "ELSE %5 END, convert_to('token-' || (i / %3 / 2), 'UTF8'), 'worker-' || mod(i, 7), "
                     "30000, "
                     "1, 1 FROM generate_series(%6::bigint, %7::bigint) i")
                     .arg(startMs)
                     .arg(stepMs)
                     .arg(resources)
                     .arg(int(RecordEvent::Kind::Acquired))
                     .arg(int(RecordEvent::Kind::Released))
                     .arg(from)
                     .arg(std::min(events, from + chunk - 1))))
            return 1;
    if (!run(QStringLiteral("ANALYZE events")) || !run(QStringLiteral("ANALYZE resources")))
        return 1;
    const double fillSeconds = fill.elapsed() / 1000.0;

    QList<double> ms;
    qint64 episodes = 0;
    for (int i = 0; i < samples; ++i) {
        const QByteArray resource =
            "bench:lock:" + QByteArray::number(QRandomGenerator::global()->bounded(resources) + 1);
        QElapsedTimer t;
        t.start();
        RecordingReader reader;
        if (const RedisError e = reader.open(url); e.isError()) {
            std::fprintf(stderr, "lockbench: %s\n", qPrintable(e.message));
            return 1;
        }
        const Result<ResourceHistory> history = reader.history(resource);
        if (!history) {
            std::fprintf(stderr, "lockbench: %s\n", qPrintable(history.error().message));
            return 1;
        }
        ms << t.nsecsElapsed() / 1e6;
        episodes += history->episodes.size();
    }
    std::sort(ms.begin(), ms.end());
    const double p50 = ms.at(ms.size() / 2);
    const double worst = ms.last();
    const bool ok = worst <= maxMs && episodes > 0;
    QJsonObject out{{QStringLiteral("bench"), QStringLiteral("team-history")},
                    {QStringLiteral("events"), events},
                    {QStringLiteral("resources"), resources},
                    {QStringLiteral("fillSeconds"), fillSeconds},
                    {QStringLiteral("samples"), samples},
                    {QStringLiteral("episodesPerHistory"), double(episodes) / samples},
                    {QStringLiteral("historyP50Ms"), p50},
                    {QStringLiteral("historyMaxMs"), worst},
                    {QStringLiteral("maxMs"), maxMs}};
    if (!ok)
        out.insert(QStringLiteral("error"),
                   QStringLiteral("a history took over %1 ms, or was empty").arg(maxMs));
    return Benchmark::printLine(out, ok);
}

const Benchmark::Registration registration(
    "team-history",
    "--db postgresql://USER@HOST:PORT/DB [--events N] [--resources N] [--samples N] [--max-ms MS]",
    runTeamHistory);

} // namespace

} // namespace lockbench
