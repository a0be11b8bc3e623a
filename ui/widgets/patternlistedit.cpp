// SPDX-License-Identifier: Apache-2.0
#include "widgets/patternlistedit.h"

#include "base/bytesdisplay.h"
#include "config/lockscopeconfig.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lockscope {

PatternListEdit::PatternListEdit(QWidget* parent)
    : QWidget(parent), m_table(new QTableWidget(0, 2, this)),
      m_add(new QPushButton(tr("Add &pattern"), this)),
      m_remove(new QPushButton(tr("Remove pa&ttern"), this)), m_note(new QLabel(this))
{
    m_table->setHorizontalHeaderLabels({tr("Key pattern"), tr("Mode")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->setToolTip(
        tr("Redis glob patterns (* ? [abc]) of the keys to scan. \"Every key is a lock\": a key "
           "of no known format without a TTL is stuck. \"Find locks among keys\": only lock "
           "libraries' formats are shown, other keys are not locks. A broad pattern such as *lock* "
           "is best a \"find\" one: as \"every key is a lock\" it takes clock:, block: and "
           "unlocked_… keys for locks."));
    QStringList defaults;
    for (const ScanPattern& p : MonitorSettings().patterns)
        defaults << p.toString();
    m_note->setText(tr("No patterns: the ones LockScope was started with (default %1).")
                        .arg(defaults.join(QStringLiteral(", "))));
    m_note->setWordWrap(true);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addStretch(1);
    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_table, 1);
    row->addLayout(buttons);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row, 1);
    layout->addWidget(m_note);

    connect(m_add, &QPushButton::clicked, this, [this] {
        // A profile's patterns replace the defaults: the first one added goes next to them, not
        // instead of them (remove them if they are not wanted).
        if (m_table->rowCount() == 0)
            for (const ScanPattern& p : MonitorSettings().patterns)
                appendRow(p);
        addPattern(ScanPattern());
        m_table->setCurrentCell(m_table->rowCount() - 1, 0);
        m_table->editItem(m_table->item(m_table->rowCount() - 1, 0));
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const int row = m_table->currentRow();
        if (row < 0)
            return;
        m_table->removeRow(row);
        emit changed();
    });
    connect(m_table, &QTableWidget::itemChanged, this, [this] {
        if (!m_filling)
            emit changed();
    });
}

QList<ScanPattern> PatternListEdit::patterns() const
{
    QList<ScanPattern> out;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QTableWidgetItem* glob = m_table->item(row, 0);
        const auto* mode = qobject_cast<const QComboBox*>(m_table->cellWidget(row, 1));
        const QString text = glob ? glob->text().trimmed() : QString();
        // Typed as shown: a \xNN or \\ in the glob means that byte, as everywhere keys are shown.
        const Result<QByteArray> bytes = unescapeBytes(text);
        const QByteArray match = bytes ? *bytes : text.toUtf8();
        if (match.isEmpty())
            continue;
        out << ScanPattern(match, mode ? PatternMode(mode->currentData().toInt()) : PatternMode::Locks);
    }
    return out;
}

void PatternListEdit::setPatterns(const QList<ScanPattern>& patterns)
{
    m_filling = true;
    m_table->setRowCount(0);
    m_filling = false;
    for (const ScanPattern& p : patterns)
        appendRow(p);
}

void PatternListEdit::addPattern(const ScanPattern& pattern)
{
    appendRow(pattern);
    if (!pattern.match.isEmpty())
        emit changed();
}

void PatternListEdit::appendRow(const ScanPattern& pattern)
{
    m_filling = true;
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, 0, new QTableWidgetItem(escapeBytes(pattern.match)));
    setModeCell(row, pattern.mode);
    m_filling = false;
}

void PatternListEdit::setModeCell(int row, PatternMode mode)
{
    auto* box = new QComboBox(m_table);
    box->addItem(tr("Every key is a lock"), int(PatternMode::Locks));
    box->addItem(tr("Find locks among keys"), int(PatternMode::Discover));
    box->addItem(tr("Fencing counters"), int(PatternMode::Fencing));
    box->setCurrentIndex(box->findData(int(mode)));
    connect(box, &QComboBox::currentIndexChanged, this, [this] { emit changed(); });
    m_table->setCellWidget(row, 1, box);
}

} // namespace lockscope
