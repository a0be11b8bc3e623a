// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QHash>
#include <QObject>

#include <functional>

class QWidget;

namespace lockscope {

class CoreThread;
class LockFilterProxy;
class LockTableModel;

// File > Export view as CSV/JSON and the History dock's exports: asks where (a save dialog over
// `window`), writes the file atomically (QSaveFile), and says how it went: a warning box when it
// could not be written, `exported` with a line for the status bar when it was.
class ViewExport final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ViewExport)

public:
    ViewExport(QWidget* window, LockTableModel* locks, LockFilterProxy* proxy);

    // The rows the filter shows, in the order shown.
    void exportCsv();
    // The same rows as JSON, written by the core (it has the full observations): the file is written
    // when `core` answers (jsonExported).
    void exportJson(CoreThread* core);
    void jsonExported(quint64 request, const QByteArray& json);
    // The History dock's episodes of `resource`, as CSV or JSON: `contents` makes the file's bytes
    // once a path is chosen (HistoryView::exported).
    void exportHistory(const QByteArray& resource, bool json, const std::function<QByteArray()>& contents);

signals:
    void exported(const QString& message);

private:
    bool save(const QString& path, const QByteArray& bytes);

    QWidget* m_window;
    LockTableModel* m_locks;
    LockFilterProxy* m_proxy;
    QHash<quint64, QString> m_pendingExports; // core request id -> the path chosen for it
};

} // namespace lockscope
