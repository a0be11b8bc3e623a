// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/pendingqueue.h"

#include <QByteArray>

#include <vector>

namespace lockscope {

// Everything a connection owes an answer for, oldest first: the requests written (awaiting their
// replies in order) and, while the handshake runs, those queued behind it with their encoded bytes.
// The hot path (write, reply) is inline.
class PendingRequests
{
public:
    bool empty() const { return m_sent.empty() && m_queued.empty(); }
    size_t size() const { return m_sent.size() + m_queued.size(); }

    // Written: the bytes are in the connection's out buffer, not yet flushed.
    bool noneWritten() const { return m_sent.empty(); }
    void pushWritten(PendingRequest pending)
    {
        m_sent.push(std::move(pending));
        ++m_unflushed;
    }
    // The written requests not flushed yet were handed to the transport: their time starts now.
    void flushed(qint64 deadline)
    {
        m_sent.stampLast(m_unflushed, deadline);
        m_unflushed = 0;
    }
    // The oldest written request, whose reply comes next, and taking it when it has come.
    const PendingRequest& next() const { return m_sent.front(); }
    PendingRequest takeNext() { return m_sent.pop(); }

    // Queued while connecting, with its deadline (the wait counts against it); `appendBytes(QByteArray&)`
    // appends its encoding.
    template <typename AppendBytes>
    void queue(PendingRequest pending, qint64 deadline, AppendBytes&& appendBytes)
    {
        pending.deadline = deadline;
        appendBytes(m_queuedOut);
        m_queued.push(std::move(pending));
    }
    // The handshake is done: the queued requests become written ones, their bytes appended to `out`.
    // Their deadlines stay (set when they were queued).
    void writeQueued(QByteArray* out);

    // The earliest deadline of the written and the queued requests; PendingRequest::notSent if none.
    qint64 nextDeadline() const;
    // Everything, written first, leaving this empty: for failing all of it.
    std::vector<PendingRequest> takeAll();

private:
    PendingQueue m_sent;    // written, awaiting replies in order
    size_t m_unflushed = 0; // how many at the back of m_sent are not flushed yet
    PendingQueue m_queued;  // waiting for the handshake to finish ...
    QByteArray m_queuedOut; // ... and their commands, in the same order
};

} // namespace lockscope
