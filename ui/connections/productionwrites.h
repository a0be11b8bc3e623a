// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"

#include <QObject>

#include <functional>
#include <optional>

class QAction;
class QWidget;

namespace lockscope {

// A production profile's writes in the window (docs/manual/safety.md, "Production profiles"): they
// are locked when the profile opens; File > Unlock writes, confirmed by the person at the keyboard,
// starts the session again writable (the core records the unlocking in the audit log first), and the
// same action locks them again. Nothing here writes: it only chooses the configuration to run.
class ProductionWrites final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProductionWrites)

public:
    // `relaunch` runs the window on another configuration (MainWindow::monitor).
    ProductionWrites(QWidget* window, std::function<void(const LockScopeConfig&)> relaunch);

    // What the window now runs, and the same with its writes unlocked when that is allowed
    // (LaunchConfig::unlocked).
    void setConfig(const LockScopeConfig& running, std::optional<LockScopeConfig> unlocked);
    // File > Unlock writes / Lock writes again; hidden unless the profile is production.
    QAction* action() const { return m_action; }
    // Read-only only because the production profile's writes are locked: unlocking would allow them.
    bool isLocked() const { return m_config.production && m_config.readOnly && m_unlocked.has_value(); }

    // The same as the action, without the question (tests): unlocks or locks.
    void unlock();
    void lock();

private:
    void toggle();

    QWidget* m_window;
    std::function<void(const LockScopeConfig&)> m_relaunch;
    QAction* m_action;
    LockScopeConfig m_config;
    std::optional<LockScopeConfig> m_unlocked;
};

} // namespace lockscope
