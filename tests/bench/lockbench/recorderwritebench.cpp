// SPDX-License-Identifier: Apache-2.0
#include "base/monotonicclock.h"
#include "bench/lockbench/benchargs.h"
#include "bench/lockbench/benchmark.h"
#include "record/recordingwriter.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <cstdio>
#include <ctime>

using namespace lockscope;

namespace lockbench {

namespace {

// `lockbench recorder-write`: the recording writer alone, on this thread, fed what the recorder
// hands it at recorder-bench's load (a lock taken on one of 5 masters by a new token, on a random
// one of --resources resources, --batch events per transaction: 5k changes/s flushed every 400 ms).
// No servers, no monitor, no timing noise from them: the figure to run under callgrind
// (`valgrind --tool=callgrind --toggle-collect='lockscope::RecordingWriter::write*' lockbench
// recorder-write`) for repeatable instruction counts of the writer's path.
int runRecorderWrite(const QStringList& argv)
{
    const BenchArgs args(argv);
    const qint64 events = args.number(QStringLiteral("--events"), 50000);
    const int resources = int(args.number(QStringLiteral("--resources"), 20000));
    const int batch = int(args.number(QStringLiteral("--batch"), 2000));
    QTemporaryDir dir;
    RecorderOptions options;
    options.path = dir.filePath(QStringLiteral("w.sqlite"));
    auto counters = std::make_shared<RecordingWriter::Counters>();
    qint64 written = 0;
    qint64 cpuNs = 0;
    {
        RecordingWriter writer(options, counters);
        writer.start({QStringLiteral("m0"), QStringLiteral("m1"), QStringLiteral("m2"), QStringLiteral("m3"),
                      QStringLiteral("m4")});
        QRandomGenerator rng(7);
        qint64 timeMs = QDateTime::currentMSecsSinceEpoch();
        for (qint64 done = 0; done < events;) {
            RecordEventList list;
            list.reserve(batch);
            for (int i = 0; i < batch && done < events; ++i, ++done) {
                RecordEvent e;
                e.kind = RecordEvent::Kind::Acquired;
                e.timeMs = timeMs + done / 5;
                e.resource = QByteArray("bench:") + QByteArray::number(int(rng.bounded(resources)));
                e.token = QByteArray("t") + QByteArray::number(qint64(1000000000000LL + done * 199999));
                const int master = int(rng.bounded(5));
                e.holding = 1;
                e.holders = quint64(1) << master;
                list << e;
            }
            counters->backlog += list.size();
            const qint64 before = threadCpuNs();
            writer.write(list);
            cpuNs += threadCpuNs() - before;
        }
        // The session's end too: it stores the latest events the batches left to it.
        const qint64 before = threadCpuNs();
        writer.finish();
        cpuNs += threadCpuNs() - before;
        written = counters->written;
    }
    const qint64 bytes = QFileInfo(options.path).size();
    const QJsonObject out{
        {QStringLiteral("bench"), QStringLiteral("recorder-write")},
        {QStringLiteral("events"), written},
        {QStringLiteral("resources"), resources},
        {QStringLiteral("batch"), batch},
        {QStringLiteral("writeNsPerEvent"), written > 0 ? double(cpuNs) / double(written) : -1.0},
        {QStringLiteral("bytesPerEvent"), written > 0 ? double(bytes) / double(written) : -1.0}};
    return Benchmark::printLine(out, written == events);
}

const Benchmark::Registration registration("recorder-write", "[--events N] [--resources R] [--batch B]",
                                           runRecorderWrite);

} // namespace

} // namespace lockbench
