// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "trace/lockkeymodel.h"
#include "trace/monitorline.h"
#include "trace/scriptkind.h"
#include "trace/tracedcommand.h"
#include "trace/tracefilter.h"

#include <QList>

namespace lockscope {

// Tells what each command on one master meant for the lock (TraceMeaning), from the lock's state
// before and after it: MONITOR shows what was sent, never what it answered, so the answer is
// worked out by replaying the commands on a model of the key (LockKeyModel). An acquire that found
// the lock held was refused; a script's own calls (MONITOR shows them after the script's line)
// say what it changed; a DEL is the holder's when it comes from the connection that set the token.
class CommandInterpreter
{
public:
    // `lockKey` is the lock itself; `keys` also the auxiliary keys of its format.
    CommandInterpreter(QByteArray lockKey, const QByteArrayList& keys);

    LockKeyModel& model() { return m_model; }
    // `command` from a client (not a script's call); `scriptCalls` are its calls on the lock's keys
    // when it is a script.
    TracedCommand interpret(const MonitorLine& command, const QList<MonitorLine>& scriptCalls);

private:
    struct Applied
    {
        bool took = false;     // a holder appeared where there was none
        bool replaced = false; // another holder's token was written over
        bool renewed = false;  // the holder's lease was set again, or it re-entered
        bool left = false;     // a re-entry was given back
        bool removed = false;  // the holder's key went
    };
    Applied apply(const QByteArrayList& args, const QByteArray& client, qint64 us);
    void interpretScript(TracedCommand& out, const MonitorLine& script, const QList<MonitorLine>& calls,
                         const std::optional<LockKeyModel::Holder>& before);
    void interpretPlain(TracedCommand& out, const MonitorLine& command,
                        const std::optional<LockKeyModel::Holder>& before);
    QString heldBy(const LockKeyModel::Holder& holder) const;
    QString formerText(const LockKeyModel::Holder& former) const;

    QByteArray m_lockKey;
    TraceFilter m_filter;
    LockKeyModel m_model;
    ScriptKinds m_scriptKinds;
};

} // namespace lockscope
