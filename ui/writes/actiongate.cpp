// SPDX-License-Identifier: Apache-2.0
#include "writes/actiongate.h"

namespace lockscope {

QString ActionGate::writeBlocked() const
{
    if (m_state.masters <= 0)
        return tr("No masters: open a connection profile (Ctrl+K) or start the demo.");
    if (m_state.readOnly && m_state.productionLocked)
        return tr("Production profile: writes are locked. File > Unlock writes makes them possible for this "
                  "session.");
    if (m_state.readOnly)
        return tr("Read-only mode: every write is refused.");
    if (!m_state.auditProblem.isEmpty())
        return tr("The audit log %1 cannot be written (%2): a write that cannot be recorded is refused.")
            .arg(m_state.auditPath, m_state.auditProblem);
    return QString();
}

QString ActionGate::whyNot(Action action) const
{
    const QString nothingSelected = tr("Nothing selected: select a lock in the table first.");
    const QString noQuorum = tr("No quorum: %1 of %2 masters answer, Redlock needs %3.")
                                 .arg(m_state.mastersUp)
                                 .arg(m_state.masters)
                                 .arg(needed());
    switch (action) {
    case Action::Copy:
        return m_state.selected ? QString() : nothingSelected;
    case Action::Acquire:
        if (const QString why = writeBlocked(); !why.isEmpty())
            return why;
        return m_state.mastersUp < needed() ? noQuorum : QString();
    case Action::Extend:
    case Action::Release:
        if (const QString why = writeBlocked(); !why.isEmpty())
            return why;
        if (!m_state.selected)
            return nothingSelected;
        if (!m_state.ours)
            return tr("Not your lock: only a lock this window acquired can be %1, since that needs this "
                      "window's token. Another holder's lock can only be force-released.")
                .arg(action == Action::Extend ? tr("extended") : tr("released"));
        // A release deletes wherever the token still is; an extension needs the quorum again.
        return action == Action::Extend && m_state.mastersUp < needed() ? noQuorum : QString();
    case Action::ForceRelease:
        if (const QString why = writeBlocked(); !why.isEmpty())
            return why;
        if (!m_state.selected)
            return nothingSelected;
        return m_state.mastersUp == 0 ? tr("No masters answer: there is nothing to delete from.") : QString();
    case Action::Trace:
        if (m_state.masters <= 0)
            return tr("No masters: open a connection profile (Ctrl+K) or start the demo.");
        if (!m_state.selected)
            return nothingSelected;
        if (!m_state.auditProblem.isEmpty())
            return tr("The audit log %1 cannot be written (%2): a trace shows other clients' commands, "
                      "and one that cannot be recorded does not start.")
                .arg(m_state.auditPath, m_state.auditProblem);
        return m_state.mastersUp == 0 ? tr("No masters answer: there is nothing to trace.") : QString();
    case Action::EnableNotifications:
        if (const QString why = writeBlocked(); !why.isEmpty())
            return why;
        return m_state.mastersUp == 0 ? tr("No masters answer.") : QString();
    }
    return QString();
}

QString ActionGate::toolTip(Action action, const QString& whatItDoes) const
{
    const QString why = whyNot(action);
    return why.isEmpty() ? whatItDoes : tr("%1\nUnavailable: %2").arg(whatItDoes, why);
}

} // namespace lockscope
