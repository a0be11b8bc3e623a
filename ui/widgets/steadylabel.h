// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QLabel>

namespace lockscope {

// A label for a text that changes often, such as the status bar's lock counts. A QLabel asks its
// parent to lay out again on every new text; in a status bar that lays out the whole main window
// and repaints it, table and scroll bars included (ui-bench: about one full repaint per table slice
// while locks arrive). This one has a fixed size that only grows: a new text that fits repaints the
// label alone.
class SteadyLabel final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SteadyLabel)

public:
    explicit SteadyLabel(QWidget* parent = nullptr);

    // Shows `text`. Too long for the label's size, the label grows, with room for a few more
    // characters, so that a count gaining a digit does not grow it again.
    void setSteadyText(const QString& text);

protected:
    void changeEvent(QEvent* event) override;

private:
    // The fixed size for the current text; `shrink`: may also become smaller (a new font).
    void fit(bool shrink);
};

} // namespace lockscope
