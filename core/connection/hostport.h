// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringView>

#include <optional>

namespace lockscope {

// host[:port] or [IPv6-address][:port]: how every URL here names a node, parsed once for
// RedisUrl::parse (one host) and TopologyUrl::parse (each entry of a host list). Pure.
struct HostPort
{
    enum class HostProblem
    {
        None,
        UnclosedBracket, // "[::1" without its ']'
        BadIpv6Address,  // in brackets, but not an IPv6 address
        TextAfterIpv6,   // "[::1]x": neither nothing nor ":port" after the ']'
        Missing,         // ":6379", ""
        BadName,         // not a host name (isUrlHostName): a space, an unbracketed IPv6 address...
    };
    enum class PortProblem
    {
        None,
        Empty, // "host:"
        Bad,   // not 1-65535
    };
    // How an error is worded: URLs of one host, or lists ("h1:1,h2:2") where an error names its entry.
    enum class Wording
    {
        OneHost,
        HostList,
    };

    QString host;                // without the brackets of an IPv6 address
    std::optional<quint16> port; // absent when the text names none (the URL's default then)
    QString portText;            // the port as typed, for an error
    // A host problem is checked first; a bracketed host's port is not looked at when it has one.
    HostProblem hostProblem = HostProblem::None;
    PortProblem portProblem = PortProblem::None;

    bool ok() const { return hostProblem == HostProblem::None && portProblem == PortProblem::None; }

    static HostPort parse(QStringView text);
    // Why `text` (what parse() read) is not a node, or empty when it is. Never longer than
    // quotedUrlPart makes the quoted parts; `text` never holds credentials (callers cut them off first).
    QString problem(QStringView text, Wording wording) const;
};

} // namespace lockscope
