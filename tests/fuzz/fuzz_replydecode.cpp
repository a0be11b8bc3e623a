// SPDX-License-Identifier: Apache-2.0
// The way from a master's bytes to what the monitor believes: hiredis's RESP parser inside a
// RedisConnection (over a scripted transport), the connection's reply building, the KeyReader's
// decoding of replies into observations, then format recognition of each observation.
//
// The input is split at "|||" into chunks fed one event-loop pass apart (the KeyReader's second
// phase is only sent once the first phase's replies are in). With an odd first byte, the first
// chunk answers the connection's handshake instead (INFO, TIME ... parsing); else the handshake is
// a healthy master's and every chunk answers the reads. With the first byte's second bit set, a
// SCAN page with a key filter goes before the reads and takes the first reply (the filter is judged
// as the reply is parsed). Beyond not crashing: the reader finishes exactly once with one
// observation per key, and no observation holds more than the caps allow; the page is answered
// once, and every key it kept is one its filter keeps.
#include "connection/redisconnection.h"
#include "discovery/keyreader.h"
#include "formats/lockformatrecognizer.h"
#include "support/scriptedtransport.h"

#include <QCoreApplication>

#include <cstdlib>

using namespace lockscope;
using lockscope::test::ScriptedTransport;

namespace {

// Keeps what holds "lock", as the default pattern *lock* does.
class ContainsLock final : public ReplyKeyFilter
{
public:
    bool keeps(QByteArrayView key) const override { return key.contains("lock"); }
};

void settle()
{
    for (int i = 0; i < 8; ++i)
        QCoreApplication::processEvents();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    static QCoreApplication app(*argc, *argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0)
        return 0;
    const bool fuzzHandshake = (data[0] & 1) != 0;
    const bool scanFirst = (data[0] & 2) != 0;
    const QByteArray input(reinterpret_cast<const char*>(data) + 1, qsizetype(size - 1));
    QByteArrayList chunks;
    for (qsizetype from = 0;;) {
        const qsizetype at = input.indexOf("|||", from);
        chunks << input.mid(from, at < 0 ? -1 : at - from);
        if (at < 0)
            break;
        from = at + 3;
    }

    ConnectionOptions options;
    options.url = *RedisUrl::parse(QStringLiteral("redis://127.0.0.1:6379"));
    options.healthIntervalMs = 0;
    options.autoReconnect = false;
    auto owned = std::make_unique<ScriptedTransport>();
    ScriptedTransport* transport = owned.get();
    if (!fuzzHandshake)
        transport->setResponder(
            [](const QByteArrayList& argv) { return ScriptedTransport::handshakeReply(argv); });
    RedisConnection connection(options, std::move(owned));
    connection.open();
    settle();
    if (fuzzHandshake) {
        transport->feed(chunks.takeFirst());
        settle();
    }
    transport->setResponder({});

    const ContainsLock filter;
    int pagesAnswered = 0;
    bool keptOnlyFiltered = true;
    if (scanFirst)
        connection.sendScanPage({"SCAN", "0"}, &filter, nullptr, [&](const RedisResult& r) {
            ++pagesAnswered;
            if (r.ok() && r.reply.isArray() && r.reply.elements.size() == 2 && r.reply.elements[1].isArray())
                for (const RedisReply& key : r.reply.elements[1].elements)
                    keptOnlyFiltered = keptOnlyFiltered && (!key.isString() || filter.keeps(key.string));
        });

    MonitorSettings settings;
    settings.maxValueBytes = 16;
    settings.maxFields = 4;
    const QByteArrayList keys{"lock:a", "semaphore:b", "lock:c"};
    int finished = 0;
    QList<KeyObservation> observations;
    KeyReader::read(&connection, keys, settings, [&](QList<KeyObservation> result) {
        ++finished;
        observations = std::move(result);
    });
    settle();
    for (const QByteArray& chunk : chunks) {
        if (connection.state() == RedisConnection::State::Up)
            transport->feed(chunk);
        settle();
    }
    connection.close();
    settle();
    if (finished != 1 || observations.size() != keys.size())
        std::abort();
    if (pagesAnswered != (scanFirst ? 1 : 0) || !keptOnlyFiltered)
        std::abort();
    for (qsizetype i = 0; i < keys.size(); ++i) {
        const KeyObservation& o = observations.at(i);
        if (o.value.size() > settings.maxValueBytes || o.fields.size() > settings.maxFields ||
            o.members.size() > settings.maxFields)
            std::abort();
        LockFormatRecognizer::recognize(keys.at(i), o, {}, 1'800'000'000'000);
    }
    return 0;
}
