// SPDX-License-Identifier: Apache-2.0
// `lockbench pipeline`: pipelined throughput of RedisConnection against a plain synchronous hiredis
// loop doing the same commands against the same server in the same run.
#include "bench/lockbench/benchmark.h"

#include "connection/redisconnection.h"
#include "connection/redisurl.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <hiredis/hiredis.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

namespace lockbench {

namespace {

using lockscope::ConnectionOptions;
using lockscope::RedisConnection;
using lockscope::RedisResult;
using lockscope::RedisUrl;

struct Settings
{
    RedisUrl url;
    int commands = 200000;
    int batch = 1000;
    int rounds = 5;
};

// The same workload for both clients: SET key:i value, then GET key:i, alternating, so that every
// other reply carries a bulk string that has to be parsed and handed over.
struct Workload
{
    QByteArray set = "SET";
    QByteArray get = "GET";
    QByteArray value = "lockbench-value-0123456789";
    std::vector<QByteArray> keys;

    explicit Workload(int commands)
    {
        keys.reserve(size_t(commands / 2 + 1));
        for (int i = 0; i < commands / 2 + 1; ++i)
            keys.push_back("lockbench:pipeline:" + QByteArray::number(i));
    }
    bool isSet(int i) const { return i % 2 == 0; }
    const QByteArray& key(int i) const { return keys[size_t(i / 2)]; }
};

void fail(const char* what)
{
    std::fprintf(stderr, "lockbench pipeline: %s\n", what);
}

std::optional<Settings> parseArgs(const QStringList& args)
{
    Settings s;
    bool haveUrl = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        const bool hasValue = i + 1 < args.size();
        bool ok = true;
        if ((a == QLatin1String("-m") || a == QLatin1String("--master")) && hasValue) {
            const auto url = RedisUrl::parse(args[++i]);
            if (!url) {
                fail(qPrintable(url.error().toString()));
                return std::nullopt;
            }
            s.url = *url;
            haveUrl = true;
        } else if (a == QLatin1String("--commands") && hasValue) {
            s.commands = args[++i].toInt(&ok);
        } else if (a == QLatin1String("--batch") && hasValue) {
            s.batch = args[++i].toInt(&ok);
        } else if (a == QLatin1String("--rounds") && hasValue) {
            s.rounds = args[++i].toInt(&ok);
        } else {
            fail(qPrintable(QStringLiteral("unknown or incomplete option %1").arg(a)));
            return std::nullopt;
        }
        if (!ok) {
            fail(qPrintable(QStringLiteral("%1 needs a number").arg(a)));
            return std::nullopt;
        }
    }
    if (!haveUrl)
        fail("-m URL is required");
    else if (s.commands < 2 || s.batch < 1 || s.rounds < 1)
        fail("--commands must be at least 2, --batch and --rounds at least 1");
    else
        return s;
    return std::nullopt;
}

struct ContextDeleter
{
    void operator()(redisContext* c) const { redisFree(c); }
};
using Context = std::unique_ptr<redisContext, ContextDeleter>;
struct ReplyDeleter
{
    void operator()(redisReply* r) const { freeReplyObject(r); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

Reply command(redisContext* c, const std::vector<QByteArray>& argv)
{
    std::vector<const char*> ptrs;
    std::vector<size_t> lens;
    for (const QByteArray& a : argv) {
        ptrs.push_back(a.constData());
        lens.push_back(size_t(a.size()));
    }
    return Reply(static_cast<redisReply*>(redisCommandArgv(c, int(argv.size()), ptrs.data(), lens.data())));
}

// hiredis 0.14 has no TLS, so the baseline needs a plain TCP or Unix socket master.
Context connectHiredis(const RedisUrl& url)
{
    const timeval timeout{5, 0};
    Context c;
    if (url.scheme() == RedisUrl::Scheme::Unix)
        c.reset(redisConnectUnixWithTimeout(url.socketPath().toLocal8Bit().constData(), timeout));
    else if (url.scheme() == RedisUrl::Scheme::Tcp)
        c.reset(redisConnectWithTimeout(url.host().toUtf8().constData(), url.port(), timeout));
    else {
        fail("the hiredis baseline cannot speak TLS: use a redis:// or unix:// master");
        return {};
    }
    if (!c || c->err) {
        fail(c ? c->errstr : "hiredis could not allocate a context");
        return {};
    }
    redisSetTimeout(c.get(), timeout);
    if (!url.password().isEmpty()) {
        std::vector<QByteArray> auth{"AUTH"};
        if (!url.user().isEmpty())
            auth.push_back(url.user().toUtf8());
        auth.push_back(url.password().toUtf8());
        const Reply r = command(c.get(), auth);
        if (!r || r->type == REDIS_REPLY_ERROR) {
            fail("hiredis: AUTH failed");
            return {};
        }
    }
    if (url.db() != 0) {
        const Reply r = command(c.get(), {"SELECT", QByteArray::number(url.db())});
        if (!r || r->type == REDIS_REPLY_ERROR) {
            fail("hiredis: SELECT failed");
            return {};
        }
    }
    return c;
}

bool replyMatches(const Workload& w, int i, int type, const char* str, size_t len)
{
    if (w.isSet(i))
        return type == REDIS_REPLY_STATUS && QByteArrayView(str, qsizetype(len)) == "OK";
    return type == REDIS_REPLY_STRING && QByteArrayView(str, qsizetype(len)) == w.value;
}

// Returns ops/s, or a negative number after printing why.
double runHiredis(redisContext* c, const Workload& w, const Settings& s)
{
    QElapsedTimer clock;
    clock.start();
    for (int done = 0; done < s.commands;) {
        const int n = std::min(s.batch, s.commands - done);
        for (int i = done; i < done + n; ++i) {
            const QByteArray& key = w.key(i);
            if (w.isSet(i)) {
                const char* argv[] = {w.set.constData(), key.constData(), w.value.constData()};
                const size_t lens[] = {size_t(w.set.size()), size_t(key.size()), size_t(w.value.size())};
                redisAppendCommandArgv(c, 3, argv, lens);
            } else {
                const char* argv[] = {w.get.constData(), key.constData()};
                const size_t lens[] = {size_t(w.get.size()), size_t(key.size())};
                redisAppendCommandArgv(c, 2, argv, lens);
            }
        }
        for (int i = done; i < done + n; ++i) {
            void* raw = nullptr;
            if (redisGetReply(c, &raw) != REDIS_OK) {
                fail(c->errstr);
                return -1;
            }
            const Reply r(static_cast<redisReply*>(raw));
            if (!replyMatches(w, i, r->type, r->str, r->len)) {
                fail("hiredis: unexpected reply");
                return -1;
            }
        }
        done += n;
    }
    return double(s.commands) * 1e9 / double(clock.nsecsElapsed());
}

// What the callbacks of one run share; they capture only a pointer to it and the command's index,
// which std::function keeps without a heap allocation, as a careful caller would.
struct LockscopeRun
{
    const Workload* workload = nullptr;
    QEventLoop loop;
    int received = 0;
    int target = 0;
    bool wrong = false;
    QString error;

    void check(int i, const RedisResult& r)
    {
        if (!r.ok()) {
            error = r.error.toString();
            wrong = true;
        } else {
            const int type = r.reply.isStatus()   ? REDIS_REPLY_STATUS
                             : r.reply.isString() ? REDIS_REPLY_STRING
                                                  : REDIS_REPLY_NIL;
            if (!replyMatches(*workload, i, type, r.reply.string.constData(), size_t(r.reply.string.size())))
                wrong = true;
        }
        if (++received == target)
            loop.quit();
    }
};

double runLockscope(RedisConnection& c, const Workload& w, const Settings& s)
{
    LockscopeRun run;
    run.workload = &w;
    QElapsedTimer clock;
    clock.start();
    for (int done = 0; done < s.commands && !run.wrong;) {
        const int n = std::min(s.batch, s.commands - done);
        run.target = n;
        run.received = 0;
        for (int i = done; i < done + n; ++i) {
            const QByteArray& key = w.key(i);
            LockscopeRun* state = &run;
            auto check = [state, i](const RedisResult& r) { state->check(i, r); };
            if (w.isSet(i))
                c.send({w.set, key, w.value}, check);
            else
                c.send({w.get, key}, check);
        }
        // Every command fails within commandTimeoutMs at worst, so this cannot hang.
        if (run.received < run.target)
            run.loop.exec();
        done += n;
    }
    const double opsPerSec = double(s.commands) * 1e9 / double(clock.nsecsElapsed());
    if (run.wrong) {
        fail(run.error.isEmpty() ? "lockscope: unexpected reply"
                                 : qPrintable(QStringLiteral("lockscope: ") + run.error));
        return -1;
    }
    return opsPerSec;
}

bool waitUntilUp(RedisConnection& c)
{
    QEventLoop loop;
    QObject::connect(&c, &RedisConnection::stateChanged, &loop, [&loop](RedisConnection::State state) {
        if (state == RedisConnection::State::Up || state == RedisConnection::State::Down)
            loop.quit();
    });
    QTimer::singleShot(c.options().connectTimeoutMs + 1000, &loop, &QEventLoop::quit);
    c.open();
    if (c.state() != RedisConnection::State::Up)
        loop.exec();
    if (!c.isUp())
        fail(qPrintable(QStringLiteral("lockscope: ") + c.lastError().toString()));
    return c.isUp();
}

void cleanUp(redisContext* c, const Workload& w)
{
    for (size_t from = 0; from < w.keys.size(); from += 1000) {
        std::vector<QByteArray> argv{"UNLINK"};
        for (size_t i = from; i < std::min(w.keys.size(), from + 1000); ++i)
            argv.push_back(w.keys[i]);
        command(c, argv);
    }
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

int runPipeline(const QStringList& args)
{
    const std::optional<Settings> settings = parseArgs(args);
    if (!settings)
        return 2;
    const Settings& s = *settings;
    const Context hiredis = connectHiredis(s.url);
    if (!hiredis)
        return 1;
    ConnectionOptions options;
    options.url = s.url;
    options.healthIntervalMs = 0; // no PINGs interleaved with the measured commands
    options.autoReconnect = false;
    options.commandTimeoutMs = 10000;
    RedisConnection connection(options);
    if (!waitUntilUp(connection))
        return 1;

    const Workload workload(s.commands);
    // Rounds alternate between the two clients so that a noisy neighbour on the machine hits both
    // alike, and which one goes first alternates too (the second finds the server's memory and the
    // caches warm); the median of each side is reported.
    std::vector<double> ours;
    std::vector<double> theirs;
    for (int round = 0; round < s.rounds; ++round) {
        double h = -1;
        double l = -1;
        if (round % 2 == 0) {
            h = runHiredis(hiredis.get(), workload, s);
            l = runLockscope(connection, workload, s);
        } else {
            l = runLockscope(connection, workload, s);
            h = runHiredis(hiredis.get(), workload, s);
        }
        if (h < 0 || l < 0)
            return 1;
        theirs.push_back(h);
        ours.push_back(l);
    }
    cleanUp(hiredis.get(), workload);
    const double lockscopeOps = median(ours);
    const double hiredisOps = median(theirs);
    std::printf(
        "{\"commands\":%d,\"batch\":%d,\"rounds\":%d,\"lockscopeOpsPerSec\":%.0f,\"hiredisOpsPerSec\":%.0f,"
        "\"ratio\":%.3f}\n",
        s.commands, s.batch, s.rounds, lockscopeOps, hiredisOps, lockscopeOps / hiredisOps);
    std::fflush(stdout);
    return 0;
}

const Benchmark::Registration registration("pipeline", "-m URL [--commands N] [--batch 1000] [--rounds 5]",
                                           &runPipeline);

} // namespace

} // namespace lockbench
