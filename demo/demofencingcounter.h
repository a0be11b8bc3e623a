// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <QByteArray>
#include <QObject>

#include <functional>

namespace lockscope {

class MasterSet;

// Issues fencing numbers for the demo: a counter per resource kept on every master, no single point
// of failure. next() INCRs the counter on every master at once and takes the highest answer, provided
// a majority answered; then it raises every master's counter to that number (SET if greater, in Lua),
// so that any later majority, which overlaps this one, starts from at least this number. Numbers are
// therefore strictly increasing for as long as no majority of masters loses its data at once.
class DemoFencingCounter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoFencingCounter)

public:
    using Done = std::function<void(const Result<qint64>& fencing)>;

    // `masters` must outlive this object.
    DemoFencingCounter(MasterSet* masters, int timeoutMs, QObject* parent = nullptr);

    // `counterKey` is the key holding the counter (not the lock's key). `done` runs later, once.
    void next(const QByteArray& counterKey, Done done);

private:
    MasterSet* m_masters;
    int m_timeoutMs;
};

} // namespace lockscope
