// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>

class QAbstractScrollArea;
class QScrollBar;

namespace lockscope {

// Keeps a scrolling view (a log, a commentary) at its newest line while the reader is there, and
// leaves it where it is while they read older ones. "There" is where the reader last put it, not
// where the scroll bar happens to be when an entry comes: a resize or a relayout between two
// entries moves the bottom away from the scroll bar's value without anyone having scrolled, and
// a view that judged by the value would stop following for good.
class BottomFollower final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BottomFollower)

public:
    explicit BottomFollower(QAbstractScrollArea* area);

    bool isFollowing() const { return m_following; }
    // To the bottom now if following: for views that keep a scroll bar's range while their
    // content moves under it (a plain-text view dropping its oldest line as it adds one).
    void follow();

private:
    QScrollBar* m_bar;
    bool m_following = true;
};

} // namespace lockscope
