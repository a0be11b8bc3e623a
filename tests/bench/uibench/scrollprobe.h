// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <vector>

class QAbstractScrollArea;

// Scrolls a view the way a person flicking through a long table does (a page every frame, wrapping
// at the end) and times each frame: the scroll, the layout of the rows that come into view and a
// synchronous paint of the viewport. Frames over 16 ms are frames a 60 Hz screen would drop.
class ScrollProbe final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScrollProbe)

public:
    explicit ScrollProbe(QAbstractScrollArea* view, QObject* parent = nullptr);

    void start();
    void stop();
    size_t frames() const { return m_framesUs.size(); }
    double maxFrameMs() const;
    double percentileFrameMs(double p) const;

private:
    void frame();

    QAbstractScrollArea* m_view;
    QTimer m_timer;
    std::vector<qint64> m_framesUs;
};
