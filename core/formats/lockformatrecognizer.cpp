#include "formats/lockformatrecognizer.h"

#include "base/bytesdisplay.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace lockscope {

namespace {

// Timestamps outside this window are not taken for times: a 10-digit counter or a random hex
// string must not pass for a lock written in 1650 or 2400.
constexpr qint64 kPlausibleFromMs = 946684800000LL; // 2000-01-01 UTC
constexpr qint64 kPlausibleToMs = 4102444800000LL;  // 2100-01-01 UTC
// 100 ns intervals from the uuid1 epoch (1582-10-15) to the Unix epoch.
constexpr quint64 kUuidEpochOffset = 0x01B21DD213814000ULL;
// Holder ids longer than this are shown cut: a 1 MB hash field must not become a 1 MB owner text.
constexpr qsizetype kMaxOwnerIdChars = 128;

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool isHex(char c)
{
    return hexValue(c) >= 0;
}

bool isLowerHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f');
}

bool isBase64(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || isDigit(c) || c == '+' || c == '/';
}

template <typename Pred> bool allOf(QByteArrayView bytes, Pred pred)
{
    return !bytes.isEmpty() && std::all_of(bytes.begin(), bytes.end(), pred);
}

quint64 parseHex(QByteArrayView hex)
{
    quint64 n = 0;
    for (const char c : hex)
        n = (n << 4) | quint64(hexValue(c));
    return n;
}

// Digits only, short enough not to overflow.
std::optional<qint64> parseCount(QByteArrayView digits)
{
    if (digits.size() > 18 || !allOf(digits, isDigit))
        return std::nullopt;
    qint64 n = 0;
    for (const char c : digits)
        n = n * 10 + (c - '0');
    return n;
}

QString utcText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) +
           QStringLiteral(" UTC");
}

// UTF-8 text without control characters. A value cut at the read limit may stop inside a
// character; `cut` accepts that ragged end.
bool isPrintableText(QByteArrayView bytes, bool cut)
{
    const qsizetype n = bytes.size();
    if (n == 0)
        return false;
    qsizetype i = 0;
    while (i < n) {
        const uchar lead = uchar(bytes[i]);
        if (lead < 0x80) {
            if (lead < 0x20 || lead == 0x7f)
                return false;
            ++i;
            continue;
        }
        int length = 0;
        char32_t cp = 0;
        char32_t smallest = 0;
        if ((lead & 0xE0) == 0xC0) {
            length = 2;
            cp = lead & 0x1F;
            smallest = 0x80;
        } else if ((lead & 0xF0) == 0xE0) {
            length = 3;
            cp = lead & 0x0F;
            smallest = 0x800;
        } else if ((lead & 0xF8) == 0xF0) {
            length = 4;
            cp = lead & 0x07;
            smallest = 0x10000;
        } else {
            return false;
        }
        const bool ragged = i + length > n;
        if (ragged && !cut)
            return false;
        const qsizetype end = ragged ? n : i + length;
        for (qsizetype k = i + 1; k < end; ++k) {
            const uchar next = uchar(bytes[k]);
            if ((next & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (next & 0x3F);
        }
        if (ragged)
            return true;
        if (cp < smallest || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || (cp >= 0x80 && cp < 0xA0))
            return false;
        i += length;
    }
    return true;
}

// Escaped: an owner is part of a value, and a value is whatever its writer chose.
QString shortText(const QByteArray& bytes)
{
    QString text = escapeBytes(bytes.left(kMaxOwnerIdChars * 4));
    if (text.size() > kMaxOwnerIdChars || bytes.size() > kMaxOwnerIdChars * 4)
        text = text.left(kMaxOwnerIdChars) + QStringLiteral("…");
    return text;
}

bool isUuidText(QByteArrayView v)
{
    if (v.size() != 36)
        return false;
    for (qsizetype i = 0; i < 36; ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? v[i] != '-' : !isHex(v[i]))
            return false;
    }
    return true;
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

void describeUuid1(const Uuid1& uuid, RecognizedLock& lock, LockHolder& holder)
{
    lock.owner = QStringLiteral("host ") + uuid.node;
    lock.detail = QStringLiteral("uuid1 made %1 on node %2").arg(utcText(uuid.madeAtMs), uuid.node);
    holder.sinceMs = uuid.madeAtMs;
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

RecognizedLock recognizeString(const QByteArray& key, const KeyObservation& o)
{
    RecognizedLock lock;
    const QByteArray& v = o.value;
    lock.token = v;
    if (v.isEmpty()) {
        lock.format = LockFormat::Unknown;
        lock.detail = QStringLiteral("empty value");
        return lock;
    }
    LockHolder holder;
    holder.id = v;

    if (o.truncated) {
        // Only a prefix was read: no fixed-length shape can be judged on it.
        lock.format = isPrintableText(v, true) ? LockFormat::PlainToken : LockFormat::Unknown;
        lock.detail = QStringLiteral("value cut at %1 of %2 bytes")
                          .arg(v.size())
                          .arg(std::max<qint64>(o.valueSize, v.size()));
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
            describeUuid1(*uuid, lock, holder);
        } else {
            lock.format = LockFormat::HexToken;
        }
    } else if (isUuidText(v)) {
        lock.format = key.startsWith("mutex:") ? LockFormat::SemaphoreMutex : LockFormat::UuidToken;
        if (const std::optional<Uuid1> uuid = decodeUuid1(uuidHex(v)))
            describeUuid1(*uuid, lock, holder);
    } else if (key.startsWith("mutex:") && v.size() > 37 && v[36] == '-' && isUuidText(v.first(36)) &&
               isPrintableText(v, false)) {
        // redis-semaphore with identifierSuffix: "<uuid>-<suffix>".
        lock.format = LockFormat::SemaphoreMutex;
    } else if (const std::optional<qint64> expiry = parseLegacyExpiry(v)) {
        lock.format = LockFormat::LegacyTimestamp;
        lock.expiresAtMs = *expiry;
    } else if (isPrintableText(v, false)) {
        lock.format = LockFormat::PlainToken;
    } else {
        lock.format = LockFormat::Unknown;
        lock.detail = QStringLiteral("binary value, %1 bytes").arg(v.size());
    }
    holder.owner = lock.owner;
    lock.holders = {holder};
    return lock;
}

struct RedissonField
{
    QByteArray instance;
    QByteArray thread;
    bool write = false;
};

// "<instance uuid>:<thread id>", and for a read-write lock's writer "<uuid>:<thread id>:write".
std::optional<RedissonField> parseRedissonField(const QByteArray& field, bool allowWrite)
{
    if (field.size() < 38 || field[36] != ':' || !isUuidText(field.first(36)))
        return std::nullopt;
    RedissonField out;
    out.instance = field.first(36);
    QByteArray thread = field.sliced(37);
    if (allowWrite && thread.endsWith(":write")) {
        out.write = true;
        thread.chop(6);
    }
    if (thread.size() > 19 || !allOf(thread, isDigit))
        return std::nullopt;
    out.thread = thread;
    return out;
}

QString partialNote(const KeyObservation& o, qsizetype read)
{
    if (!o.truncated)
        return {};
    return QStringLiteral("%1 of %2 entries read").arg(read).arg(std::max<qint64>(o.elementCount, read));
}

void joinDetail(QString& detail, const QString& more)
{
    if (more.isEmpty())
        return;
    detail = detail.isEmpty() ? more : detail + QStringLiteral("; ") + more;
}

// Multi-holder locks: the token is the sorted holder ids, so every master holding the same set
// yields the same token.
void finishHolders(RecognizedLock& lock)
{
    std::sort(lock.holders.begin(), lock.holders.end(),
              [](const LockHolder& a, const LockHolder& b) { return a.id < b.id; });
    QByteArrayList ids;
    ids.reserve(lock.holders.size());
    for (const LockHolder& h : std::as_const(lock.holders))
        ids.append(h.id);
    lock.token = ids.join(',');
    if (lock.holders.size() == 1)
        lock.owner = lock.holders.first().owner;
    else if (lock.holders.size() > 1)
        lock.owner = QStringLiteral("%1 holders").arg(lock.holders.size());
}

RecognizedLock unknownCollection(const KeyObservation& o, QByteArrayList names, const QString& what)
{
    RecognizedLock lock;
    std::sort(names.begin(), names.end());
    lock.token = names.join(',');
    lock.detail = what;
    joinDetail(lock.detail, partialNote(o, names.size()));
    return lock;
}

RecognizedLock recognizeHash(const KeyObservation& o)
{
    QByteArrayList names;
    names.reserve(o.fields.size());
    std::optional<QByteArray> mode;
    for (const auto& [name, value] : o.fields) {
        names.append(name);
        if (name == "mode")
            mode = value;
    }
    const bool readWrite = mode && (*mode == "read" || *mode == "write");
    if (mode && !readWrite)
        return unknownCollection(o, names, QStringLiteral("hash of unknown shape"));

    RecognizedLock lock;
    lock.format = readWrite ? LockFormat::RedissonReadWrite : LockFormat::Redisson;
    for (const auto& [name, value] : o.fields) {
        if (readWrite && name == "mode")
            continue;
        const std::optional<RedissonField> field = parseRedissonField(name, readWrite);
        const std::optional<qint64> count = parseCount(value);
        if (!field || !count)
            return unknownCollection(o, names, QStringLiteral("hash of unknown shape"));
        LockHolder holder;
        holder.id = name;
        holder.count = *count;
        holder.owner = QStringLiteral("thread %1 of %2")
                           .arg(QString::fromLatin1(field->thread), QString::fromLatin1(field->instance));
        if (field->write)
            holder.owner += QStringLiteral(" (write)");
        lock.holders.append(holder);
    }
    if (!readWrite && lock.holders.isEmpty())
        return unknownCollection(o, names, QStringLiteral("empty hash"));
    finishHolders(lock);
    if (readWrite)
        lock.detail = QStringLiteral("%1 mode").arg(QString::fromLatin1(*mode));
    joinDetail(lock.detail, partialNote(o, o.fields.size()));
    return lock;
}

std::optional<qint64> scoreMs(double score)
{
    if (!std::isfinite(score) || score < 0 || score >= 9.0e18)
        return std::nullopt;
    return qint64(score);
}

RecognizedLock recognizeSemaphore(const KeyObservation& o)
{
    RecognizedLock lock;
    lock.format = LockFormat::Semaphore;
    // redis-semaphore's multi-permit holders add one member "<id>_<i>" per permit.
    std::map<QByteArray, LockHolder> byId;
    qint64 permits = 0;
    for (const auto& [member, score] : o.members) {
        QByteArray id = member;
        const qsizetype underscore = member.lastIndexOf('_');
        if (underscore > 0 && parseCount(QByteArrayView(member).sliced(underscore + 1)))
            id = member.first(underscore);
        const auto [at, added] = byId.try_emplace(id);
        LockHolder& holder = at->second;
        if (added)
            holder.id = id;
        else
            ++holder.count;
        const std::optional<qint64> since = scoreMs(score);
        if (since && (holder.sinceMs < 0 || *since < holder.sinceMs))
            holder.sinceMs = *since;
        ++permits;
    }
    for (auto& [id, holder] : byId)
        lock.holders.append(holder);
    finishHolders(lock);
    lock.detail = QStringLiteral("%1 holders, %2 permits").arg(lock.holders.size()).arg(permits);
    joinDetail(lock.detail, partialNote(o, o.members.size()));
    return lock;
}

// Helper keys the libraries keep next to their locks, by name alone.
std::optional<RecognizedLock> recognizeAuxiliary(const QByteArray& key)
{
    struct Helper
    {
        const char* prefix;
        LockFormat format;
        const char* detail;
    };
    static const Helper helpers[] = {
        {"lock-signal:", LockFormat::PythonRedisLock, "python-redis-lock wake-up list for waiters"},
        {"redisson_lock_queue:", LockFormat::Redisson, "Redisson fair-lock wait queue"},
        {"redisson_lock_timeout:", LockFormat::Redisson, "Redisson fair-lock waiter timeouts"},
        {"redisson_lock__channel", LockFormat::Redisson, "Redisson unlock channel"},
        {"redisson_lock_token:", LockFormat::Redisson, "Redisson fenced-lock token counter"},
    };
    RecognizedLock lock;
    lock.auxiliary = true;
    for (const Helper& h : helpers) {
        if (key.startsWith(h.prefix)) {
            lock.format = h.format;
            lock.detail = QString::fromLatin1(h.detail);
            return lock;
        }
    }
    // A Redisson read lock's per-reader lease: "{name}:<uuid>:<thread>:rwlock_timeout:<n>".
    if (key.startsWith('{') && key.contains(":rwlock_timeout")) {
        lock.format = LockFormat::Redisson;
        lock.detail = QStringLiteral("Redisson read-lock lease of one reader");
        return lock;
    }
    return std::nullopt;
}

QString ruleOwner(const QByteArray& key, const QByteArray& token, const QList<OwnerRule>& rules)
{
    for (const OwnerRule& rule : rules) {
        const QString owner = rule.ownerOf(key, token);
        if (!owner.isEmpty())
            return owner;
    }
    return {};
}

} // namespace

RecognizedLock LockFormatRecognizer::recognize(const QByteArray& key, const KeyObservation& observation,
                                               const QList<OwnerRule>& ownerRules, qint64 nowWallMs)
{
    if (std::optional<RecognizedLock> helper = recognizeAuxiliary(key)) {
        if (observation.present && observation.type == "string")
            helper->token = observation.value;
        return *helper;
    }
    if (!observation.present || observation.error.isError())
        return {};

    RecognizedLock lock;
    const QByteArray& type = observation.type;
    if (type == "string" ||
        (type.isEmpty() && observation.fields.isEmpty() && observation.members.isEmpty())) {
        lock = recognizeString(key, observation);
    } else if (type == "hash") {
        lock = recognizeHash(observation);
    } else if (type == "zset") {
        QByteArrayList members;
        for (const auto& [member, score] : observation.members)
            members.append(member);
        lock = key.startsWith("semaphore:")
                   ? recognizeSemaphore(observation)
                   : unknownCollection(observation, members, QStringLiteral("sorted set"));
    } else {
        lock.detail = QStringLiteral("a %1, not a lock shape").arg(escapeBytes(type.left(32)));
    }

    if (lock.format == LockFormat::LegacyTimestamp) {
        lock.expiredByTimestamp = lock.expiresAtMs < nowWallMs;
        lock.timestampLeftMs = lock.expiredByTimestamp ? -1 : lock.expiresAtMs - nowWallMs;
        lock.detail =
            (lock.expiredByTimestamp ? QStringLiteral("expired at %1") : QStringLiteral("expires at %1"))
                .arg(utcText(lock.expiresAtMs));
        // The value names no holder, only when the lock ends: that is what the owner column shows
        // (README, "Lock formats it recognises").
        lock.owner = lock.detail;
        lock.holders.first().owner = lock.owner;
    }

    // The user's rules know their own token conventions better than any shape does.
    if (!ownerRules.isEmpty()) {
        const QString owner = ruleOwner(key, lock.token, ownerRules);
        if (!owner.isEmpty())
            lock.owner = owner;
        for (LockHolder& holder : lock.holders) {
            const QString holderOwner = ruleOwner(key, holder.id, ownerRules);
            if (!holderOwner.isEmpty())
                holder.owner = holderOwner;
        }
    }
    return lock;
}

} // namespace lockscope
