// SPDX-License-Identifier: Apache-2.0
// Renders the scalable icon into the fixed sizes of the hicolor icon theme, at build time:
//   lockscope_rendericon ICON.svg OUTDIR NAME SIZE...   ->  OUTDIR/<SIZE>x<SIZE>/NAME.png
// Desktops that do not load SVG icons (and the freedesktop icon theme specification's minimum,
// 48x48) take these; the SVG stays the one source of the picture.
#include <QDir>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char** argv)
{
    // No QGuiApplication: painting an SVG without text into a QImage needs no platform plugin,
    // so the build needs no display.
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (args.size() < 5) {
        std::fprintf(stderr, "usage: lockscope_rendericon ICON.svg OUTDIR NAME SIZE...\n");
        return 2;
    }
    QSvgRenderer svg(args.at(1));
    if (!svg.isValid()) {
        std::fprintf(stderr, "lockscope_rendericon: cannot read %s\n", qPrintable(args.at(1)));
        return 1;
    }
    for (const QString& text : args.mid(4)) {
        bool ok = false;
        const int size = text.toInt(&ok);
        if (!ok || size <= 0) {
            std::fprintf(stderr, "lockscope_rendericon: not a size: %s\n", qPrintable(text));
            return 2;
        }
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        svg.render(&painter);
        painter.end();
        const QString dir = QStringLiteral("%1/%2x%2").arg(args.at(2)).arg(size);
        const QString path = QStringLiteral("%1/%2.png").arg(dir, args.at(3));
        if (!QDir().mkpath(dir) || !image.save(path, "PNG")) {
            std::fprintf(stderr, "lockscope_rendericon: cannot write %s\n", qPrintable(path));
            return 1;
        }
    }
    return 0;
}
