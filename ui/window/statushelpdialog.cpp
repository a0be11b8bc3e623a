// SPDX-License-Identifier: Apache-2.0
#include "window/statushelpdialog.h"

#include "widgets/statusstyle.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lockscope {

StatusHelpDialog::StatusHelpDialog(QWidget* parent)
    : QDialog(parent), m_table(new QTableWidget(0, ColumnCount, this))
{
    setObjectName(QStringLiteral("statusHelp"));
    setWindowTitle(tr("What each status means"));
    m_table->setHorizontalHeaderLabels({tr("Status"), tr("Meaning"), tr("What to do")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(true);
    m_table->horizontalHeader()->setSectionResizeMode(StatusColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(MeaningColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(AdviceColumn, QHeaderView::Stretch);
    // In the manual's order (docs/manual/statuses.md): healthy first, then what needs a look.
    const QList<LockStatus> order{LockStatus::Held, LockStatus::Partial, LockStatus::Contested,
                                  LockStatus::Stuck, LockStatus::Unknown};
    for (LockStatus s : order) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        auto* name = new QTableWidgetItem(StatusStyle::statusIcon(s, palette()), StatusStyle::statusText(s));
        name->setForeground(StatusStyle::statusColor(s, palette()));
        m_table->setItem(row, StatusColumn, name);
        m_table->setItem(row, MeaningColumn, new QTableWidgetItem(StatusStyle::statusExplanation(s)));
        m_table->setItem(row, AdviceColumn, new QTableWidgetItem(StatusStyle::statusAdvice(s)));
    }
    const int risk = m_table->rowCount();
    m_table->insertRow(risk);
    m_table->setItem(risk, StatusColumn, new QTableWidgetItem(tr("at risk (mark)")));
    m_table->setItem(risk, MeaningColumn, new QTableWidgetItem(StatusStyle::atRiskExplanation()));
    m_table->setItem(risk, AdviceColumn, new QTableWidgetItem(StatusStyle::atRiskAdvice()));

    auto* precedence = new QLabel(
        tr("When several apply: contested, then unknown, then stuck, then held or partial. Colour is "
           "never the only sign: each status has its own shape and word."),
        this);
    precedence->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addWidget(precedence);
    layout->addWidget(buttons);
    m_table->setFocusPolicy(Qt::NoFocus);
    // Row heights follow the wrapped text at the columns' real widths, known once laid out.
    connect(m_table->horizontalHeader(), &QHeaderView::sectionResized, m_table,
            &QTableWidget::resizeRowsToContents);
    resize(960, 520);
}

} // namespace lockscope
