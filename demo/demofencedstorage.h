// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QString>

namespace lockscope {

// What the demo's storage did with one write.
struct DemoWrite
{
    QByteArray resource;
    QString client;
    qint64 fencing = 0;     // the fencing number the writer sent
    qint64 highestSeen = 0; // the highest the storage had accepted for this resource before
    bool stale = false;     // fencing < highestSeen: the writer's lock was superseded
    bool accepted = false;
    qint64 atMs = 0; // monotonic

    // A stale write that got through: the safety violation fencing exists to prevent.
    bool isViolation() const { return stale && accepted; }
};

// The "storage service" of Kleppmann's critique of Redlock: it accepts writes tagged with a fencing
// number and, with fencing on, rejects any write whose number is lower than the highest it has seen
// for that resource. With fencing off it accepts everything, which lets a paused client's stale write
// through. In memory: the point is the check, not the data.
class DemoFencedStorage final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoFencedStorage)

public:
    explicit DemoFencedStorage(QObject* parent = nullptr);

    bool fencing() const { return m_fencing; }
    void setFencing(bool on);

    DemoWrite write(const QByteArray& resource, const QString& client, qint64 fencing);
    qint64 highestSeen(const QByteArray& resource) const { return m_highest.value(resource, 0); }

    int accepted() const { return m_accepted; }
    int rejected() const { return m_rejected; }
    int violations() const { return m_violations; }

signals:
    void written(const lockscope::DemoWrite& write);
    void fencingChanged(bool on);

private:
    QHash<QByteArray, qint64> m_highest;
    bool m_fencing = true;
    int m_accepted = 0;
    int m_rejected = 0;
    int m_violations = 0;
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::DemoWrite)
