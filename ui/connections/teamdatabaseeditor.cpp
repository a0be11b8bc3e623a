// SPDX-License-Identifier: Apache-2.0
#include "connections/teamdatabaseeditor.h"

#include "config/configloader.h"
#include "connections/connectioneditor.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace lockscope {

TeamDatabaseEditor::TeamDatabaseEditor(const TeamDatabaseEntry& entry, QWidget* parent)
    : QDialog(parent), m_entry(entry), m_url(new QLineEdit(entry.url, this)), m_password(new QLineEdit(this)),
      m_passwordEnv(new QLineEdit(entry.passwordEnv, this)), m_problem(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Team database"));
    m_url->setPlaceholderText(QStringLiteral("postgresql://lockscope_writer@db.example/lockscope"));
    m_url->setToolTip(tr("The team's PostgreSQL database: every write from this profile is recorded in its "
                         "audit trail too (docs/manual/team.md). Empty: none."));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(entry.passwordInKeychain ? tr("(kept in the keychain; type to replace)")
                                                            : tr("stored in the system keychain"));
    m_passwordEnv->setPlaceholderText(
        tr("e.g. LOCKSCOPE_TEAM_PW (when no keychain is reachable; else PGPASSWORD or ~/.pgpass)"));
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText); // it quotes the URL typed
    auto* form = new QFormLayout(this);
    form->addRow(tr("&URL:"), m_url);
    form->addRow(tr("&Password:"), m_password);
    form->addRow(tr("Password from &environment:"), m_passwordEnv);
    form->addRow(m_problem);
    form->addRow(m_buttons);
    for (QLineEdit* e : {m_url, m_passwordEnv})
        connect(e, &QLineEdit::textChanged, this, &TeamDatabaseEditor::validate);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(560, sizeHint().height());
    validate();
}

TeamDatabaseEntry TeamDatabaseEditor::entry() const
{
    TeamDatabaseEntry e = m_entry;
    e.url = m_url->text().trimmed();
    e.passwordEnv = m_passwordEnv->text().trimmed();
    if (e.url != m_entry.url)
        e.passwordInKeychain = false; // another database: its password is asked again
    return e;
}

QString TeamDatabaseEditor::password() const
{
    return m_password->text();
}

QString TeamDatabaseEditor::problem(const TeamDatabaseEntry& entry)
{
    if (entry.isEmpty())
        return QString();
    // Parsed as the command line's --team-db is: the same refusals, in the same words.
    LockScopeConfig scratch;
    if (const RedisError e = ConfigLoader::setTeamDatabase(scratch, entry.url, QString()); e.isError())
        return e.message;
    return ConnectionEditor::passwordEnvProblem(entry.passwordEnv);
}

bool TeamDatabaseEditor::canAccept() const
{
    return m_buttons->button(QDialogButtonBox::Ok)->isEnabled();
}

void TeamDatabaseEditor::validate()
{
    const QString why = problem(entry());
    m_problem->setText(why);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}

} // namespace lockscope
