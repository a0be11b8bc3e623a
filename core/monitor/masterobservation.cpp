#include "monitor/masterobservation.h"

namespace lockscope {

namespace {

// The key types Redis answers TYPE with, as literals (static data, no allocation): each lock's
// type shares one of them instead of keeping the bytes of its reply.
QByteArray internedType(const QByteArray& type)
{
    static const QByteArray known[] = {QByteArrayLiteral("string"), QByteArrayLiteral("hash"),
                                       QByteArrayLiteral("zset"),   QByteArrayLiteral("list"),
                                       QByteArrayLiteral("set"),    QByteArrayLiteral("stream"),
                                       QByteArrayLiteral("none")};
    for (const QByteArray& k : known)
        if (k == type)
            return k;
    return type;
}

} // namespace

MasterObservation::MasterObservation(const KeyObservation& key, RecognizedLock lock)
    : m_pttlMs(key.pttlMs), m_readAtMs(key.readAtMs), m_present(key.present)
{
    auto* c = new Content;
    c->type = internedType(key.type);
    c->value = key.value;
    c->valueSize = key.valueSize;
    if (!key.fields.isEmpty() || !key.members.isEmpty() || key.elementCount != 0)
        c->aggregate =
            std::make_unique<const Aggregate>(Aggregate{key.fields, key.members, key.elementCount});
    c->truncated = key.truncated;
    c->lock = std::move(lock);
    m_content.reset(c);
    if (key.error.isError())
        setError(key.error);
}

MasterObservation MasterObservation::sharingContent(const MasterObservation& same, const KeyObservation& key)
{
    MasterObservation m;
    m.m_content = same.m_content;
    m.m_pttlMs = key.pttlMs;
    m.m_readAtMs = key.readAtMs;
    m.m_present = key.present;
    if (key.error.isError())
        m.setError(key.error);
    return m;
}

const MasterObservation::Content& MasterObservation::content() const
{
    static const Content nothing;
    return m_content ? *m_content : nothing;
}

const MasterObservation::Aggregate& MasterObservation::aggregate() const
{
    static const Aggregate none;
    const Content& c = content();
    return c.aggregate ? *c.aggregate : none;
}

const RedisError& MasterObservation::error() const
{
    static const RedisError none;
    return m_error ? m_error->error : none;
}

KeyObservation MasterObservation::key() const
{
    KeyObservation k;
    k.present = m_present;
    k.pttlMs = m_pttlMs;
    k.readAtMs = m_readAtMs;
    k.error = error();
    const Content& c = content();
    k.type = c.type;
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
    return m_present == key.present && error().kind == key.error.kind && c.type == key.type &&
           c.value == key.value && c.valueSize == key.valueSize && c.truncated == key.truncated &&
           fields() == key.fields && members() == key.members && elementCount() == key.elementCount;
}

void MasterObservation::setExpiry(qint64 pttlMs, qint64 readAtMs)
{
    m_pttlMs = pttlMs;
    m_readAtMs = readAtMs;
}

void MasterObservation::setError(const RedisError& error)
{
    if (!error.isError()) {
        m_error.reset();
        return;
    }
    auto* e = new Error;
    e->error = error;
    m_error.reset(e);
}

bool MasterObservation::operator==(const MasterObservation& o) const
{
    if (m_present != o.m_present || error().kind != o.error().kind)
        return false;
    if (m_content == o.m_content)
        return true;
    const Content& a = content();
    const Content& b = o.content();
    return a.type == b.type && a.value == b.value && a.valueSize == b.valueSize &&
           a.truncated == b.truncated && fields() == o.fields() && members() == o.members() &&
           elementCount() == o.elementCount() && a.lock == b.lock;
}

} // namespace lockscope
