// SPDX-License-Identifier: Apache-2.0
#include "topology/clusterkeyslot.h"

#include <array>

namespace lockscope {

namespace {

// Polynomial 0x1021, initial value 0, no reflection: the variant the cluster specification names.
constexpr std::array<quint16, 256> makeTable()
{
    std::array<quint16, 256> table{};
    for (int i = 0; i < 256; ++i) {
        quint16 crc = quint16(i << 8);
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 0x8000) ? quint16((crc << 1) ^ 0x1021) : quint16(crc << 1);
        table[size_t(i)] = crc;
    }
    return table;
}

constexpr std::array<quint16, 256> crcTable = makeTable();

} // namespace

quint16 ClusterKeySlot::crc16(QByteArrayView data)
{
    quint16 crc = 0;
    for (const char c : data)
        crc = quint16((crc << 8) ^ crcTable[size_t(((crc >> 8) ^ quint8(c)) & 0xff)]);
    return crc;
}

QByteArrayView ClusterKeySlot::hashedPart(QByteArrayView key)
{
    const qsizetype open = key.indexOf('{');
    if (open < 0)
        return key;
    const qsizetype close = key.indexOf('}', open + 1);
    if (close < 0 || close == open + 1)
        return key;
    return key.sliced(open + 1, close - open - 1);
}

int ClusterKeySlot::of(QByteArrayView key)
{
    return crc16(hashedPart(key)) & (slotCount - 1);
}

} // namespace lockscope
