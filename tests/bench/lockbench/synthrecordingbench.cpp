// SPDX-License-Identifier: Apache-2.0
#include "bench/lockbench/benchargs.h"
#include "bench/lockbench/benchmark.h"
#include "record/recordingwriter.h"
#include "support/recordevents.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>

#include <cstdio>

using namespace lockscope;

namespace lockbench {

namespace {

// `lockbench synth-recording --out FILE`: a recording of the size `lockctl incidents` must read in
// its budget (issue #42: a full default recording, about 8 million events), written through the
// recorder's own writer, in the shape a busy Redlock set leaves: on 5 masters, locks taken by a
// new token each time, extended now and then, released or left to expire, and --planted restarts that let a
// second holder in (the proven incidents the run must find). Prints what it wrote; `incidents-bench.sh` times
// the reading.
int runSynthRecording(const QStringList& argv)
{
    const BenchArgs args(argv);
    const QString out = args.value(QStringLiteral("--out"));
    if (out.isEmpty() || QFileInfo::exists(out)) {
        std::fprintf(stderr, "lockbench synth-recording: --out FILE, a file that does not exist yet\n");
        return 2;
    }
    const qint64 events = args.number(QStringLiteral("--events"), 8000000);
    const int resources = int(args.number(QStringLiteral("--resources"), 50000));
    const int planted = int(args.number(QStringLiteral("--planted"), 10));
    RecorderOptions options;
    options.path = out;
    options.maxBytes = 0; // all of it: retention is not what is measured
    options.maxAgeMs = 0;
    auto counters = std::make_shared<RecordingWriter::Counters>();
    RecordingWriter writer(options, counters);
    writer.start({QStringLiteral("m0"), QStringLiteral("m1"), QStringLiteral("m2"), QStringLiteral("m3"),
                  QStringLiteral("m4")});
    QRandomGenerator rng(42);
    // The recording ends now and reaches back as far as 5k events a second take.
    const qint64 startMs = QDateTime::currentMSecsSinceEpoch() - events / 5;
    qint64 written = 0;
    qint64 serial = 0;
    int expiries = 0;
    int plantedDone = 0;
    RecordEventList batch;
    const auto flush = [&] {
        counters->backlog += batch.size();
        writer.write(batch);
        written += batch.size();
        batch.clear();
    };
    const auto lockEvent = [&](qint64 ms, RecordEvent::Kind kind, const QByteArray& resource,
                               const QByteArray& token, quint64 holders, qint64 ttlMs) {
        batch << lockscope::test::lockEvent(ms, kind, resource, token, holders, ttlMs);
    };
    const qint64 plantEvery = planted > 0 ? events / (planted + 1) : events + 1;
    while (written + batch.size() < events) {
        const qint64 t = startMs + (written + batch.size()) / 5;
        // In turn: a lock's next tenure begins long after its last ended (50k locks, 5k events a
        // second: 35 s), as on masters where each lock is taken again only once it is free.
        const QByteArray resource = QByteArray("lock:synth:") + QByteArray::number(serial % resources);
        const QByteArray token = QByteArray::number(qint64(0x5eed00000000LL + ++serial), 16);
        if (plantedDone < planted && written + batch.size() >= plantEvery * (plantedDone + 1)) {
            // A restart of two masters that held A, and B on them and a third while A is valid.
            const QByteArray r = "lock:planted:" + QByteArray::number(plantedDone);
            const QByteArray b = token + "b";
            lockEvent(t, RecordEvent::Kind::Acquired, r, token, 0b00111, 30000);
            for (int m : {1, 2})
                batch << lockscope::test::masterEvent(t + 1000, RecordEvent::Kind::MasterRestarted, m,
                                                      QStringLiteral("run_id planted"));
            lockEvent(t + 1100, RecordEvent::Kind::Holders, r, token, 0b00001, -1);
            lockEvent(t + 2000, RecordEvent::Kind::Contested, r, b, 0b11110, 30000);
            lockEvent(t + 5000, RecordEvent::Kind::Released, r, b, 0, -1);
            lockEvent(t + 6000, RecordEvent::Kind::Released, r, token, 0, -1);
            ++plantedDone;
        } else {
            // A lock's tenure: taken, extended 0-3 times, released (or, one in 20, left to expire).
            const qint64 ttl = 10000;
            lockEvent(t, RecordEvent::Kind::Acquired, resource, token, 0b11111, ttl - 102);
            const int extensions = int(rng.bounded(4));
            for (int x = 1; x <= extensions; ++x)
                lockEvent(t + x * 4000, RecordEvent::Kind::Extended, resource, token, 0b11111, ttl - 102);
            if (rng.bounded(20) == 0) {
                lockEvent(t + extensions * 4000 + ttl, RecordEvent::Kind::Expired, resource, token, 0, -1);
                ++expiries;
            } else {
                lockEvent(t + extensions * 4000 + 1500, RecordEvent::Kind::Released, resource, token, 0, -1);
            }
        }
        if (batch.size() >= 2000)
            flush();
    }
    if (!batch.isEmpty())
        flush();
    writer.finish();
    const QJsonObject line{{QStringLiteral("bench"), QStringLiteral("synth-recording")},
                           {QStringLiteral("events"), counters->written.load()},
                           {QStringLiteral("resources"), resources},
                           {QStringLiteral("planted"), plantedDone},
                           {QStringLiteral("expiries"), expiries},
                           {QStringLiteral("bytes"), QFileInfo(out).size()}};
    return Benchmark::printLine(line, counters->written >= events);
}

const Benchmark::Registration registration("synth-recording",
                                           "--out FILE [--events N] [--resources R] [--planted K]",
                                           runSynthRecording);

} // namespace

} // namespace lockbench
