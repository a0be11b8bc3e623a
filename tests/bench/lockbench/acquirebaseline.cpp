// SPDX-License-Identifier: Apache-2.0
#include "bench/lockbench/acquirefigures.h"
#include "bench/lockbench/benchmark.h"

#include "base/monotonicclock.h"
#include "connection/redisurl.h"
#include "locking/locktoken.h"
#include "locking/redlockscripts.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <hiredis/hiredis.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

using namespace lockscope;

namespace lockbench {

namespace {

struct ContextFree
{
    void operator()(redisContext* c) const { redisFree(c); }
};
using Context = std::unique_ptr<redisContext, ContextFree>;

struct ReplyFree
{
    void operator()(redisReply* r) const { freeReplyObject(r); }
};
using Reply = std::unique_ptr<redisReply, ReplyFree>;

// The floor `lockbench acquire` is held to (issue #47): Redlock as a bare hiredis client does it, on
// one thread. An acquisition is SET key token NX PX ttl pipelined to every master at once (all are
// written before any is read) and a quorum of OKs; a release is the same EVALSHA of LockScope's own
// release script to every master. Tokens come from the same CSPRNG. No timeouts, no retries, no
// outcome objects, no event loop: what is left is the servers' and the network's share.
class BareRedlock
{
public:
    bool connect(const QStringList& urls)
    {
        for (const QString& url : urls) {
            Result<RedisUrl> u = RedisUrl::parse(url);
            if (!u) {
                m_error = u.error().message.toStdString();
                return false;
            }
            Context c(redisConnect(u->host().toUtf8().constData(), u->port()));
            if (!c || c->err) {
                m_error = c ? c->errstr : "cannot allocate a context";
                return false;
            }
            const QByteArray& source = RedlockScripts::release().source();
            Reply loaded(static_cast<redisReply*>(
                redisCommand(c.get(), "SCRIPT LOAD %b", source.constData(), size_t(source.size()))));
            if (!loaded || loaded->type != REDIS_REPLY_STRING) {
                m_error = "SCRIPT LOAD failed";
                return false;
            }
            m_masters.push_back(std::move(c));
        }
        return !m_masters.empty();
    }

    // Acquires `resources` (a wave of them pipelined together); the tokens of those won go into
    // `tokens` (empty for one lost). False on a connection error.
    bool acquire(const std::vector<QByteArray>& resources, qint64 ttlMs, std::vector<QByteArray>* tokens)
    {
        tokens->assign(resources.size(), QByteArray());
        std::vector<int> oks(resources.size(), 0);
        const std::string ttl = std::to_string(ttlMs);
        for (size_t i = 0; i < resources.size(); ++i)
            (*tokens)[i] = LockToken::randomHex();
        for (const Context& c : m_masters)
            for (size_t i = 0; i < resources.size(); ++i)
                redisAppendCommand(c.get(), "SET %b %b NX PX %s", resources[i].constData(),
                                   size_t(resources[i].size()), (*tokens)[i].constData(),
                                   size_t((*tokens)[i].size()), ttl.c_str());
        if (!flushAll())
            return false;
        for (const Context& c : m_masters)
            for (size_t i = 0; i < resources.size(); ++i) {
                Reply r = next(c.get());
                if (!r)
                    return false;
                oks[i] += r->type == REDIS_REPLY_STATUS ? 1 : 0;
            }
        const int quorum = int(m_masters.size()) / 2 + 1;
        for (size_t i = 0; i < resources.size(); ++i)
            if (oks[i] < quorum)
                (*tokens)[i].clear();
        return true;
    }

    bool release(const std::vector<QByteArray>& resources, const std::vector<QByteArray>& tokens)
    {
        const QByteArray& sha = RedlockScripts::release().sha1();
        for (const Context& c : m_masters)
            for (size_t i = 0; i < resources.size(); ++i)
                redisAppendCommand(c.get(), "EVALSHA %b 1 %b %b", sha.constData(), size_t(sha.size()),
                                   resources[i].constData(), size_t(resources[i].size()),
                                   tokens[i].constData(), size_t(tokens[i].size()));
        if (!flushAll())
            return false;
        for (const Context& c : m_masters)
            for (size_t i = 0; i < resources.size(); ++i)
                if (!next(c.get()))
                    return false;
        return true;
    }

    const std::string& error() const { return m_error; }

private:
    // Every master's commands on the wire before any reply is awaited: the masters work in parallel.
    bool flushAll()
    {
        for (const Context& c : m_masters) {
            int done = 0;
            while (!done)
                if (redisBufferWrite(c.get(), &done) != REDIS_OK) {
                    m_error = c->errstr;
                    return false;
                }
        }
        return true;
    }

    Reply next(redisContext* c)
    {
        void* reply = nullptr;
        if (redisGetReply(c, &reply) != REDIS_OK) {
            m_error = c->errstr;
            return nullptr;
        }
        return Reply(static_cast<redisReply*>(reply));
    }

    std::vector<Context> m_masters;
    std::string m_error;
};

// The same figures as `lockbench acquire`, from the same options: pairs a second with `concurrency`
// pairs in flight (here: waves of that many, pipelined), and the latency of single acquisitions.
int runAcquireBaseline(const QStringList& args)
{
    QCommandLineParser parser;
    AcquireFigures::addOptions(parser);
    const int count = parser.parse(QStringList{QStringLiteral("lockbench")} + args)
                          ? parser.value(QStringLiteral("count")).toInt()
                          : 0;
    const int concurrency = parser.value(QStringLiteral("concurrency")).toInt();
    const int sequential = parser.value(QStringLiteral("sequential")).toInt();
    const qint64 ttlMs = parser.value(QStringLiteral("ttl")).toLongLong();
    if (count <= 0 || concurrency <= 0 || sequential <= 0 || ttlMs <= 0) {
        std::fputs("usage: lockbench acquire-baseline -m URL... --count N --concurrency C --sequential S\n",
                   stderr);
        return 2;
    }
    BareRedlock redlock;
    if (!redlock.connect(parser.values(QStringLiteral("master")))) {
        std::fprintf(stderr, "lockbench acquire-baseline: %s\n", redlock.error().c_str());
        return 3;
    }
    const QByteArray prefix =
        "lockbench-floor:" + QByteArray::number(QCoreApplication::applicationPid()) + ':';
    qint64 failures = 0;
    std::vector<QByteArray> wave;
    std::vector<QByteArray> tokens;
    const auto runPairs = [&](int pairs, const QByteArray& tag) {
        const qint64 startNs = monotonicNs();
        for (int done = 0; done < pairs;) {
            wave.clear();
            for (int i = 0; i < concurrency && done < pairs; ++i, ++done)
                wave.push_back(prefix + tag + QByteArray::number(done));
            if (!redlock.acquire(wave, ttlMs, &tokens) || !redlock.release(wave, tokens))
                return -1.0;
            failures += std::count(tokens.cbegin(), tokens.cend(), QByteArray());
        }
        return double(monotonicNs() - startNs) / 1e9;
    };
    const double warm = runPairs(std::min(count, 2000), "warm:");
    const double seconds = warm < 0 ? warm : runPairs(count, "pair:");
    std::vector<qint64> latencies;
    for (int i = 0; i < sequential && seconds > 0; ++i) {
        const std::vector<QByteArray> one{prefix + "seq:" + QByteArray::number(i)};
        const qint64 startNs = monotonicNs();
        if (!redlock.acquire(one, ttlMs, &tokens))
            break;
        latencies.push_back(monotonicNs() - startNs);
        failures += tokens.front().isEmpty() ? 1 : 0;
        if (!redlock.release(one, tokens))
            break;
    }
    if (seconds <= 0 || int(latencies.size()) < sequential) {
        std::fprintf(stderr, "lockbench acquire-baseline: %s\n", redlock.error().c_str());
        return 3;
    }
    return AcquireFigures::print("acquire-baseline", count, seconds, std::move(latencies), failures);
}

const Benchmark::Registration
    registration("acquire-baseline", "-m URL... [--count N] [--concurrency C] [--sequential S] [--ttl MS]",
                 runAcquireBaseline);

} // namespace

} // namespace lockbench
