// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>

namespace lockscope {

// One client's hold of one resource, as the client believed it: from the moment it had its quorum
// (and fencing number) until it released the lock, saw its validity run out, or wrote after a pause.
struct DemoHold
{
    int client = -1;
    QByteArray resource;
    QByteArray token;        // what it wrote to the masters (the oracle of the safety incidents' test)
    qint64 startMs = 0;      // monotonic
    qint64 endMs = -1;       // monotonic; -1 while held
    qint64 validUntilMs = 0; // monotonic, from the Redlock lease
    qint64 validityMs = 0;
    qint64 fencing = 0;
    QString how;             // how it ended
    bool overlapped = false; // another client held the same resource at the same time

    bool isOpen() const { return endMs < 0; }
};

} // namespace lockscope
