// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace lockscope {

// Redis Cluster's key-to-slot function: CRC16-CCITT (XMODEM) of the key, or of its hash tag (the text
// between the first '{' and the next '}', when not empty), modulo 16384. Matches CLUSTER KEYSLOT.
namespace ClusterKeySlot {

inline constexpr int slotCount = 16384;

quint16 crc16(QByteArrayView data);
// The part of `key` that is hashed: its hash tag, or the whole key.
QByteArrayView hashedPart(QByteArrayView key);
int of(QByteArrayView key);

} // namespace ClusterKeySlot

} // namespace lockscope
