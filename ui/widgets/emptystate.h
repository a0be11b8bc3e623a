// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace lockscope {

// What the locks table shows while there is nothing to watch (the first-launch dialog was
// cancelled, or no master is configured): what to do next, as buttons, instead of an empty grid.
class EmptyState final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EmptyState)

public:
    explicit EmptyState(QWidget* parent = nullptr);

    QPushButton* connectButton() const { return m_connect; }
    QPushButton* demoButton() const { return m_demo; }

signals:
    void connectRequested();
    void demoRequested();

private:
    QPushButton* m_connect;
    QPushButton* m_demo;
};

} // namespace lockscope
