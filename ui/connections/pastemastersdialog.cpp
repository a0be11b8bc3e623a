// SPDX-License-Identifier: Apache-2.0
#include "connections/pastemastersdialog.h"

#include "connections/connectioneditor.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace lockscope {

namespace {

// Whatever sits between the scheme and the last '@': a user name, maybe a password. An error
// message must never repeat it.
QString userInfoOf(const QString& url)
{
    const qsizetype at = url.lastIndexOf(QLatin1Char('@'));
    if (at < 0)
        return QString();
    const qsizetype scheme = url.indexOf(QLatin1String("://"));
    const qsizetype start = scheme >= 0 && scheme < at ? scheme + 3 : 0;
    return url.mid(start, at - start);
}

} // namespace

PasteMastersDialog::PasteMastersDialog(QWidget* parent)
    : QDialog(parent), m_edit(new QPlainTextEdit(this)), m_problems(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Add several masters"));
    auto* hint = new QLabel(tr("Paste the masters' URLs, one per line (or separated by spaces). Passwords do "
                               "not go here: set each master's password with Edit… afterwards."),
                            this);
    hint->setWordWrap(true);
    m_edit->setPlaceholderText(QStringLiteral("redis://10.0.0.1:6379\nredis://10.0.0.2:6379\n…"));
    m_edit->setTabChangesFocus(true);
    // It quotes the reasons the parser gave: never rich text.
    m_problems->setTextFormat(Qt::PlainText);
    m_problems->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(hint);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_problems);
    layout->addWidget(m_buttons);
    connect(m_edit, &QPlainTextEdit::textChanged, this, &PasteMastersDialog::validate);
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        if (canAccept())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(620, 360);
    validate();
}

QString PasteMastersDialog::text() const
{
    return m_edit->toPlainText();
}

PasteMastersDialog::Parsed PasteMastersDialog::parse(const QString& text)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    Parsed out;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        for (const QString& url : lines.at(i).split(space, Qt::SkipEmptyParts)) {
            MasterEntry entry;
            entry.url = url;
            QString why = ConnectionEditor::problem(entry);
            if (why.isEmpty()) {
                bool duplicate = false;
                for (const MasterEntry& e : std::as_const(out.masters))
                    duplicate = duplicate || e.url == url;
                if (!duplicate)
                    out.masters << entry;
                continue;
            }
            if (const QString secret = userInfoOf(url); !secret.isEmpty())
                why.replace(secret, QStringLiteral("…"));
            out.problems << tr("line %1: %2").arg(i + 1).arg(why);
        }
    }
    return out;
}

bool PasteMastersDialog::canAccept() const
{
    const Parsed parsed = parse(text());
    return parsed.problems.isEmpty() && !parsed.masters.isEmpty();
}

void PasteMastersDialog::validate()
{
    const Parsed parsed = parse(text());
    if (!parsed.problems.isEmpty())
        m_problems->setText(parsed.problems.join(QLatin1Char('\n')));
    else if (parsed.masters.isEmpty())
        m_problems->setText(tr("No URL yet."));
    else
        m_problems->setText(tr("%1 to add.")
                                .arg(parsed.masters.size() == 1
                                         ? tr("1 master")
                                         : tr("%1 masters").arg(parsed.masters.size())));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(canAccept());
}

} // namespace lockscope
