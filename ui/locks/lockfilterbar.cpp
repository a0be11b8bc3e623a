// SPDX-License-Identifier: Apache-2.0
#include "locks/lockfilterbar.h"

#include "locks/lockfilterproxy.h"
#include "widgets/statusstyle.h"

#include <QAbstractItemView>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLineEdit>
#include <QToolButton>

namespace lockscope {

LockFilterBar::LockFilterBar(LockFilterProxy* proxy, QWidget* parent)
    : QWidget(parent), m_proxy(proxy), m_text(new QLineEdit(this))
{
    m_text->setPlaceholderText(tr("Filter: text, or a glob such as lock:orders:* (Ctrl+F)"));
    m_text->setClearButtonEnabled(true);
    connect(m_text, &QLineEdit::textChanged, m_proxy, &LockFilterProxy::setFilterText);
    m_text->installEventFilter(this);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text, 1);
    addQuickButton(LockFilterProxy::StuckFilter, tr("Stuck"));
    addQuickButton(LockFilterProxy::ContestedFilter, tr("Contested"));
    addQuickButton(LockFilterProxy::PartialFilter, tr("Partial"));
    // The threshold is the filter's own.
    addQuickButton(LockFilterProxy::ExpiringSoonFilter,
                   tr("Expiring soon (< %1 s)").arg(double(m_proxy->expiringSoonMs()) / 1000.0));
}

void LockFilterBar::addQuickButton(int flag, const QString& text)
{
    auto* b = new QToolButton(this);
    b->setText(text);
    b->setCheckable(true);
    b->setProperty("quickFilter", flag);
    b->setToolTip(flag == LockFilterProxy::ExpiringSoonFilter
                      ? tr("Locks with less than %1 s of validity left").arg(m_proxy->expiringSoonMs() / 1000)
                      : tr("Show only %1 locks (with the others chosen here)").arg(text.toLower()));
    if (flag == LockFilterProxy::StuckFilter)
        b->setIcon(StatusStyle::statusIcon(LockStatus::Stuck, palette()));
    else if (flag == LockFilterProxy::ContestedFilter)
        b->setIcon(StatusStyle::statusIcon(LockStatus::Contested, palette()));
    else if (flag == LockFilterProxy::PartialFilter)
        b->setIcon(StatusStyle::statusIcon(LockStatus::Partial, palette()));
    b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    connect(b, &QToolButton::toggled, this, &LockFilterBar::applyQuickFilters);
    m_quickButtons << b;
    layout()->addWidget(b);
}

void LockFilterBar::applyQuickFilters()
{
    LockFilterProxy::QuickFilters f;
    for (QToolButton* q : std::as_const(m_quickButtons))
        if (q->isChecked())
            f |= LockFilterProxy::QuickFilter(q->property("quickFilter").toInt());
    m_proxy->setQuickFilters(f);
}

bool LockFilterBar::eventFilter(QObject* watched, QEvent* event)
{
    const bool key = event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress;
    if (watched != m_text || !key)
        return QWidget::eventFilter(watched, event);
    const auto* press = static_cast<const QKeyEvent*>(event);
    if (event->type() == QEvent::ShortcutOverride && press->key() == Qt::Key_Delete &&
        press->modifiers() == Qt::ShiftModifier) {
        // The line edit would take Shift+Del as "cut" (Ctrl+X still cuts): left to the window.
        event->ignore();
        return true;
    }
    if (event->type() == QEvent::KeyPress && m_results && press->modifiers() == Qt::NoModifier &&
        (press->key() == Qt::Key_Down || press->key() == Qt::Key_PageDown)) {
        m_results->setFocus(Qt::TabFocusReason);
        QItemSelectionModel* selection = m_results->selectionModel();
        if (selection && !selection->hasSelection() && m_results->model()->rowCount() > 0)
            selection->setCurrentIndex(m_results->model()->index(0, 0),
                                       QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void LockFilterBar::focusText()
{
    m_text->setFocus();
    m_text->selectAll();
}

void LockFilterBar::setText(const QString& text)
{
    m_text->setText(text);
}

void LockFilterBar::showAll()
{
    m_text->clear();
    for (QToolButton* b : std::as_const(m_quickButtons))
        b->setChecked(false);
}

} // namespace lockscope
