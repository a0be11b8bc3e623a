// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"

#include <QByteArray>
#include <QObject>

namespace lockscope {

// The byte pipe under a RedisConnection. Real masters use SocketTransport; unit tests may
// plug in a scripted one. Errors are reported once, as a kind and a human message.
class RedisTransport : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;
    ~RedisTransport() override = default;

    virtual void open() = 0;
    virtual void abort() = 0;
    virtual void write(const QByteArray& bytes) = 0;
    // Pushes buffered writes to the kernel now rather than on the next event-loop pass.
    virtual void flush() = 0;
    // Up to `maxBytes` of what has arrived; empty when nothing has.
    virtual QByteArray read(qint64 maxBytes) = 0;
    // Bytes have arrived that read() has not returned yet (still in the kernel, or in a buffer
    // of the transport's own): the server has sent something this process has not read.
    virtual bool hasUnreadBytes() const { return false; }

signals:
    void opened(); // connected, and for TLS encrypted
    void readyRead();
    void failed(lockscope::ErrorKind kind, const QString& message);
};

} // namespace lockscope
