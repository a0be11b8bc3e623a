// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QFont>
#include <QObject>

class QAction;

namespace lockscope {

// View > Zoom: the whole window's text larger or smaller (Ctrl+plus, Ctrl+minus; Actual size in the
// menu), for a projector or a small laptop screen. It scales the application font, which every view sizes its
// rows and columns from, and keeps the choice in the settings for the next start.
class TextZoom final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TextZoom)

public:
    // The steps, in percent of the font the desktop gives.
    static constexpr int steps[] = {70, 80, 90, 100, 110, 125, 150, 175, 200};

    explicit TextZoom(QObject* parent = nullptr);

    int percent() const { return m_percent; }
    void setPercent(int percent);
    void zoomIn();
    void zoomOut();

    QAction* zoomInAction() const { return m_in; }
    QAction* zoomOutAction() const { return m_out; }
    QAction* resetAction() const { return m_reset; }

private:
    QFont scaledFont(int percent) const;

    QFont m_base; // the desktop's font, at 100 %
    int m_percent = 100;
    QAction* m_in;
    QAction* m_out;
    QAction* m_reset;
};

} // namespace lockscope
