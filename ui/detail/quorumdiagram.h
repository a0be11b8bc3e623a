// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/lockview.h"

#include <QStringList>
#include <QWidget>

#include <optional>

namespace lockscope {

// The N masters as nodes, each coloured by the token it holds (hollow when absent, crossed when
// unreachable), under a strip that fills one cell per master holding the majority token and marks
// where `needed` lies, with the verdict spelled out: a Redlock quorum at a glance.
class QuorumDiagram final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(QuorumDiagram)

public:
    explicit QuorumDiagram(QWidget* parent = nullptr);

    void setView(const std::optional<LockView>& view, const QStringList& masterNames);
    QSize sizeHint() const override;
    // Wide enough for the verdict lines and for every node's labels unelided ("unreachable").
    QSize minimumSizeHint() const override;

    // The verdict, as drawn: two lines, so that neither needs more than the diagram's width.
    QStringList titleLines() const;
    // What node i shows under its label: "unreachable", "absent" or the token (elided to fit);
    // and its PTTL counted down to nowMs.
    QString nodeText(int master) const;
    QString nodeTtlText(int master, qint64 nowMs) const;
    // The width each node has for its texts.
    qreal slotWidth() const;
    static constexpr qreal margin = 12;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::optional<LockView> m_view;
    QStringList m_names;
};

} // namespace lockscope
