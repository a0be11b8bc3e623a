// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "formats/keyobservation.h"
#include "formats/recognizedlock.h"

#include <QExplicitlySharedDataPointer>
#include <QSharedData>

#include <memory>

namespace lockscope {

// One master's part of a resource: the raw read and what it decodes to.
//
// The masters of one lock normally hold the same bytes, so what was read and decoded (type, value,
// fields, the recognised lock) is kept once and shared by them; only what differs per master
// (presence, PTTL, time of the read, error) is kept per master. With 100k locks on five masters a
// full copy per master was the largest thing in the process.
class MasterObservation final
{
public:
    MasterObservation() = default;
    MasterObservation(const KeyObservation& key, RecognizedLock lock);
    MasterObservation(const MasterObservation& other) noexcept;
    MasterObservation(MasterObservation&& other) noexcept;
    MasterObservation& operator=(const MasterObservation& other) noexcept;
    MasterObservation& operator=(MasterObservation&& other) noexcept;
    ~MasterObservation();
    // `key`'s own presence, expiry and error, with the content and decoded lock of `same`
    // (which must show the same content: see sameContent).
    static MasterObservation sharingContent(const MasterObservation& same, const KeyObservation& key);

    bool present() const { return m_present; }
    qint64 pttlMs() const { return m_pttlMs; }
    qint64 readAtMs() const { return m_readAtMs; }
    // When the read went out, 0 if unknown: the server answered it after everything this process had
    // heard from that server by then (a keyspace event that came before this moment is older).
    qint64 sentAtMs() const
    {
        return m_sentBeforeMs == unknownSpan ? 0 : m_readAtMs - qint64(m_sentBeforeMs);
    }
    bool hasExpiry() const { return m_pttlMs >= 0; }
    // The PTTL at `nowMs` (monotonic), counted down from the read as the server counts it, never
    // below 0: not the PTTL of the moment it was read. pttlMs() as read without an expiry.
    qint64 pttlAt(qint64 nowMs) const
    {
        return m_pttlMs < 0 ? m_pttlMs : qMax<qint64>(0, m_pttlMs - (nowMs - m_readAtMs));
    }
    const RedisError& error() const;

    const QByteArray& type() const;
    const QByteArray& value() const { return content().value; }
    qint64 valueSize() const { return content().valueSize; }
    const QList<QPair<QByteArray, QByteArray>>& fields() const { return extra().fields; }
    const QList<QPair<QByteArray, double>>& members() const { return extra().members; }
    qint64 elementCount() const { return extra().elementCount; }
    bool truncated() const { return content().truncated; }
    const RecognizedLock& lock() const { return content().lock; }

    // The whole read as one value, for code that works on KeyObservation.
    KeyObservation key() const;

    // What KeyObservation's == compares: all but the expiry and the time of the read.
    bool sameContent(const KeyObservation& key) const;
    // A fresh PTTL for unchanged content, read between `sentAtMs` (0: unknown) and `readAtMs`.
    void setExpiry(qint64 pttlMs, qint64 readAtMs, qint64 sentAtMs = 0);
    // Shown for a master that cannot be reached: the last content stays, the error says why.
    void setError(const RedisError& error);

    bool operator==(const MasterObservation& o) const;

private:
    // What only a hash, a zset or a list has, or a key of a module's type: a string lock (the many)
    // carries a null pointer instead of two empty lists, a count and a type name.
    struct Extra
    {
        QList<QPair<QByteArray, QByteArray>> fields;
        QList<QPair<QByteArray, double>> members;
        qint64 elementCount = 0;
        QByteArray type; // a type other than the few Redis has of its own (knownType 0)
    };
    struct Content : QSharedData
    {
        bool truncated = false; // these two sit next to the reference count: no padding of their own
        quint8 knownType = 0;   // 1 + the index of one of Redis's own types; 0: extra's type, or none
        QByteArray value;
        qint64 valueSize = 0;
        std::unique_ptr<const Extra> extra; // null: no fields, members, elements or other type
        RecognizedLock lock;
    };
    // A master that cannot be reached: the content it showed last, and why it cannot be read now.
    struct Unreachable : QSharedData
    {
        QExplicitlySharedDataPointer<Content> content;
        RedisError error;
    };

    const Content* contentData() const;
    const Unreachable* unreachable() const;
    const Content& content() const;
    const Extra& extra() const;
    static void retain(quintptr data);
    static void release(quintptr data);
    void setReadTimes(qint64 readAtMs, qint64 sentAtMs);

    // A read's round trip in the bits left beside its time: a longer one (minutes) is unknown.
    static constexpr quint64 unknownSpan = (quint64(1) << 19) - 1;

    // A Content (never written after construction), or, with the low bit set, an Unreachable; 0:
    // nothing read. One pointer where there were two (content, error): an error is rare, and the
    // monitor keeps a reading per master for every resource.
    quintptr m_data = 0;
    qint64 m_pttlMs = -2;                      // -1: no expiry; -2: absent
    qint64 m_readAtMs : 44 = 0;                // monotonic ms of the read (557 years), for live countdowns
    quint64 m_sentBeforeMs : 19 = unknownSpan; // how long before readAtMs the read went out
    bool m_present : 1 = false;                // in the read time's word
};

// Five masters' readings of a lock are 136 bytes with the list's header, a 144-byte allocation (216
// in 224 at 40 bytes, 176 in 192 at 32); one master's, 40 in 48 (56 in 64 at 32).
static_assert(sizeof(void*) != 8 || sizeof(MasterObservation) == 24);

} // namespace lockscope
