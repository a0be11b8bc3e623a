// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QWidget>

class QAbstractItemView;
class QLineEdit;
class QToolButton;

namespace lockscope {

class LockFilterProxy;

// The row above the locks table: the text/glob filter and the quick filters (stuck, contested,
// partial, expiring soon) as checkable buttons. It drives the proxy it is given; the Filter menu
// mirrors its buttons (quickButtons()). Shift+Del in the text is the window's force-release of the
// selected lock, not the line edit's "cut".
class LockFilterBar final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockFilterBar)

public:
    LockFilterBar(LockFilterProxy* proxy, QWidget* parent = nullptr);

    QLineEdit* textEdit() const { return m_text; }
    // Each carries its LockFilterProxy::QuickFilter in the "quickFilter" property.
    const QList<QToolButton*>& quickButtons() const { return m_quickButtons; }

    // Ctrl+F: the text field, its content selected for typing over.
    void focusText();
    void setText(const QString& text);
    // No text, no quick filter: every lock shown.
    void showAll();
    // The view it filters: Down or Page Down in the text goes there, onto its first row when none
    // is selected yet.
    void setResults(QAbstractItemView* results) { m_results = results; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void addQuickButton(int flag, const QString& text);
    void applyQuickFilters();

    LockFilterProxy* m_proxy;
    QLineEdit* m_text;
    QAbstractItemView* m_results = nullptr;
    QList<QToolButton*> m_quickButtons;
};

} // namespace lockscope
