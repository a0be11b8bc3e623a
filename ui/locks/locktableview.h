// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QTableView>

#include <QTimer>
#include <array>

namespace lockscope {

class LockFilterProxy;
class RepaintPacer;
class SelectionKeeper;

// The locks table: fixed row heights (a content-sized header makes every update quadratic), and a
// countdown tick that repaints only the TTL column's visible cells. The TTL text is computed at
// paint time from the monotonic clock, so the countdown is smooth without touching the model.
// Changes from the model repaint at most at the countdown's rate while they come in a burst (a
// first pass over 100k locks): RepaintPacer.
class LockTableView final : public QTableView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockTableView)

public:
    explicit LockTableView(QWidget* parent = nullptr);

    void setProxy(LockFilterProxy* proxy);
    // The viewport area the countdown repaints: the TTL column, visible rows only.
    QRect countdownRect() const;
    // The selected lock, kept by name (SelectionKeeper): empty when nothing is selected.
    QByteArray currentResource() const;
    SelectionKeeper* selection() const { return m_keeper; }
    // Selects the row of this resource, if it is shown.
    void selectResource(const QByteArray& resource);

signals:
    void countdownTicked();
    // The selected lock changed, or went away (see SelectionKeeper::state).
    void selectedResourceChanged();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void rowsInserted(const QModelIndex& parent, int start, int end) override;
    void rowsAboutToBeRemoved(const QModelIndex& parent, int start, int end) override;
    void dataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                     const QList<int>& roles = QList<int>()) override;

private:
    void tick();
    // Row height and column widths from the font (and the longest value a column shows).
    void fitToFont();
    // Every column within the viewport: the wide ones (owner, format, resource, quorum) give up
    // room down to a floor, so that the TTL and the masters are never off the right edge behind
    // a scroll that would hide the resource.
    void fitToWidth();

    LockFilterProxy* m_proxy = nullptr;
    SelectionKeeper* m_keeper;
    RepaintPacer* m_pacer;
    QTimer m_countdown;
    int m_ticks = 0;
    std::array<int, 8> m_fitted{}; // each column's width from fitToFont()
};

} // namespace lockscope
