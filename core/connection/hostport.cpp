// SPDX-License-Identifier: Apache-2.0
#include "connection/hostport.h"

#include "connection/urltext.h"

#include <QHostAddress>

namespace lockscope {

HostPort HostPort::parse(QStringView text)
{
    HostPort out;
    bool hasPort = false;
    if (text.startsWith(QLatin1Char('['))) {
        const qsizetype close = text.indexOf(QLatin1Char(']'));
        if (close < 0) {
            out.hostProblem = HostProblem::UnclosedBracket;
            return out;
        }
        out.host = text.mid(1, close - 1).toString();
        QHostAddress address;
        if (!address.setAddress(out.host) || address.protocol() != QAbstractSocket::IPv6Protocol) {
            out.hostProblem = HostProblem::BadIpv6Address;
            return out;
        }
        const QStringView after = text.mid(close + 1);
        if (!after.isEmpty()) {
            if (!after.startsWith(QLatin1Char(':'))) {
                out.hostProblem = HostProblem::TextAfterIpv6;
                return out;
            }
            out.portText = after.mid(1).toString();
            hasPort = true;
        }
    } else {
        const qsizetype colon = text.indexOf(QLatin1Char(':'));
        out.host = (colon >= 0 ? text.left(colon) : text).toString();
        if (colon >= 0) {
            out.portText = text.mid(colon + 1).toString();
            hasPort = true;
        }
        if (out.host.isEmpty())
            out.hostProblem = HostProblem::Missing;
        else if (!isUrlHostName(out.host))
            out.hostProblem = HostProblem::BadName;
    }
    if (hasPort) {
        qint64 port = 0;
        if (out.portText.isEmpty())
            out.portProblem = PortProblem::Empty;
        else if (!parseUrlNumber(out.portText, 65535, &port) || port == 0)
            out.portProblem = PortProblem::Bad;
        else
            out.port = quint16(port);
    }
    return out;
}

QString HostPort::problem(QStringView text, Wording wording) const
{
    const bool list = wording == Wording::HostList;
    // A single host's empty port is named as such before anything else; in a list it is a bad port.
    if (!list && portProblem == PortProblem::Empty)
        return QStringLiteral("empty port");
    switch (hostProblem) {
    case HostProblem::None:
        break;
    case HostProblem::UnclosedBracket:
        return QStringLiteral("unclosed '[' in IPv6 address");
    case HostProblem::BadIpv6Address:
        return QStringLiteral("bad IPv6 address %1").arg(quotedUrlPart(host));
    case HostProblem::TextAfterIpv6:
        return list ? QStringLiteral("unexpected text after IPv6 address %1").arg(quotedUrlPart(text))
                    : QStringLiteral("unexpected text after IPv6 address");
    case HostProblem::Missing:
        return list ? QStringLiteral("missing host in %1").arg(quotedUrlPart(text))
                    : QStringLiteral("missing host");
    case HostProblem::BadName:
        return QStringLiteral("bad host name %1").arg(quotedUrlPart(host)) +
               (list ? QStringLiteral(" (an IPv6 address goes in brackets)") : QString());
    }
    if (portProblem != PortProblem::None)
        return QStringLiteral("bad port %1 (1-65535)").arg(quotedUrlPart(portText));
    return {};
}

} // namespace lockscope
