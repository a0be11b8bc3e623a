#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace lockscope {

// Redis Cluster's key-to-slot function: CRC16-CCITT (XMODEM) of the key, or of its hash tag (the text
// between the first '{' and the next '}', when not empty), modulo 16384. Matches CLUSTER KEYSLOT.
class ClusterKeySlot
{
public:
    static constexpr int slotCount = 16384;

    static quint16 crc16(QByteArrayView data);
    // The part of `key` that is hashed: its hash tag, or the whole key.
    static QByteArrayView hashedPart(QByteArrayView key);
    static int of(QByteArrayView key);
};

} // namespace lockscope
