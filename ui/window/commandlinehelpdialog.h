// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>

class QLabel;
class QUrl;
class QPlainTextEdit;

namespace lockscope {

// Help > Command-line reference: lockscope's options as --help prints them, and links to the man
// pages lockctl(1) and lockscope(1) (docs/man), which describe every command and option.
class CommandLineHelpDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CommandLineHelpDialog)

public:
    explicit CommandLineHelpDialog(QWidget* parent = nullptr);

    QPlainTextEdit* usage() const { return m_usage; }
    QLabel* whereLabel() const { return m_where; }
    // The installed README (share/doc/lockscope/README.md beside the binary's prefix), or empty.
    static QString readmePath();
    // Where the link to man page `name`(1) goes: man:name(1) when the page is installed (the desktop
    // hands that URL to its help viewer); else the page's source file when this runs from a source
    // tree (build/...), so that it can still be read; else man:name(1) all the same.
    static QUrl manPageUrl(const QString& name);

private:
    QPlainTextEdit* m_usage;
    QLabel* m_where;
};

} // namespace lockscope
