// SPDX-License-Identifier: Apache-2.0
#include "window/commandlinehelpdialog.h"

#include "session/launchoptions.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStandardPaths>
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

QUrl CommandLineHelpDialog::manPageUrl(const QString& name)
{
    const QUrl man(QStringLiteral("man:%1(1)").arg(name));
    const QDir bin(QCoreApplication::applicationDirPath());
    for (const QString& file : {QStringLiteral("%1.1").arg(name), QStringLiteral("%1.1.gz").arg(name)}) {
        const QString relative = QStringLiteral("man/man1/") + file;
        // Installed beside the binary's prefix, or anywhere in XDG_DATA_DIRS (/usr/share, ...).
        if (QFileInfo(bin.filePath(QStringLiteral("../share/") + relative)).isFile() ||
            !QStandardPaths::locate(QStandardPaths::GenericDataLocation, relative).isEmpty())
            return man;
    }
    // A build tree: build/app/lockscope, build/tests/tst_..., the sources two levels up.
    const QFileInfo source(bin.filePath(QStringLiteral("../../docs/man/%1.1").arg(name)));
    if (source.isFile())
        return QUrl::fromLocalFile(source.canonicalFilePath());
    return man;
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
    QStringList pages;
    for (const QString& name : {QStringLiteral("lockctl"), QStringLiteral("lockscope")}) {
        const QUrl url = manPageUrl(name);
        QString page = tr("<a href=\"%1\">%2(1)</a>").arg(url.toString().toHtmlEscaped(), name);
        // Not installed: say where the page is and how to read it.
        page += url.isLocalFile()
                    ? QLatin1Char(' ') +
                          tr("(not installed: <tt>man -l %1</tt>)").arg(url.toLocalFile().toHtmlEscaped())
                    : QLatin1Char(' ') + tr("(<tt>man %1</tt>)").arg(name);
        pages << page;
    }
    QString where = tr("The man pages %1 and %2 describe every command, option, exit code and JSON output. "
                       "<tt>lockscope --help</tt> prints the options above; <tt>lockctl --help</tt> "
                       "prints lockctl's commands and options.")
                        .arg(pages.value(0), pages.value(1));
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
