// SPDX-License-Identifier: Apache-2.0
// LockFormatRecognizer::recognize on arbitrary keys and observations. The input is split at NUL bytes:
// key, type, value, PTTL (decimal), then name/value pairs that become hash fields or zset members.
// Beyond not crashing: the holders of a hash or zset lock are never more than the fields or members read.
#include "formats/lockformatrecognizer.h"

#include <cstdlib>

using namespace lockscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArrayList parts =
        QByteArray::fromRawData(reinterpret_cast<const char*>(data), qsizetype(size)).split('\0');
    auto part = [&parts](qsizetype i) { return i < parts.size() ? QByteArray(parts.at(i)) : QByteArray(); };
    const QByteArray key = part(0);
    KeyObservation o;
    o.present = true;
    o.type = part(1);
    o.value = part(2);
    o.valueSize = o.value.size();
    o.pttlMs = part(3).toLongLong();
    for (qsizetype i = 4; i + 1 < parts.size(); i += 2) {
        if (o.type == "zset")
            o.members.append({parts.at(i), parts.at(i + 1).toDouble()});
        else
            o.fields.append({parts.at(i), parts.at(i + 1)});
    }
    o.elementCount = qMax(o.fields.size(), o.members.size());
    static const QList<OwnerRule> rules{
        OwnerRule{QStringLiteral("lock:*"), QRegularExpression(QStringLiteral("^(?<owner>[a-z0-9-]+):"))},
        OwnerRule{QStringLiteral("*"), QRegularExpression(QStringLiteral("([0-9]+)$"))}};
    const RecognizedLock lock = LockFormatRecognizer::recognize(key, o, rules, 1'800'000'000'000);
    const bool multiHolder = o.type == "hash" || o.type == "zset";
    if (multiHolder && lock.holderList().size() > qMax(o.fields.size(), o.members.size()))
        std::abort();
    return 0;
}
