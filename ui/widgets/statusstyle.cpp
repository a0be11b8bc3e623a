// SPDX-License-Identifier: Apache-2.0
#include "widgets/statusstyle.h"

#include <QCoreApplication>
#include <QHash>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace lockscope {

// The words keep the translation context the class gave them.
namespace StatusStyle {
static QString tr(const char* text)
{
    return QCoreApplication::translate("StatusStyle", text);
}
} // namespace StatusStyle

namespace {

int hueOf(LockStatus status)
{
    switch (status) {
    case LockStatus::Held:
        return 130;
    case LockStatus::Partial:
        return 38;
    case LockStatus::Contested:
        return 290;
    case LockStatus::Stuck:
        return 2;
    case LockStatus::Unknown:
        return -1;
    }
    return -1;
}

} // namespace

bool StatusStyle::isDark(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor StatusStyle::statusColor(LockStatus status, const QPalette& palette)
{
    const int hue = hueOf(status);
    if (hue < 0)
        return palette.color(QPalette::PlaceholderText);
    // Darker and saturated on light backgrounds, lighter on dark ones: contrast stays above 4.5:1.
    return isDark(palette) ? QColor::fromHsl(hue, 170, 150) : QColor::fromHsl(hue, 200, 80);
}

QColor StatusStyle::warningColor(const QPalette& palette)
{
    return isDark(palette) ? QColor::fromHsl(38, 220, 140) : QColor::fromHsl(30, 230, 85);
}

QColor StatusStyle::overlapColor()
{
    return QColor(220, 30, 30);
}

QIcon StatusStyle::statusIcon(LockStatus status, const QPalette& palette)
{
    // Views ask for the icon on every paint: draw each one once per theme.
    static QHash<int, QIcon> cache;
    const int key = int(status) * 2 + (isDark(palette) ? 1 : 0);
    if (const auto it = cache.constFind(key); it != cache.constEnd())
        return *it;
    const QColor colour = statusColor(status, palette);
    const qreal ratio = 2;
    QPixmap pixmap(int(16 * ratio), int(16 * ratio));
    pixmap.setDevicePixelRatio(ratio);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF box(2, 2, 12, 12);
    QPen pen(colour, 1.6);
    p.setPen(pen);
    switch (status) {
    case LockStatus::Held: // a full disc with a tick
        p.setBrush(colour);
        p.drawEllipse(box);
        p.setPen(QPen(palette.color(QPalette::Base), 1.8, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.drawPolyline(QPolygonF{QPointF(5, 8.2), QPointF(7.2, 10.4), QPointF(11, 5.8)});
        break;
    case LockStatus::Partial: { // a half-filled disc
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(box);
        QPainterPath half;
        half.moveTo(box.center());
        half.arcTo(box, 90, 180);
        half.closeSubpath();
        p.fillPath(half, colour);
        break;
    }
    case LockStatus::Contested: // two overlapping rings
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(QRectF(1, 4, 9, 9));
        p.drawEllipse(QRectF(6, 3, 9, 9));
        break;
    case LockStatus::Stuck: // a solid square with a bar: "stopped"
        p.setBrush(colour);
        p.drawRoundedRect(box, 2, 2);
        p.setPen(QPen(palette.color(QPalette::Base), 2, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(5, 8), QPointF(11, 8));
        break;
    case LockStatus::Unknown: { // a dashed ring with a question mark
        pen.setStyle(Qt::DashLine);
        p.setPen(pen);
        p.drawEllipse(box);
        QFont f = p.font();
        f.setPixelSize(10);
        f.setBold(true);
        p.setFont(f);
        p.setPen(colour);
        p.drawText(box, Qt::AlignCenter, QStringLiteral("?"));
        break;
    }
    }
    p.end();
    const QIcon icon(pixmap);
    cache.insert(key, icon);
    return icon;
}

QString StatusStyle::statusText(LockStatus status)
{
    switch (status) {
    case LockStatus::Held:
        return tr("held");
    case LockStatus::Partial:
        return tr("partial");
    case LockStatus::Contested:
        return tr("contested");
    case LockStatus::Stuck:
        return tr("stuck");
    case LockStatus::Unknown:
        return tr("unknown");
    }
    return tr("unknown");
}

QString StatusStyle::statusExplanation(LockStatus status)
{
    switch (status) {
    case LockStatus::Held:
        return tr("One token on a quorum of masters, with an expiry, and no other token anywhere.");
    case LockStatus::Partial:
        return tr("Present on some masters, but no token reaches the quorum.");
    case LockStatus::Contested:
        return tr("Two or more different tokens across the masters.");
    case LockStatus::Stuck:
        return tr(
            "Held without an expiry (or a legacy timestamp already past): it will never go away by itself.");
    case LockStatus::Unknown:
        return tr("Too many masters are unreachable to decide.");
    }
    return QString();
}

QString StatusStyle::statusAdvice(LockStatus status)
{
    switch (status) {
    case LockStatus::Held:
        return tr("Nothing: a healthy lock.");
    case LockStatus::Partial:
        return tr(
            "Usually nothing, since it expires by itself. Force-release on the masters holding it if it "
            "lingers.");
    case LockStatus::Contested:
        return tr(
            "Two clients believe they hold it, or a failed acquisition overlaps a real one. Look at the "
            "per-master tokens before acting.");
    case LockStatus::Stuck:
        return tr("The holder is probably gone. Confirm, then force-release with the token shown.");
    case LockStatus::Unknown:
        return tr("Get the masters back. Nothing is certain until then.");
    }
    return QString();
}

QString StatusStyle::atRiskExplanation()
{
    return tr("A master holding this lock restarted (its run_id changed) and, without persistence, may have "
              "forgotten it; or a Sentinel group or cluster shard failed over, and the promoted replica may "
              "not have received it: the Redlock double-grant hazard.");
}

QString StatusStyle::atRiskAdvice()
{
    return tr("Treat the lock as possibly lost.");
}

QColor StatusStyle::tokenColor(const QByteArray& token, const QPalette& palette)
{
    // A hash, not an order: the same token keeps its colour across refreshes and windows. The hues
    // stay clear of every status colour (red stuck, amber partial and warnings, green held, purple
    // contested): a healthy lock drawn in red would read like an alarm. That leaves the cyans and
    // blues (a dark olive read as green next to "held", a magenta as purple next to "contested"),
    // so three hues far enough apart to name (teal, azure, blue), each at three clearly different
    // lightnesses: two holders of a contested lock side by side must not look alike.
    static constexpr int hues[] = {172, 205, 238};
    static constexpr int lightOnLight[] = {45, 85, 125}; // the lightest still readable as text on white
    static constexpr int lightOnDark[] = {105, 150, 195};
    constexpr unsigned count = sizeof(hues) / sizeof(hues[0]);
    const unsigned slot = unsigned(qHash(token, 0x5eed) % (count * 3u));
    const int hue = hues[slot % count];
    const unsigned level = slot / count;
    if (isDark(palette))
        return QColor::fromHsl(hue, 150, lightOnDark[level]);
    return QColor::fromHsl(hue, 170, lightOnLight[level]);
}

QList<QColor> StatusStyle::reservedColors(const QPalette& palette)
{
    QList<QColor> colours;
    for (LockStatus s : {LockStatus::Held, LockStatus::Partial, LockStatus::Contested, LockStatus::Stuck,
                         LockStatus::Unknown})
        colours << statusColor(s, palette);
    colours << warningColor(palette);
    return colours;
}

QColor StatusStyle::masterStateColor(RedisConnection::State state, const QPalette& palette)
{
    switch (state) {
    case RedisConnection::State::Up:
        return statusColor(LockStatus::Held, palette);
    case RedisConnection::State::Connecting:
        return warningColor(palette);
    case RedisConnection::State::Reconnecting: // only ever after a failure: still down until it answers
    case RedisConnection::State::Down:
        return statusColor(LockStatus::Stuck, palette);
    case RedisConnection::State::Disconnected:
        return palette.color(QPalette::PlaceholderText);
    }
    return palette.color(QPalette::PlaceholderText);
}

QString StatusStyle::masterStateText(RedisConnection::State state)
{
    switch (state) {
    case RedisConnection::State::Up:
        return tr("up");
    case RedisConnection::State::Connecting:
        return tr("connecting");
    case RedisConnection::State::Reconnecting:
        // A retry follows every failure after the shortest delay; a paused master accepts the TCP
        // connection and then says nothing. Shown as "reconnecting" it would blink out of DOWN for
        // a timeout on every retry, so it stays DOWN until it answers again.
        return tr("DOWN, retrying");
    case RedisConnection::State::Down:
        return tr("DOWN");
    case RedisConnection::State::Disconnected:
        return tr("disconnected");
    }
    return QString();
}

int StatusStyle::severity(LockStatus status)
{
    switch (status) {
    case LockStatus::Stuck:
        return 0;
    case LockStatus::Contested:
        return 1;
    case LockStatus::Partial:
        return 2;
    case LockStatus::Unknown:
        return 3;
    case LockStatus::Held:
        return 4;
    }
    return 5;
}

} // namespace lockscope
