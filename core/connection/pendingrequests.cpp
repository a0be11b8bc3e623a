// SPDX-License-Identifier: Apache-2.0
#include "connection/pendingrequests.h"

namespace lockscope {

void PendingRequests::writeQueued(QByteArray* out)
{
    *out += m_queuedOut;
    m_queuedOut.clear();
    for (PendingRequest& p : m_queued.takeAll())
        pushWritten(std::move(p));
}

qint64 PendingRequests::nextDeadline() const
{
    // Queued requests can be older than the handshake in flight: the earlier head decides.
    qint64 deadline = PendingRequest::notSent;
    if (!m_sent.empty())
        deadline = m_sent.front().deadline;
    if (!m_queued.empty())
        deadline = qMin(deadline, m_queued.front().deadline);
    return deadline;
}

std::vector<PendingRequest> PendingRequests::takeAll()
{
    m_unflushed = 0;
    std::vector<PendingRequest> out = m_sent.takeAll();
    for (PendingRequest& p : m_queued.takeAll())
        out.push_back(std::move(p));
    m_queuedOut.clear();
    return out;
}

} // namespace lockscope
