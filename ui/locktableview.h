#pragma once

#include <QTableView>
#include <QTimer>

namespace lockscope {

class LockFilterProxy;

// The locks table: fixed row heights (a content-sized header makes every update quadratic), and a
// countdown tick that repaints only the TTL column's visible cells. The TTL text is computed at
// paint time from the monotonic clock, so the countdown is smooth without touching the model.
class LockTableView final : public QTableView
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockTableView)

public:
    static constexpr int tickMs = 100;

    explicit LockTableView(QWidget* parent = nullptr);

    void setProxy(LockFilterProxy* proxy);
    // The viewport area the countdown repaints: the TTL column, visible rows only.
    QRect countdownRect() const;
    QByteArray currentResource() const;
    // Selects the row of this resource, if it is shown.
    void selectResource(const QByteArray& resource);

signals:
    void countdownTicked();

private:
    void tick();

    LockFilterProxy* m_proxy = nullptr;
    QTimer m_countdown;
    int m_ticks = 0;
};

} // namespace lockscope
