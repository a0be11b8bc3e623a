// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>

class QJsonObject;
class QLabel;
class QTableWidget;

namespace lockscope {

class TeamAuditWatch;

// The audit log (JSON Lines) as a table, newest first: who did what to which lock, and what each
// master answered. Read from the file, so it shows lockctl's writes as well as this window's; a
// torn line is skipped and reported, and the default file of earlier versions is read as well.
// With a team database (`team` following one), its trail instead: every writer's records, new ones
// shown as they are committed. Every value is escaped: others wrote it.
class AuditLogDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AuditLogDialog)

public:
    static constexpr int maxLines = 5000;

    AuditLogDialog(QString path, TeamAuditWatch* team = nullptr, QWidget* parent = nullptr);

    void reload();
    QTableWidget* table() const { return m_table; }
    QLabel* statusLabel() const { return m_status; }

private:
    void reloadFile();
    void reloadTeam();
    // Fills the table with `records`, newest first.
    void show(const QList<QJsonObject>& records);

    QString m_path;
    TeamAuditWatch* m_team;
    QLabel* m_status;
    QTableWidget* m_table;
};

} // namespace lockscope
