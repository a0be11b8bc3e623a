#include "connectionsdialog.h"
#include "demopanel.h"
#include "demosession.h"
#include "launchoptions.h"
#include "mainwindow.h"

#include <QApplication>
#include <QDockWidget>
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
    if (!options->demo && !options->hasMasters()) {
        // Nothing on the command line: pick a saved profile (or make one).
        ConnectionsDialog connections;
        if (connections.exec() == QDialog::Accepted && connections.chosenConfig())
            options->config = *connections.chosenConfig();
    }

    MainWindow window(options->config, options->auditLogPath);
    if (!options->select.isEmpty())
        window.selectWhenSeen(options->select);
    if (options->demo) {
        // The window opens at once; it starts watching when the demo masters are up.
        auto* dock = new QDockWidget(QObject::tr("Redlock demo"), &window);
        dock->setObjectName(QStringLiteral("demoDock"));
        dock->setWidget(new DemoPanel(&demo, dock));
        window.addDockWidget(Qt::BottomDockWidgetArea, dock);
        // On a projector the demo needs the whole width, and all five masters in view: the event
        // log and history become tabs behind the panel.
        for (const char* name : {"eventsDock", "historyDock"})
            if (auto* other = window.findChild<QDockWidget*>(QLatin1String(name)))
                window.tabifyDockWidget(dock, other);
        dock->raise();
        window.resizeDocks({dock}, {400}, Qt::Vertical);
        if (auto* masters = window.findChild<QDockWidget*>(QStringLiteral("mastersDock")))
            window.resizeDocks({masters}, {masters->fontMetrics().height() * 11}, Qt::Vertical);
        if (options->select.isEmpty())
            window.selectWhenSeen(QByteArrayLiteral("lock:demo:orders"));
        const bool readOnly = options->config.readOnly;
        const QString auditPath = options->auditLogPath;
        QObject::connect(&demo, &DemoSession::ready, &window,
                         [&window, readOnly, auditPath](LockScopeConfig c) {
                             c.readOnly = readOnly;
                             window.monitor(c, auditPath);
                         });
        QObject::connect(&demo, &DemoSession::failed, &window, [&window](const RedisError& error) {
            QMessageBox::critical(&window, QObject::tr("LockScope demo"),
                                  QObject::tr("The demo masters could not start: %1").arg(error.message));
        });
    }
    window.show();
    if (options->demo)
        demo.start();
    return app.exec();
}
