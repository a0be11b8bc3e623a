#include "commandlinehelpdialog.h"

#include "launchoptions.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QUrl>
#include <QVBoxLayout>

namespace lockscope {

QString CommandLineHelpDialog::readmePath()
{
    const QDir bin(QCoreApplication::applicationDirPath());
    for (const QString& candidate : {bin.filePath(QStringLiteral("../share/doc/lockscope/README.md")),
                                     bin.filePath(QStringLiteral("../README.md"))}) {
        const QFileInfo info(candidate);
        if (info.isFile())
            return info.canonicalFilePath();
    }
    return QString();
}

CommandLineHelpDialog::CommandLineHelpDialog(QWidget* parent)
    : QDialog(parent), m_usage(new QPlainTextEdit(this)), m_where(new QLabel(this))
{
    setObjectName(QStringLiteral("commandLineHelp"));
    setWindowTitle(tr("Command-line reference"));
    // The same text as `lockscope --help`.
    const Result<LaunchOptions> help =
        LaunchOptions::parse({QStringLiteral("lockscope"), QStringLiteral("--help")});
    m_usage->setPlainText(help ? QString() : help.error().message);
    m_usage->setReadOnly(true);
    m_usage->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_usage->setLineWrapMode(QPlainTextEdit::NoWrap);

    const QString readme = readmePath();
    QString where =
        tr("There are no man pages for lockctl(1) and lockscope(1) yet. <tt>lockscope --help</tt> prints the "
           "options above; <tt>lockctl --help</tt> prints lockctl's commands, and the README's "
           "<b>lockctl</b> section describes each of them, with its exit codes.");
    if (!readme.isEmpty())
        where += QLatin1Char(' ') + tr("<a href=\"%1\">Open the README</a>.")
                                        .arg(QUrl::fromLocalFile(readme).toString().toHtmlEscaped());
    m_where->setTextFormat(Qt::RichText);
    m_where->setText(where);
    m_where->setWordWrap(true);
    m_where->setOpenExternalLinks(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_usage, 1);
    layout->addWidget(m_where);
    layout->addWidget(buttons);
    resize(820, 520);
}

} // namespace lockscope
