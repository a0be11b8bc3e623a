// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDockWidget>
#include <QElapsedTimer>
#include <QTimer>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace lockscope {

class TraceModel;

// The Trace dock (docs/manual/trace.md): what the trace is doing (a countdown while it runs), its
// length for the next one, a Stop button, the commands as they come, and the summary once it ended.
class TraceDock final : public QDockWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TraceDock)

public:
    TraceDock(TraceModel* model, QWidget* parent = nullptr);

    // How long the next trace runs, as chosen here (30 s unless changed).
    qint64 durationMs() const;
    bool isTracing() const { return m_tracing; }
    void setIdle(const QString& text);
    void setTracing(const QString& resource, const QStringList& masters, qint64 durationMs);
    void setStopped(const QString& text, const QStringList& summary);
    QPlainTextEdit* summary() const { return m_summary; }
    QLabel* state() const { return m_state; }

signals:
    void stopRequested();

private:
    void tick();

    TraceModel* m_model;
    QLabel* m_state;
    QComboBox* m_duration;
    QPushButton* m_stop;
    QTableView* m_view;
    QPlainTextEdit* m_summary;
    QTimer m_countdown;
    QElapsedTimer m_clock;
    QString m_tracingText;
    qint64 m_durationMs = 0;
    bool m_tracing = false;
};

} // namespace lockscope
