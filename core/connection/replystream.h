// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/replyreader.h"

#include <QByteArray>

#include <memory>
#include <utility>

namespace lockscope {

// What a connection has read, fed to its ReplyReader (hiredis's parser) and taken apart into replies.
// Bytes not yet fed wait here, so that a reply callback running a nested event loop (and so another
// read) appends behind them instead of overtaking them; the stream is fed in slices because hiredis
// 0.14 compacts its buffer (a memmove of everything unread) each time 1 KiB of it has been consumed,
// and one large read of small replies would otherwise cost time quadratic in its size.
class ReplyStream final
{
    Q_DISABLE_COPY_MOVE(ReplyStream)

public:
    enum class Outcome
    {
        Drained, // every complete reply was handed over; the rest waits for more bytes
        Reset,   // a reply's handler reset (or dropped) this stream: what was read is void
        Failed,  // beyond the reply limits or malformed: errorKind() and error() say why
    };

    ReplyStream() = default;

    // A fresh parser within `limits`, forgetting whatever was read before.
    void open(const ReplyLimits& limits) { reset(std::make_unique<ReplyReader>(limits)); }
    // No parser: bytes are ignored until the next open().
    void drop() { reset(nullptr); }
    bool isOpen() const { return m_reader != nullptr; }

    ErrorKind errorKind() const { return m_reader ? m_reader->errorKind() : ErrorKind::None; }
    // Whether a request waited for the reply just dispatched when it began (ReplyReader::wasAsked).
    bool replyWasAsked() const { return !m_reader || m_reader->wasAsked(); }
    QString error() const { return m_reader ? m_reader->error() : QString(); }

    // What the connection expects of the reply that comes next: its request's key filter, and
    // whether any request waits for it at all.
    struct Next
    {
        const ReplyKeyFilter* keyFilter = nullptr;
        bool asked = true;
    };

    // Appends `bytes` and hands every reply now complete to `dispatch` (void(RedisReply&&)), in order.
    // `next` (Next()) is asked before each one (see ReplyReader::setKeyFilter and setNextAsked).
    // Templates so that the per-reply calls inline: this is the pipeline's hot path.
    template <typename NextReply, typename Dispatch>
    Outcome feed(QByteArray&& bytes, NextReply&& next, Dispatch&& dispatch)
    {
        if (m_input.isEmpty())
            m_input = std::move(bytes);
        else
            m_input += bytes;
        // A handler may close, fail or reopen the connection; the epoch says the stream is void then.
        const quint64 epoch = m_epoch;
        qsizetype slice = feedSlice;
        while (m_inputAt < m_input.size()) {
            const qsizetype n = qMin(slice, m_input.size() - m_inputAt);
            if (!m_reader->feed(m_input.constData() + m_inputAt, n))
                return Outcome::Failed;
            m_inputAt += n;
            if (m_inputAt == m_input.size()) {
                m_input.clear();
                m_inputAt = 0;
            }
            int replies = 0;
            for (;;) {
                RedisReply reply;
                const Next expected = next();
                m_reader->setKeyFilter(expected.keyFilter);
                m_reader->setNextAsked(expected.asked);
                const ReplyReader::Status status = m_reader->next(&reply);
                if (status == ReplyReader::Status::Failed)
                    return Outcome::Failed;
                if (status == ReplyReader::Status::NeedMore)
                    break;
                ++replies;
                dispatch(std::move(reply));
                if (m_epoch != epoch)
                    return Outcome::Reset;
            }
            // A slice that completed nothing is inside one large reply: hand over the rest at once.
            slice = replies == 0 ? m_input.size() : feedSlice;
        }
        return Outcome::Drained;
    }

private:
    static constexpr qsizetype feedSlice = 16 * 1024;

    void reset(std::unique_ptr<ReplyReader> reader)
    {
        // Whoever is parsing replies compares this before the next one: the old stream is void.
        ++m_epoch;
        m_input.clear();
        m_inputAt = 0;
        m_reader = std::move(reader);
    }

    std::unique_ptr<ReplyReader> m_reader;
    QByteArray m_input;      // read but not yet fed to the reader ...
    qsizetype m_inputAt = 0; // ... from here on
    quint64 m_epoch = 0;     // bumped whenever the reader is replaced or dropped
};

} // namespace lockscope
