// SPDX-License-Identifier: Apache-2.0
#include "monitor/masterobservation.h"

#include <array>
#include <utility>

namespace lockscope {

namespace {

// The key types Redis answers TYPE with, as literals (static data, no allocation). A lock's content
// keeps the index of one, a byte, not a type name of 24: with a million locks that took Content
// from 192 bytes to 168, one allocation class smaller.
const std::array<QByteArray, 7>& knownTypes()
{
    static const std::array<QByteArray, 7> known = {QByteArrayLiteral("string"), QByteArrayLiteral("hash"),
                                                    QByteArrayLiteral("zset"),   QByteArrayLiteral("list"),
                                                    QByteArrayLiteral("set"),    QByteArrayLiteral("stream"),
                                                    QByteArrayLiteral("none")};
    return known;
}

quint8 knownTypeOf(const QByteArray& type)
{
    const auto& known = knownTypes();
    for (quint8 i = 0; i < known.size(); ++i)
        if (known[i] == type)
            return i + 1;
    return 0;
}

} // namespace

MasterObservation::MasterObservation(const KeyObservation& key, RecognizedLock lock)
    : m_pttlMs(key.pttlMs), m_present(key.present)
{
    setReadTimes(key.readAtMs, key.sentAtMs);
    // 112 bytes (a 128-byte allocation), from 168 (176) with the recognised lock's rare fields inline.
    static_assert(sizeof(void*) != 8 || sizeof(Content) <= 112, "one per lock: mind the allocation class");
    auto* c = new Content;
    c->knownType = knownTypeOf(key.type);
    c->value = key.value;
    c->valueSize = key.valueSize;
    const bool otherType = c->knownType == 0 && !key.type.isEmpty();
    if (!key.fields.isEmpty() || !key.members.isEmpty() || key.elementCount != 0 || otherType)
        c->extra = std::make_unique<const Extra>(
            Extra{key.fields, key.members, key.elementCount, otherType ? key.type : QByteArray()});
    c->truncated = key.truncated;
    c->lock = std::move(lock);
    c->ref.ref();
    m_data = quintptr(c);
    if (key.error.isError())
        setError(key.error);
}

MasterObservation::MasterObservation(const MasterObservation& other) noexcept
    : m_data(other.m_data), m_pttlMs(other.m_pttlMs), m_readAtMs(other.m_readAtMs),
      m_sentBeforeMs(other.m_sentBeforeMs), m_present(other.m_present)
{
    retain(m_data);
}

MasterObservation::MasterObservation(MasterObservation&& other) noexcept
    : m_data(std::exchange(other.m_data, 0)), m_pttlMs(other.m_pttlMs), m_readAtMs(other.m_readAtMs),
      m_sentBeforeMs(other.m_sentBeforeMs), m_present(other.m_present)
{}

MasterObservation& MasterObservation::operator=(const MasterObservation& other) noexcept
{
    retain(other.m_data);
    release(m_data);
    m_data = other.m_data;
    m_pttlMs = other.m_pttlMs;
    m_readAtMs = other.m_readAtMs;
    m_sentBeforeMs = other.m_sentBeforeMs;
    m_present = other.m_present;
    return *this;
}

MasterObservation& MasterObservation::operator=(MasterObservation&& other) noexcept
{
    std::swap(m_data, other.m_data);
    m_pttlMs = other.m_pttlMs;
    m_readAtMs = other.m_readAtMs;
    m_sentBeforeMs = other.m_sentBeforeMs;
    m_present = other.m_present;
    return *this;
}

MasterObservation::~MasterObservation()
{
    release(m_data);
}

void MasterObservation::retain(quintptr data)
{
    if (data & 1)
        reinterpret_cast<Unreachable*>(data & ~quintptr(1))->ref.ref();
    else if (data)
        reinterpret_cast<Content*>(data)->ref.ref();
}

void MasterObservation::release(quintptr data)
{
    if (data & 1) {
        auto* u = reinterpret_cast<Unreachable*>(data & ~quintptr(1));
        if (!u->ref.deref())
            delete u;
    } else if (data) {
        auto* c = reinterpret_cast<Content*>(data);
        if (!c->ref.deref())
            delete c;
    }
}

const MasterObservation::Content* MasterObservation::contentData() const
{
    if (const Unreachable* u = unreachable())
        return u->content.data();
    return reinterpret_cast<const Content*>(m_data);
}

const MasterObservation::Unreachable* MasterObservation::unreachable() const
{
    return m_data & 1 ? reinterpret_cast<const Unreachable*>(m_data & ~quintptr(1)) : nullptr;
}

MasterObservation MasterObservation::sharingContent(const MasterObservation& same, const KeyObservation& key)
{
    MasterObservation m;
    m.m_data = quintptr(same.contentData());
    retain(m.m_data);
    m.m_pttlMs = key.pttlMs;
    m.setReadTimes(key.readAtMs, key.sentAtMs);
    m.m_present = key.present;
    if (key.error.isError())
        m.setError(key.error);
    return m;
}

const MasterObservation::Content& MasterObservation::content() const
{
    static const Content nothing;
    const Content* c = contentData();
    return c ? *c : nothing;
}

const MasterObservation::Extra& MasterObservation::extra() const
{
    static const Extra none;
    const Content& c = content();
    return c.extra ? *c.extra : none;
}

const QByteArray& MasterObservation::type() const
{
    const Content& c = content();
    return c.knownType > 0 ? knownTypes()[c.knownType - 1] : extra().type;
}

const RedisError& MasterObservation::error() const
{
    static const RedisError none;
    const Unreachable* u = unreachable();
    return u ? u->error : none;
}

KeyObservation MasterObservation::key() const
{
    KeyObservation k;
    k.present = m_present;
    k.pttlMs = m_pttlMs;
    k.readAtMs = m_readAtMs;
    k.sentAtMs = sentAtMs();
    k.error = error();
    const Content& c = content();
    k.type = type();
    k.value = c.value;
    k.valueSize = c.valueSize;
    k.fields = fields();
    k.members = members();
    k.elementCount = elementCount();
    k.truncated = c.truncated;
    return k;
}

bool MasterObservation::sameContent(const KeyObservation& key) const
{
    const Content& c = content();
    return m_present == key.present && error().kind == key.error.kind && type() == key.type &&
           c.value == key.value && c.valueSize == key.valueSize && c.truncated == key.truncated &&
           fields() == key.fields && members() == key.members && elementCount() == key.elementCount;
}

void MasterObservation::setExpiry(qint64 pttlMs, qint64 readAtMs, qint64 sentAtMs)
{
    m_pttlMs = pttlMs;
    setReadTimes(readAtMs, sentAtMs);
}

void MasterObservation::setReadTimes(qint64 readAtMs, qint64 sentAtMs)
{
    m_readAtMs = readAtMs;
    const qint64 span = readAtMs - sentAtMs;
    m_sentBeforeMs = sentAtMs > 0 && span >= 0 && quint64(span) < unknownSpan ? quint64(span) : unknownSpan;
}

void MasterObservation::setError(const RedisError& error)
{
    if (!error.isError() && !unreachable())
        return;
    // The content is shared, never written: the pointer is non-const only for the reference count.
    Content* content = const_cast<Content*>(contentData());
    quintptr data = quintptr(content);
    if (error.isError()) {
        auto* u = new Unreachable;
        u->content = QExplicitlySharedDataPointer<Content>(content);
        u->error = error;
        u->ref.ref();
        data = quintptr(u) | 1;
    } else {
        retain(data); // before the Unreachable that holds it goes
    }
    release(m_data);
    m_data = data;
}

bool MasterObservation::operator==(const MasterObservation& o) const
{
    if (m_present != o.m_present || error().kind != o.error().kind)
        return false;
    if (contentData() == o.contentData())
        return true;
    const Content& a = content();
    const Content& b = o.content();
    return type() == o.type() && a.value == b.value && a.valueSize == b.valueSize &&
           a.truncated == b.truncated && fields() == o.fields() && members() == o.members() &&
           elementCount() == o.elementCount() && a.lock == b.lock;
}

} // namespace lockscope
