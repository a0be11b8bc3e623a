#pragma once

#include "holderepisode.h"

#include <QWidget>

namespace lockscope {

// The holders of one resource along a time axis: one bar per holder in its token's colour, from
// when it appeared to when it went, and how it ended written at the end of the bar.
class HistoryTimeline final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryTimeline)

public:
    explicit HistoryTimeline(QWidget* parent = nullptr);

    void setEpisodes(const QByteArray& resource, const QList<HolderEpisode>& episodes,
                     const QDateTime& since);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QByteArray m_resource;
    QList<HolderEpisode> m_episodes;
    QDateTime m_since;
};

} // namespace lockscope
