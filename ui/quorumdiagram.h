#pragma once

#include "lockview.h"

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
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::optional<LockView> m_view;
    QStringList m_names;
};

} // namespace lockscope
