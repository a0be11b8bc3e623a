// SPDX-License-Identifier: Apache-2.0
#include "formats/stringformats.h"

#include "base/bytesdisplay.h"
#include "formats/byteshapes.h"
#include "formats/semaphoreformats.h"

#include <algorithm>
#include <optional>

namespace lockscope::recognition {

namespace {

// 100 ns intervals from the uuid1 epoch (1582-10-15) to the Unix epoch.
constexpr quint64 kUuidEpochOffset = 0x01B21DD213814000ULL;
// Holder ids longer than this are shown cut: a 1 MB value must not become a 1 MB owner text.
constexpr qsizetype kMaxOwnerIdChars = 128;

// Escaped: an owner is part of a value, and a value is whatever its writer chose.
QString shortText(const QByteArray& bytes)
{
    QString text = escapeBytes(bytes.left(kMaxOwnerIdChars * 4));
    if (text.size() > kMaxOwnerIdChars || bytes.size() > kMaxOwnerIdChars * 4)
        text = text.left(kMaxOwnerIdChars) + QStringLiteral("…");
    return text;
}

struct Uuid1
{
    qint64 madeAtMs = 0;
    QString node; // 02:42:ac:11:00:02
};

// A uuid1 as 32 hex digits. Besides the version nibble the RFC 4122 variant and a plausible
// creation time are required: one random hex token in 16 has a '1' in the version position,
// and node-redlock's tokens must not be taken for redis-py's that often.
std::optional<Uuid1> decodeUuid1(QByteArrayView hex)
{
    if (hex.size() != 32 || !allOf(hex, isHex) || hex[12] != '1')
        return std::nullopt;
    const int variant = hexValue(hex[16]);
    if ((variant & 0xC) != 0x8)
        return std::nullopt;
    const quint64 timeLow = parseHex(hex.sliced(0, 8));
    const quint64 timeMid = parseHex(hex.sliced(8, 4));
    const quint64 timeHigh = parseHex(hex.sliced(13, 3));
    const quint64 ticks = (timeHigh << 48) | (timeMid << 32) | timeLow;
    if (ticks < kUuidEpochOffset)
        return std::nullopt;
    const qint64 ms = qint64((ticks - kUuidEpochOffset) / 10000);
    if (ms < kPlausibleFromMs || ms >= kPlausibleToMs)
        return std::nullopt;
    Uuid1 out;
    out.madeAtMs = ms;
    const QByteArray node = hex.sliced(20, 12).toByteArray().toLower();
    for (qsizetype i = 0; i < node.size(); i += 2) {
        if (i > 0)
            out.node += QLatin1Char(':');
        out.node += QLatin1String(node.mid(i, 2));
    }
    return out;
}

QByteArray uuidHex(QByteArrayView uuidText)
{
    QByteArray hex = uuidText.toByteArray();
    hex.replace('-', QByteArray());
    return hex;
}

// Its detail is read from the token again when asked (impliedDetail): not kept with each lock.
void describeUuid1(const Uuid1& uuid, RecognizedLock& lock)
{
    lock.owner = QStringLiteral("host ") + uuid.node;
}

// The uuid1 a string lock's token holds, if its format is one that takes it as such.
std::optional<Uuid1> tokenUuid1(const RecognizedLock& lock)
{
    if (lock.format == LockFormat::RedisPy)
        return decodeUuid1(lock.token);
    if ((lock.format == LockFormat::UuidToken || lock.format == LockFormat::SemaphoreMutex) &&
        isUuidText(lock.token))
        return decodeUuid1(uuidHex(lock.token));
    return std::nullopt;
}

// A unix time in seconds (10 digits, optionally with a fraction) or milliseconds (13 digits).
std::optional<qint64> parseLegacyExpiry(QByteArrayView v)
{
    const qsizetype dot = v.indexOf('.');
    const QByteArrayView whole = dot < 0 ? v : v.first(dot);
    const QByteArrayView fraction = dot < 0 ? QByteArrayView() : v.sliced(dot + 1);
    if (dot >= 0 && (fraction.isEmpty() || fraction.size() > 9 || !allOf(fraction, isDigit)))
        return std::nullopt;
    const std::optional<qint64> n = parseCount(whole);
    if (!n)
        return std::nullopt;
    qint64 ms = 0;
    if (whole.size() == 10) {
        qint64 fractionMs = 0;
        for (qsizetype i = 0; i < 3; ++i)
            fractionMs = fractionMs * 10 + (i < fraction.size() ? fraction[i] - '0' : 0);
        ms = *n * 1000 + fractionMs;
    } else if (whole.size() == 13) {
        ms = *n;
    } else {
        return std::nullopt;
    }
    if (ms < kPlausibleFromMs || ms >= kPlausibleToMs)
        return std::nullopt;
    return ms;
}

// LockScope's own "<owner>/<32 lower hex>"; returns the owner part.
std::optional<QByteArray> lockScopeOwner(const QByteArray& v)
{
    if (v.size() < 34 || v[v.size() - 33] != '/')
        return std::nullopt;
    if (!allOf(QByteArrayView(v).last(32), isLowerHex))
        return std::nullopt;
    const QByteArray owner = v.first(v.size() - 33);
    if (!isPrintableText(owner, false))
        return std::nullopt;
    return owner;
}

} // namespace

RecognizedLock recognizeString(const QByteArray& key, const KeyObservation& o)
{
    RecognizedLock lock;
    const QByteArray& v = o.value;
    lock.token = v;
    if (v.isEmpty()) {
        lock.format = LockFormat::Unknown;
        lock.setDetail(QStringLiteral("empty value"));
        return lock;
    }
    lock.impliedHolder = true;
    if (o.truncated) {
        // Only a prefix was read: no fixed-length shape can be judged on it.
        lock.format = isPrintableText(v, true) ? LockFormat::PlainToken : LockFormat::Unknown;
        lock.setDetail(QStringLiteral("value cut at %1 of %2 bytes")
                           .arg(v.size())
                           .arg(std::max<qint64>(o.valueSize, v.size())));
    } else if (const std::optional<QByteArray> owner = lockScopeOwner(v)) {
        lock.format = LockFormat::LockScope;
        lock.owner = shortText(*owner);
    } else if (v.size() == 24 && v.endsWith("==") && allOf(QByteArrayView(v).first(22), isBase64)) {
        lock.format = LockFormat::Redsync;
    } else if (v.size() == 24 && key.startsWith("lock:") && allOf(v, isBase64)) {
        lock.format = LockFormat::PythonRedisLock;
    } else if (v.size() == 32 && allOf(v, isHex)) {
        if (const std::optional<Uuid1> uuid = decodeUuid1(v)) {
            lock.format = LockFormat::RedisPy;
            describeUuid1(*uuid, lock);
        } else {
            lock.format = LockFormat::HexToken;
        }
    } else if (isUuidText(v)) {
        lock.format = isSemaphoreMutexKey(key) ? LockFormat::SemaphoreMutex : LockFormat::UuidToken;
        if (const std::optional<Uuid1> uuid = decodeUuid1(uuidHex(v)))
            describeUuid1(*uuid, lock);
    } else if (isRandomBase64Token(v)) {
        lock.format = LockFormat::Base64Token;
    } else if (isSuffixedMutexToken(key, v)) {
        lock.format = LockFormat::SemaphoreMutex;
    } else if (const std::optional<qint64> expiry = parseLegacyExpiry(v)) {
        lock.format = LockFormat::LegacyTimestamp;
        lock.setExpiresAtMs(*expiry);
    } else if (isPrintableText(v, false)) {
        lock.format = LockFormat::PlainToken;
    } else {
        lock.format = LockFormat::Unknown;
        lock.setDetail(QStringLiteral("binary value, %1 bytes").arg(v.size()));
    }
    return lock;
}

LockHolder impliedHolder(const RecognizedLock& lock)
{
    LockHolder holder;
    holder.id = lock.token;
    holder.owner = lock.owner;
    // The moment a uuid1 token was made is when its holder took the lock.
    if (const std::optional<Uuid1> uuid = tokenUuid1(lock))
        holder.sinceMs = uuid->madeAtMs;
    return holder;
}

void judgeLegacyTimestamp(RecognizedLock& lock, qint64 nowWallMs)
{
    if (lock.format != LockFormat::LegacyTimestamp)
        return;
    lock.expiredByTimestamp = lock.expiresAtMs() < nowWallMs;
    lock.setTimestampLeftMs(lock.expiredByTimestamp ? -1 : lock.expiresAtMs() - nowWallMs);
    lock.setDetail(
        (lock.expiredByTimestamp ? QStringLiteral("expired at %1") : QStringLiteral("expires at %1"))
            .arg(utcText(lock.expiresAtMs())));
    // The value names no holder, only when the lock ends: that is what the owner column shows
    // (docs/manual/lock-formats.md).
    lock.owner = lock.detail(); // its implied holder's owner too
}

QString impliedDetail(const RecognizedLock& lock)
{
    const std::optional<Uuid1> uuid = tokenUuid1(lock);
    if (!uuid)
        return {};
    return QStringLiteral("uuid1 made %1 on node %2").arg(utcText(uuid->madeAtMs), uuid->node);
}

} // namespace lockscope::recognition
