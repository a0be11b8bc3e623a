// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <charconv>
#include <cstring>
#include <initializer_list>

namespace lockscope {

// The RESP encoding of one command, appended straight to `out`: one size computation, at most one
// reallocation and no temporaries (hiredis's formatter goes through printf and a malloc'ed copy).
// `argv` is any sized range of things a QByteArrayView can be made from.
template <typename Range> void appendRespCommand(QByteArray& out, const Range& argv)
{
    const auto digits = [](qsizetype n) {
        int d = 1;
        for (; n >= 10; n /= 10)
            ++d;
        return d;
    };
    const auto header = [](char* p, char kind, qsizetype n) {
        *p++ = kind;
        p = std::to_chars(p, p + 20, n).ptr;
        *p++ = '\r';
        *p++ = '\n';
        return p;
    };
    const qsizetype count = qsizetype(std::size(argv));
    qsizetype size = 1 + digits(count) + 2;
    for (const auto& a : argv) {
        const qsizetype n = QByteArrayView(a).size();
        size += 1 + digits(n) + 2 + n + 2;
    }
    const qsizetype at = out.size();
    out.resize(at + size);
    char* p = out.data() + at;
    p = header(p, '*', count);
    for (const auto& a : argv) {
        const QByteArrayView v(a);
        p = header(p, '$', v.size());
        if (!v.isEmpty())
            std::memcpy(p, v.data(), size_t(v.size()));
        p += v.size();
        *p++ = '\r';
        *p++ = '\n';
    }
}

// Commands encoded for one write and answered together (RedisConnection::send(RedisCommandBatch...)):
// a reader of thousands of keys pays for one pending entry and one callback, not one per command.
class RedisCommandBatch
{
public:
    void add(std::initializer_list<QByteArrayView> argv)
    {
        appendRespCommand(m_bytes, argv);
        ++m_count;
    }
    // For commands sent for many keys: the arguments around the key are encoded once, with
    // encodeArguments(), and each key costs one length header and two copies.
    static QByteArray encodeArguments(std::initializer_list<QByteArrayView> argv)
    {
        QByteArray out;
        appendRespCommand(out, argv);
        return out.sliced(out.indexOf('\n') + 1); // without the "*<count>" header
    }
    // Adds the command of `count` arguments: `before`, then `key`, then `after`.
    void addKeyed(int count, const QByteArray& before, QByteArrayView key, const QByteArray& after)
    {
        char header[32];
        char* p = header;
        *p++ = '*';
        p = std::to_chars(p, header + 12, count).ptr;
        *p++ = '\r';
        *p++ = '\n';
        const qsizetype headerSize = p - header;
        *p++ = '$';
        p = std::to_chars(p, header + 30, key.size()).ptr;
        *p++ = '\r';
        *p++ = '\n';
        const qsizetype at = m_bytes.size();
        m_bytes.resize(at + (p - header) + before.size() + key.size() + 2 + after.size());
        char* out = m_bytes.data() + at;
        const auto put = [&out](const char* data, qsizetype n) {
            if (n > 0)
                std::memcpy(out, data, size_t(n));
            out += n;
        };
        put(header, headerSize);
        put(before.constData(), before.size());
        put(header + headerSize, (p - header) - headerSize);
        put(key.data(), key.size());
        put("\r\n", 2);
        put(after.constData(), after.size());
        ++m_count;
    }
    void reserve(qsizetype bytes) { m_bytes.reserve(bytes); }

    int size() const { return m_count; }
    bool isEmpty() const { return m_count == 0; }
    const QByteArray& bytes() const { return m_bytes; }

private:
    QByteArray m_bytes;
    int m_count = 0;
};

} // namespace lockscope
