#pragma once

#include <QDialog>

class QLabel;
class QPlainTextEdit;

namespace lockscope {

// Help > Command-line reference: lockscope's options as --help prints them, and where lockctl's
// are described. There are no man pages yet; this says so rather than linking to nothing.
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

private:
    QPlainTextEdit* m_usage;
    QLabel* m_where;
};

} // namespace lockscope
