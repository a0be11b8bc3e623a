#include "connectionsdialog.h"
#include "demosession.h"
#include "launchoptions.h"
#include "mainwindow.h"

#include <QApplication>
#include <QMessageBox>

#include <cstdio>

using namespace lockscope;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    // The same application name as lockctl: one audit log, one data directory.
    QCoreApplication::setApplicationName(QStringLiteral("lockscope"));
    QCoreApplication::setOrganizationName(QStringLiteral("LockScope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PROJECT_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("LockScope"));
    QGuiApplication::setDesktopFileName(QStringLiteral("lockscope"));
    QGuiApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/lockscope.svg")));

    Result<LaunchOptions> options = LaunchOptions::parse(QCoreApplication::arguments());
    if (!options) {
        const QString message = options.error().message;
        std::fprintf(stderr, "%s\n", qPrintable(message));
        const bool asked =
            message.startsWith(QLatin1String("Usage")) || message.startsWith(QLatin1String("lockscope "));
        return asked ? 0 : 2;
    }
    for (const QString& w : options->warnings)
        std::fprintf(stderr, "lockscope: warning: %s\n", qPrintable(w));

    DemoSession demo;
    if (options->demo) {
        Result<LockScopeConfig> config = demo.start();
        if (!config) {
            QMessageBox::critical(
                nullptr, QObject::tr("LockScope demo"),
                QObject::tr("The demo masters could not start: %1").arg(config.error().message));
            return 1;
        }
        const bool readOnly = options->config.readOnly;
        options->config = *config;
        options->config.readOnly = readOnly;
    }

    if (!options->hasMasters()) {
        // Nothing on the command line: pick a saved profile (or make one).
        ConnectionsDialog connections;
        if (connections.exec() == QDialog::Accepted && connections.chosenConfig())
            options->config = *connections.chosenConfig();
    }

    MainWindow window(options->config, options->auditLogPath);
    if (!options->select.isEmpty())
        window.selectWhenSeen(options->select);
    window.show();
    return app.exec();
}
