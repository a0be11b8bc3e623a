// SPDX-License-Identifier: Apache-2.0
#include "window/viewexport.h"

#include "base/monotonicclock.h"
#include "base/privatefile.h"
#include "export/lockcsv.h"
#include "locks/lockfilterproxy.h"
#include "locks/locktablemodel.h"
#include "session/corethread.h"

#include <QFileDialog>
#include <QMessageBox>

namespace lockscope {

ViewExport::ViewExport(QWidget* window, LockTableModel* locks, LockFilterProxy* proxy)
    : QObject(window), m_window(window), m_locks(locks), m_proxy(proxy)
{}

bool ViewExport::save(const QString& path, const QByteArray& bytes)
{
    QString error;
    if (PrivateFile::saveOwnerOnly(path, bytes, &error))
        return true;
    QMessageBox::warning(m_window, tr("Export"), tr("Could not write %1: %2").arg(path, error));
    return false;
}

void ViewExport::exportCsv()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export view as CSV"),
                                                      QStringLiteral("locks.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    const qint64 now = monotonicMs();
    QString out = LockCsv::header() + QLatin1Char('\n');
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        out += LockCsv::row(m_locks->viewAt(m_proxy->mapToSource(m_proxy->index(r, 0)).row()), now) +
               QLatin1Char('\n');
    if (save(path, out.toUtf8()))
        emit exported(tr("Exported %n lock(s) to %1", nullptr, m_proxy->rowCount()).arg(path));
}

void ViewExport::exportJson(CoreThread* core)
{
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Export view as JSON"), QStringLiteral("locks.json"), tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    QByteArrayList resources;
    resources.reserve(m_proxy->rowCount());
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        resources << m_proxy->index(r, 0).data(LockTableModel::ResourceRole).toByteArray();
    if (resources.isEmpty() && m_locks->rowCount() > 0)
        resources << QByteArray(); // a filter that shows nothing exports nothing, not everything
    m_pendingExports.insert(core->request(&CoreService::exportJson, resources), path);
}

void ViewExport::jsonExported(quint64 request, const QByteArray& json)
{
    const QString path = m_pendingExports.take(request);
    if (!path.isEmpty() && save(path, json))
        emit exported(tr("Exported to %1").arg(path));
}

void ViewExport::exportHistory(const QByteArray& resource, bool json,
                               const std::function<QByteArray()>& contents)
{
    if (resource.isEmpty())
        return;
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Export history"), json ? QStringLiteral("history.json") : QStringLiteral("history.csv"),
        json ? tr("JSON files (*.json)") : tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    save(path, contents());
}

} // namespace lockscope
