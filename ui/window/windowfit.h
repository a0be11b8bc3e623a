// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>

class QWidget;

namespace lockscope {

// Keeps a top-level window within the available geometry of its screen (the screen less panels
// and docks): a default size made for a large monitor, or a geometry restored from a larger or
// since removed screen, would otherwise open with its title bar or its edges out of reach.
class WindowFit final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WindowFit)

public:
    // Fits now (with an estimate of the frame when the window has none yet), and again, with the
    // real frame, each time the window is shown.
    static void keepOnScreen(QWidget* window);
    // Shrinks and moves the window so that its frame lies within its screen's available geometry.
    static void fit(QWidget* window);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit WindowFit(QWidget* window);
};

} // namespace lockscope
