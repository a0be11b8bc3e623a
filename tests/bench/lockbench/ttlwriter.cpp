// SPDX-License-Identifier: Apache-2.0
// The real-write load of the 1M-lock window case: PEXPIRE on existing locks "<prefix><k>" at --rate
// per second, k cycling through 0..--keys-1 (at rate = keys/5, a fifth of the locks change their TTL
// every second), pipelined in batches on one blocking hiredis connection, until --seconds pass or
// SIGTERM. The commands are pre-formatted RESP so that the writer, not its formatting, keeps up.
// Prints {"bench":"ttl-writer","written":…,"errors":…,"seconds":…,"writesPerSec":…,"rate":…}.
//
//   lockbench ttl-writer -m URL --keys N [--rate R] [--seconds S] [--prefix lock:m] [--batch B]

#include "base/monotonicclock.h"
#include "bench/lockbench/benchargs.h"
#include "bench/lockbench/benchmark.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <hiredis/hiredis.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

namespace lockbench {

namespace {

using lockscope::monotonicNs;

std::atomic<bool> g_stop{false};

extern "C" void onTerm(int)
{
    g_stop = true;
}

QByteArray bulk(const QByteArray& s)
{
    return '$' + QByteArray::number(s.size()) + "\r\n" + s + "\r\n";
}

int runTtlWriter(const QStringList& argList)
{
    const BenchArgs args(argList);
    const QUrl url(args.value(QStringLiteral("-m")));
    const qint64 keys = args.number(QStringLiteral("--keys"), 1000000);
    const qint64 rate = args.number(QStringLiteral("--rate"), keys / 5);
    const qint64 seconds = args.number(QStringLiteral("--seconds"), 3600);
    const QByteArray prefix = args.value(QStringLiteral("--prefix"), QStringLiteral("lock:m")).toUtf8();
    const qint64 batch = args.number(QStringLiteral("--batch"), 2000);
    if (!url.isValid() || url.port() <= 0 || keys <= 0 || rate <= 0) {
        std::fputs("ttl-writer: needs -m redis://HOST:PORT and --keys N > 0\n", stderr);
        return 2;
    }
    std::signal(SIGTERM, onTerm);
    std::signal(SIGINT, onTerm);
    redisContext* c = redisConnect(url.host().toUtf8().constData(), url.port());
    if (!c || c->err) {
        std::fprintf(stderr, "ttl-writer: cannot connect: %s\n", c ? c->errstr : "out of memory");
        redisFree(c);
        return 1;
    }
    const qint64 start = monotonicNs();
    qint64 sent = 0, written = 0, errors = 0, k = 0;
    QByteArray command;
    while (!g_stop && monotonicNs() - start < seconds * 1000000000LL) {
        // Everything due by now, in batches; then sleep until the next batch is due.
        const qint64 due = (monotonicNs() - start) * rate / 1000000000LL;
        qint64 pending = 0;
        for (; sent < due && pending < batch; ++sent, ++pending) {
            // TTLs between 10 and 60 minutes, so that no lock expires during the run.
            const QByteArray ttl = QByteArray::number(600000 + (sent * 7919) % 3000000);
            command = "*3\r\n$7\r\nPEXPIRE\r\n" + bulk(prefix + QByteArray::number(k)) + bulk(ttl);
            redisAppendFormattedCommand(c, command.constData(), size_t(command.size()));
            k = (k + 1) % keys;
        }
        for (; pending > 0; --pending) {
            void* reply = nullptr;
            if (redisGetReply(c, &reply) != REDIS_OK) {
                std::fprintf(stderr, "ttl-writer: %s\n", c->errstr);
                redisFree(c);
                return 1;
            }
            const auto* r = static_cast<redisReply*>(reply);
            (r->type == REDIS_REPLY_INTEGER && r->integer == 1 ? written : errors) += 1;
            freeReplyObject(reply);
        }
        if (sent >= due) {
            const qint64 next = start + (sent + std::min(batch, rate)) * 1000000000LL / rate;
            if (const qint64 wait = next - monotonicNs(); wait > 0)
                std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<qint64>(wait, 50000000)));
        }
    }
    redisFree(c);
    const double elapsed = double(monotonicNs() - start) / 1e9;
    const QJsonObject out{{QStringLiteral("bench"), QStringLiteral("ttl-writer")},
                          {QStringLiteral("rate"), rate},
                          {QStringLiteral("written"), written},
                          {QStringLiteral("errors"), errors},
                          {QStringLiteral("seconds"), qRound(elapsed * 10) / 10.0},
                          {QStringLiteral("writesPerSec"), qRound64(double(written) / elapsed)}};
    return Benchmark::printLine(out, errors == 0);
}

const Benchmark::Registration
    registration("ttl-writer", "-m URL --keys N [--rate R] [--seconds S] [--prefix P] [--batch B]",
                 runTtlWriter);

} // namespace

} // namespace lockbench
