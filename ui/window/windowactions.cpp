// SPDX-License-Identifier: Apache-2.0
#include "window/windowactions.h"

#include "writes/actiongate.h"

#include <QAction>

namespace lockscope {

void WindowActions::applyGate(const ActionGate& gate, int pollIntervalMs, bool anyPolling)
{
    auto apply = [&gate](QAction* action, ActionGate::Action which, const QString& whatItDoes) {
        action->setEnabled(gate.allows(which));
        const QString tip = gate.toolTip(which, whatItDoes);
        action->setToolTip(tip);
        action->setStatusTip(QString(tip).replace(QLatin1Char('\n'), QStringLiteral(" — ")));
    };
    apply(acquire, ActionGate::Action::Acquire, tr("Acquire a Redlock on the masters"));
    apply(extend, ActionGate::Action::Extend, tr("Extend a lock this window acquired"));
    apply(release, ActionGate::Action::Release, tr("Release a lock this window acquired"));
    apply(forceRelease, ActionGate::Action::ForceRelease,
          tr("Delete this lock as an administrator, only where it still has the token shown"));
    apply(trace, ActionGate::Action::Trace,
          tr("Show every command on this lock's keys, with its connection and what it meant, for a short "
             "while (MONITOR on its masters; recorded in the audit log)"));
    apply(copyResource, ActionGate::Action::Copy, tr("Copy the selected lock's resource name"));
    apply(copyToken, ActionGate::Action::Copy, tr("Copy the selected lock's token"));
    apply(enableEvents, ActionGate::Action::EnableNotifications,
          tr("Run CONFIG SET notify-keyspace-events on the masters that are polling, after asking: live "
             "updates instead of a full pass every %1 s")
              .arg(double(pollIntervalMs) / 1000.0));
    if (enableEvents->isEnabled() && !anyPolling) {
        enableEvents->setEnabled(false);
        const QString why = tr("Every master that answers sends keyspace events already.");
        enableEvents->setToolTip(enableEvents->toolTip() + tr("\nUnavailable: %1").arg(why));
        enableEvents->setStatusTip(enableEvents->statusTip() + QStringLiteral(" — ") + why);
    }
}

} // namespace lockscope
