// SPDX-License-Identifier: Apache-2.0
#include "connections/productionwrites.h"

#include <QAction>
#include <QMessageBox>
#include <QPushButton>
#include <QWidget>

namespace lockscope {

ProductionWrites::ProductionWrites(QWidget* window, std::function<void(const LockScopeConfig&)> relaunch)
    : QObject(window), m_window(window), m_relaunch(std::move(relaunch)), m_action(new QAction(this))
{
    m_action->setObjectName(QStringLiteral("productionWrites"));
    m_action->setVisible(false);
    connect(m_action, &QAction::triggered, this, &ProductionWrites::toggle);
}

void ProductionWrites::setConfig(const LockScopeConfig& running, std::optional<LockScopeConfig> unlocked)
{
    m_config = running;
    m_unlocked = std::move(unlocked);
    m_action->setVisible(running.production);
    if (!running.readOnly) {
        m_action->setText(tr("&Lock writes again"));
        m_action->setEnabled(true);
        m_action->setToolTip(tr("Make this production profile read-only again"));
        return;
    }
    m_action->setText(tr("&Unlock writes…"));
    m_action->setEnabled(m_unlocked.has_value());
    m_action->setToolTip(m_unlocked
                             ? tr("Allow writes on this production profile until it is closed or "
                                  "another profile is chosen; the audit log records it")
                             : tr("Unavailable: the profile or this LockScope is read-only by itself"));
}

void ProductionWrites::toggle()
{
    if (!m_config.readOnly)
        return lock();
    if (!m_unlocked)
        return;
    QMessageBox ask(
        QMessageBox::Warning, tr("Unlock writes on production"),
        tr("These are production masters. Unlock writes (acquire, extend, release, force-release, "
           "keyspace-events changes) until this profile is closed?"),
        QMessageBox::Cancel, m_window);
    ask.setInformativeText(
        tr("The audit log records who unlocked them. The session starts again: the masters "
           "are read afresh. A force-release still asks for the resource's name."));
    QPushButton* unlockButton = ask.addButton(tr("&Unlock writes"), QMessageBox::AcceptRole);
    ask.setDefaultButton(QMessageBox::Cancel);
    ask.exec();
    if (ask.clickedButton() == unlockButton)
        unlock();
}

void ProductionWrites::unlock()
{
    if (m_config.readOnly && m_unlocked)
        m_relaunch(*m_unlocked);
}

void ProductionWrites::lock()
{
    if (m_config.readOnly || !m_config.production)
        return;
    LockScopeConfig locked = m_config;
    locked.readOnly = true;
    m_relaunch(locked);
}

} // namespace lockscope
