#include "auditlogdialog.h"

#include "plaintooltip.h"
#include "readonlyrows.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lockscope {

namespace {
// Audit files only grow; the tail is what an operator looks for.
constexpr qint64 tailBytes = 4 * 1024 * 1024;
} // namespace

AuditLogDialog::AuditLogDialog(QString path, QWidget* parent)
    : QDialog(parent), m_path(std::move(path)), m_status(new QLabel(this)),
      m_table(new QTableWidget(0, 8, this))
{
    setWindowTitle(tr("Audit log"));
    m_table->setHorizontalHeaderLabels({tr("Time"), tr("Who"), tr("Action"), tr("Resource"), tr("Outcome"),
                                        tr("Token"), tr("Per master"), tr("Message")});
    setUpReadOnlyRows(m_table);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* reloadButton = buttons->addButton(tr("&Reload"), QDialogButtonBox::ActionRole);
    connect(reloadButton, &QPushButton::clicked, this, &AuditLogDialog::reload);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(1000, 480);
    reload();
}

void AuditLogDialog::reload()
{
    m_table->setRowCount(0);
    QFile file(m_path);
    if (!file.exists()) {
        m_status->setText(tr("%1: nothing recorded yet.").arg(m_path));
        return;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        m_status->setText(tr("%1: %2").arg(m_path, file.errorString()));
        return;
    }
    if (file.size() > tailBytes)
        file.seek(file.size() - tailBytes);
    QList<QByteArray> lines = file.readAll().split('\n');
    if (file.pos() > tailBytes && !lines.isEmpty())
        lines.removeFirst(); // cut mid-line by the seek
    QList<QJsonObject> records;
    int unreadable = 0;
    for (auto it = lines.crbegin(); it != lines.crend() && records.size() < maxLines; ++it) {
        if (it->trimmed().isEmpty())
            continue;
        const QJsonDocument doc = QJsonDocument::fromJson(*it);
        if (doc.isObject())
            records << doc.object();
        else
            ++unreadable;
    }
    m_table->setRowCount(int(records.size()));
    for (int row = 0; row < records.size(); ++row) {
        const QJsonObject& o = records.at(row);
        QStringList perMaster;
        for (const QJsonValue& r : o.value(QStringLiteral("results")).toArray()) {
            const QJsonObject ro = r.toObject();
            perMaster << QStringLiteral("%1: %2").arg(ro.value(QStringLiteral("master")).toString(),
                                                      ro.value(QStringLiteral("result")).toString());
        }
        QString token = o.value(QStringLiteral("token")).toString();
        if (token.isEmpty())
            token = o.value(QStringLiteral("expectedToken")).toString();
        const QStringList cells{
            o.value(QStringLiteral("time")).toString(),
            QStringLiteral("%1@%2").arg(o.value(QStringLiteral("user")).toString(),
                                        o.value(QStringLiteral("host")).toString()),
            o.value(QStringLiteral("action")).toString(),
            o.value(QStringLiteral("resource")).toString(),
            o.value(QStringLiteral("outcome")).toString(),
            token,
            perMaster.join(QStringLiteral("; ")),
            o.value(QStringLiteral("message")).toString(),
        };
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells.at(c));
            item->setToolTip(plainToolTip(cells.at(c)));
            m_table->setItem(row, c, item);
        }
    }
    m_table->resizeColumnsToContents();
    QString status = tr("%1 — %n record(s), newest first.", nullptr, int(records.size())).arg(m_path);
    if (unreadable > 0)
        status += QLatin1Char(' ') + tr("%n line(s) could not be read.", nullptr, unreadable);
    m_status->setText(status);
}

} // namespace lockscope
