// SPDX-License-Identifier: Apache-2.0
#include "discovery/scanbound.h"

#include "base/bytesdisplay.h"

namespace lockscope {

QString ScanBound::broken(const QByteArray& cursor, qint64 pages, qint64 keysSeen, qint64 dbSize, int count)
{
    bool isNumber = false;
    cursor.toULongLong(&isNumber);
    if (!isNumber)
        return QStringLiteral("SCAN answered the cursor \"%1\", which is not a number")
            .arg(escapeBytes(cursor.left(64)));
    // A server's SCAN reaches cursor 0 within about (table size / COUNT) pages, and its table holds
    // at most a few times DBSIZE buckets: a pass far beyond that is one that would never end (a broken
    // or hostile server answering non-zero cursors forever).
    // Without DBSIZE (an ACL may refuse it) only a far larger bound is safe: about 10^9 keys.
    const qint64 keys =
        qBound<qint64>(0, qMax(dbSize >= 0 ? dbSize : qint64(1) << 30, keysSeen), qint64(1) << 40);
    const qint64 bound = 256 + 64 * (keys / qMax(1, count) + 1);
    if (pages > bound)
        return QStringLiteral("SCAN did not return cursor 0 after %1 pages (DBSIZE %2, COUNT %3); the "
                              "pass was stopped")
            .arg(pages)
            .arg(dbSize >= 0 ? dbSize : 0)
            .arg(count);
    return {};
}

double ScanBound::fraction(const QByteArray& cursor)
{
    // SCAN walks the table in reverse-binary order, so the bit-reversed cursor grows monotonically
    // from 0 to 2^64 over a pass.
    quint64 v = cursor.toULongLong();
    quint64 reversed = 0;
    for (int i = 0; i < 64; ++i) {
        reversed = (reversed << 1) | (v & 1);
        v >>= 1;
    }
    return double(reversed) / 18446744073709551616.0;
}

} // namespace lockscope
