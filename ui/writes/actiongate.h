// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>
#include <QString>

namespace lockscope {

// Which of the window's actions can run now, and, for each one that cannot, why: a greyed
// action's tooltip says what stops it (issue #20) rather than leaving the user to guess.
class ActionGate
{
    Q_DECLARE_TR_FUNCTIONS(ActionGate)

public:
    struct State
    {
        int masters = 0;   // configured
        int mastersUp = 0; // answering now
        bool readOnly = false;
        // Read-only only because a production profile's writes are locked (LaunchConfig::unlocked).
        bool productionLocked = false;
        QString auditProblem; // non-empty: the audit log cannot be appended to (why)
        QString auditPath;
        bool selected = false; // a lock is selected
        bool ours = false;     // ... and this window holds its token
    };

    enum class Action
    {
        Acquire,
        Extend,
        Release,
        ForceRelease,
        Copy,
        EnableNotifications,
        Trace, // a read, allowed in read-only mode, but recorded in the audit log
    };

    explicit ActionGate(const State& state) : m_state(state) {}

    // Empty when the action can run; otherwise one sentence saying why not.
    QString whyNot(Action action) const;
    bool allows(Action action) const { return whyNot(action).isEmpty(); }
    // The tooltip: what the action does, and, when greyed, why.
    QString toolTip(Action action, const QString& whatItDoes) const;

    int needed() const { return m_state.masters / 2 + 1; }

private:
    QString writeBlocked() const;

    State m_state;
};

} // namespace lockscope
