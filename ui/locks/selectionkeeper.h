// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QObject>
#include <QPointer>

class QAbstractItemView;
class QItemSelectionModel;

namespace lockscope {

class LockFilterProxy;

// The locks table's selection, kept by resource name rather than by row. Qt moves the current row
// to a neighbour when the current one is removed (a lock released or expired), and clears it on a
// model reset (a filter change): either way the selection would land on another lock, possibly one
// Shift+Del away from a force-release. Here a selected lock that disappears leaves nothing selected
// (state Gone when the lock itself went, None when a filter hides it), and a selected lock that is
// still shown after a filter change or a re-sort stays selected. A row that is current but not
// selected (Qt's faint focus frame) is no selection.
class SelectionKeeper final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SelectionKeeper)

public:
    enum class State
    {
        None,     // nothing selected
        Selected, // resource() is selected
        Gone,     // the selected lock was released or expired: nothing selected
    };

    explicit SelectionKeeper(QAbstractItemView* view);

    // Call before the view gets the proxy as its model: the keeper must see a removal before the
    // selection model moves the current row, so its connections have to come first.
    void watch(LockFilterProxy* proxy);
    // Call once the view has its selection model.
    void attach(QItemSelectionModel* selection);

    State state() const { return m_state; }
    QByteArray resource() const { return m_state == State::Selected ? m_resource : QByteArray(); }
    // The lock that was selected when the state became Gone.
    QByteArray goneResource() const { return m_state == State::Gone ? m_resource : QByteArray(); }

signals:
    void changed();

private:
    void followUser(); // the current row, when it is also selected
    void beginStructureChange();
    void endStructureChange();
    void set(State state, const QByteArray& resource);
    int proxyRowOf(const QByteArray& resource) const;

    QPointer<LockFilterProxy> m_proxy;
    QPointer<QItemSelectionModel> m_selection;
    State m_state = State::None;
    QByteArray m_resource;
    int m_changing = 0; // nesting of model structure changes under way
};

} // namespace lockscope
