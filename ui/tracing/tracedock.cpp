// SPDX-License-Identifier: Apache-2.0
#include "tracing/tracedock.h"

#include "base/durationformat.h"
#include "tracing/tracemodel.h"
#include "widgets/bottomfollower.h"
#include "widgets/readonlyrows.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace lockscope {

TraceDock::TraceDock(TraceModel* model, QWidget* parent)
    : QDockWidget(tr("Trace"), parent), m_model(model), m_state(new QLabel(this)),
      m_duration(new QComboBox(this)), m_stop(new QPushButton(tr("Stop"), this)),
      m_view(new QTableView(this)), m_summary(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("traceDock"));
    m_state->setObjectName(QStringLiteral("traceState"));
    m_state->setWordWrap(true);
    m_state->setTextFormat(Qt::PlainText);
    for (const int seconds : {10, 30, 60, 300})
        m_duration->addItem(formatDuration(seconds * 1000LL), seconds * 1000);
    m_duration->setCurrentIndex(1);
    m_duration->setToolTip(tr("How long the next trace runs: MONITOR costs the master a copy of every "
                              "command, so a trace is always short"));
    m_stop->setObjectName(QStringLiteral("traceStop"));
    m_stop->setEnabled(false);
    connect(m_stop, &QPushButton::clicked, this, &TraceDock::stopRequested);
    m_view->setObjectName(QStringLiteral("traceCommands"));
    m_view->setModel(model);
    setUpReadOnlyRows(m_view);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    const int digit = m_view->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_view->setColumnWidth(TraceModel::Time, digit * 13);
    m_view->setColumnWidth(TraceModel::Meaning, digit * 24);
    m_view->setColumnWidth(TraceModel::Connection, digit * 28);
    m_view->setColumnWidth(TraceModel::Command, digit * 40);
    m_view->setColumnWidth(TraceModel::Detail, digit * 40);
    new BottomFollower(m_view);
    m_summary->setObjectName(QStringLiteral("traceSummary"));
    m_summary->setReadOnly(true);
    m_summary->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_summary->setMaximumHeight(m_summary->fontMetrics().height() * 7);
    m_summary->hide();

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Length:"), this));
    controls->addWidget(m_duration);
    controls->addWidget(m_stop);
    controls->addStretch(1);
    auto* column = new QVBoxLayout;
    column->setContentsMargins(4, 4, 4, 4);
    column->addWidget(m_state);
    column->addLayout(controls);
    column->addWidget(m_view, 1);
    column->addWidget(m_summary);
    auto* body = new QWidget(this);
    body->setLayout(column);
    setWidget(body);

    m_countdown.setInterval(1000);
    connect(&m_countdown, &QTimer::timeout, this, &TraceDock::tick);
    connect(model, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_tracing)
            tick();
    });
    setIdle(tr("Who touches a lock: select it and choose Lock > Trace (Ctrl+T). Every command on its keys "
               "shows here with its connection and what it meant, for a short while."));
}

qint64 TraceDock::durationMs() const
{
    return m_duration->currentData().toLongLong();
}

void TraceDock::setIdle(const QString& text)
{
    m_tracing = false;
    m_countdown.stop();
    m_stop->setEnabled(false);
    m_duration->setEnabled(true);
    m_state->setText(text);
}

void TraceDock::setTracing(const QString& resource, const QStringList& masters, qint64 durationMs)
{
    m_tracing = true;
    m_durationMs = durationMs;
    m_tracingText = tr("Tracing %1 on %2").arg(resource, masters.join(QStringLiteral(", ")));
    m_summary->clear();
    m_summary->hide();
    m_stop->setEnabled(true);
    m_duration->setEnabled(false);
    m_clock.start();
    m_countdown.start();
    tick();
}

void TraceDock::setStopped(const QString& text, const QStringList& summary)
{
    setIdle(text);
    m_summary->setPlainText(summary.join(QLatin1Char('\n')));
    m_summary->setVisible(!summary.isEmpty());
}

void TraceDock::tick()
{
    const qint64 left = qMax<qint64>(0, m_durationMs - m_clock.elapsed());
    m_state->setText(tr("%1: %2 left, %n command(s)", nullptr, m_model->rowCount())
                         .arg(m_tracingText, formatDuration(left)));
}

} // namespace lockscope
