// SPDX-License-Identifier: Apache-2.0
#include "writes/auditlogdialog.h"

#include "audit/auditlog.h"
#include "audit/auditreader.h"
#include "base/bytesdisplay.h"
#include "widgets/plaintooltip.h"
#include "widgets/readonlyrows.h"
#include "writes/teamauditwatch.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace lockscope {

AuditLogDialog::AuditLogDialog(QString path, TeamAuditWatch* team, QWidget* parent)
    : QDialog(parent), m_path(std::move(path)), m_team(team), m_status(new QLabel(this)),
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
    if (m_team)
        connect(m_team, &TeamAuditWatch::changed, this, &AuditLogDialog::reload);
    reload();
}

void AuditLogDialog::reload()
{
    if (m_team && m_team->isFollowing())
        reloadTeam();
    else
        reloadFile();
}

void AuditLogDialog::reloadTeam()
{
    QList<QJsonObject> records = m_team->records();
    std::reverse(records.begin(), records.end());
    show(records);
    QString status = tr("Team database %1 — %n record(s), newest first; new ones appear as they are written.",
                        nullptr, int(records.size()))
                         .arg(m_team->name());
    if (!m_team->problem().isEmpty())
        status = tr("Team database: %1").arg(escapeText(m_team->problem()));
    m_status->setText(status);
}

void AuditLogDialog::reloadFile()
{
    m_table->setRowCount(0);
    QStringList notes;
    QList<QJsonObject> records;
    // The file, and the one earlier versions wrote by default while it still exists: its records
    // are the older ones.
    QStringList paths{m_path};
    const QString legacy = AuditLog::legacyDefaultPath();
    if (m_path == AuditLog::defaultPath() && legacy != m_path && QFileInfo::exists(legacy))
        paths.prepend(legacy);
    bool anyFile = false;
    for (const QString& path : std::as_const(paths)) {
        const AuditReader::Tail tail = AuditReader::read(path, maxLines);
        anyFile = anyFile || tail.exists;
        if (!tail.exists)
            continue;
        if (!tail.error.isEmpty()) {
            notes << tr("%1: %2").arg(path, tail.error);
            continue;
        }
        if (path != m_path)
            notes << tr("Also %n record(s) from the old default location %1.", nullptr,
                        int(tail.records.size()))
                         .arg(path);
        if (!tail.tornLines.isEmpty()) {
            QStringList numbers;
            for (qint64 n : tail.tornLines.mid(0, 10))
                numbers << QString::number(n);
            notes << tr("%1: %n torn or unreadable line(s) skipped (an append cut short, e.g. by a full "
                        "disk), line %2%3.",
                        nullptr, int(tail.tornLines.size()))
                         .arg(path, numbers.join(QStringLiteral(", ")),
                              tail.tornLines.size() > 10 ? QStringLiteral(", …") : QString());
        }
        if (const QString shared = AuditLog(path).permissionProblem(); !shared.isEmpty())
            notes << tr("%1 is %2.").arg(path, shared);
        records += tail.records;
    }
    if (!anyFile) {
        m_status->setText(tr("%1: nothing recorded yet.").arg(m_path));
        return;
    }
    std::reverse(records.begin(), records.end());
    // Newest first across both files; ISO 8601 UTC times sort as text.
    std::stable_sort(records.begin(), records.end(), [](const QJsonObject& a, const QJsonObject& b) {
        return a.value(QStringLiteral("time")).toString() > b.value(QStringLiteral("time")).toString();
    });
    if (records.size() > maxLines)
        records.resize(maxLines);
    show(records);
    QString status = tr("%1 — %n record(s), newest first.", nullptr, int(records.size())).arg(m_path);
    if (!notes.isEmpty())
        status += QLatin1Char(' ') + notes.join(QLatin1Char(' '));
    m_status->setText(status);
}

void AuditLogDialog::show(const QList<QJsonObject>& records)
{
    // user@host, and /program where the record names it (a team's trail has several).
    const auto who = [](const QJsonObject& o) -> QString {
        const QString program = o.value(QStringLiteral("program")).toString();
        return QStringLiteral("%1@%2").arg(o.value(QStringLiteral("user")).toString(),
                                           o.value(QStringLiteral("host")).toString()) +
               (program.isEmpty() ? QString() : QLatin1Char('/') + program);
    };
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
            o.value(QStringLiteral("time")).toString(),    who(o),
            o.value(QStringLiteral("action")).toString(),  o.value(QStringLiteral("resource")).toString(),
            o.value(QStringLiteral("outcome")).toString(), token,
            perMaster.join(QStringLiteral("; ")),          o.value(QStringLiteral("message")).toString(),
        };
        for (int c = 0; c < cells.size(); ++c) {
            const QString text = escapeText(cells.at(c));
            auto* item = new QTableWidgetItem(text);
            item->setToolTip(plainToolTip(text));
            m_table->setItem(row, c, item);
        }
    }
    m_table->resizeColumnsToContents();
}

} // namespace lockscope
