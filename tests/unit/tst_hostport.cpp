// SPDX-License-Identifier: Apache-2.0
#include "connection/hostport.h"
#include "support/testregistry.h"

#include <QTest>

Q_DECLARE_METATYPE(lockscope::HostPort::HostProblem)
Q_DECLARE_METATYPE(lockscope::HostPort::PortProblem)

namespace tst_hostport {

using namespace lockscope;

// The host[:port] parser behind RedisUrl::parse and TopologyUrl::parse: what both URL types accept
// and refuse in a host, and how each words a refusal. Their own tests keep their own cases.
class TestHostPort : public QObject
{
    Q_OBJECT

private slots:
    void parses_data();
    void parses();
    void wordsProblems_data();
    void wordsProblems();
};

void TestHostPort::parses_data()
{
    using H = HostPort::HostProblem;
    using P = HostPort::PortProblem;
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port"); // -1: none given
    QTest::addColumn<H>("hostProblem");
    QTest::addColumn<P>("portProblem");

    QTest::newRow("host") << "h"
                          << "h" << -1 << H::None << P::None;
    QTest::newRow("host and port") << "redis.example:6380"
                                   << "redis.example" << 6380 << H::None << P::None;
    QTest::newRow("lowest port") << "h:1"
                                 << "h" << 1 << H::None << P::None;
    QTest::newRow("highest port") << "h:65535"
                                  << "h" << 65535 << H::None << P::None;
    QTest::newRow("IPv6") << "[::1]"
                          << "::1" << -1 << H::None << P::None;
    QTest::newRow("IPv6 and port") << "[fe80::1]:7000"
                                   << "fe80::1" << 7000 << H::None << P::None;
    QTest::newRow("port zero") << "h:0"
                               << "h" << -1 << H::None << P::Bad;
    QTest::newRow("port too big") << "h:65536"
                                  << "h" << -1 << H::None << P::Bad;
    QTest::newRow("port text") << "h:abc"
                               << "h" << -1 << H::None << P::Bad;
    QTest::newRow("port negative") << "h:-1"
                                   << "h" << -1 << H::None << P::Bad;
    QTest::newRow("empty port") << "h:"
                                << "h" << -1 << H::None << P::Empty;
    QTest::newRow("IPv6, empty port") << "[::1]:"
                                      << "::1" << -1 << H::None << P::Empty;
    QTest::newRow("no host") << ":6379"
                             << "" << 6379 << H::Missing << P::None;
    QTest::newRow("nothing") << ""
                             << "" << -1 << H::Missing << P::None;
    // Both wrong: each URL type chooses which it names first.
    QTest::newRow("no host, empty port") << ":"
                                         << "" << -1 << H::Missing << P::Empty;
    QTest::newRow("space in host") << "bad host"
                                   << "bad host" << -1 << H::BadName << P::None;
    QTest::newRow("unbracketed IPv6") << "::1:7000"
                                      << "" << -1 << H::Missing << P::Bad;
    QTest::newRow("bad IPv6") << "[::zz]:1"
                              << "::zz" << -1 << H::BadIpv6Address << P::None;
    QTest::newRow("IPv4 in brackets") << "[127.0.0.1]"
                                      << "127.0.0.1" << -1 << H::BadIpv6Address << P::None;
    QTest::newRow("unclosed bracket") << "[::1:1"
                                      << "" << -1 << H::UnclosedBracket << P::None;
    QTest::newRow("text after IPv6") << "[::1]x"
                                     << "::1" << -1 << H::TextAfterIpv6 << P::None;
}

void TestHostPort::parses()
{
    QFETCH(QString, text);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(HostPort::HostProblem, hostProblem);
    QFETCH(HostPort::PortProblem, portProblem);
    const HostPort parsed = HostPort::parse(text);
    QCOMPARE(parsed.hostProblem, hostProblem);
    QCOMPARE(parsed.portProblem, portProblem);
    QCOMPARE(parsed.ok(),
             hostProblem == HostPort::HostProblem::None && portProblem == HostPort::PortProblem::None);
    if (hostProblem == HostPort::HostProblem::None || hostProblem == HostPort::HostProblem::BadIpv6Address)
        QCOMPARE(parsed.host, host);
    QCOMPARE(parsed.port.has_value(), port >= 0);
    if (port >= 0)
        QCOMPARE(int(*parsed.port), port);
}

void TestHostPort::wordsProblems_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("oneHost");  // as RedisUrl says it
    QTest::addColumn<QString>("hostList"); // as TopologyUrl says it of one entry

    QTest::newRow("valid") << "h:1"
                           << ""
                           << "";
    QTest::newRow("bad port") << "h:99999"
                              << "bad port '99999' (1-65535)"
                              << "bad port '99999' (1-65535)";
    QTest::newRow("empty port") << "h:"
                                << "empty port"
                                << "bad port '' (1-65535)";
    QTest::newRow("no host") << ":1"
                             << "missing host"
                             << "missing host in ':1'";
    QTest::newRow("no host, empty port") << ":"
                                         << "empty port"
                                         << "missing host in ':'";
    QTest::newRow("bad host name") << "a b"
                                   << "bad host name 'a b'"
                                   << "bad host name 'a b' (an IPv6 address goes in brackets)";
    QTest::newRow("bad IPv6") << "[::g]:1"
                              << "bad IPv6 address '::g'"
                              << "bad IPv6 address '::g'";
    QTest::newRow("unclosed bracket") << "[::1"
                                      << "unclosed '[' in IPv6 address"
                                      << "unclosed '[' in IPv6 address";
    QTest::newRow("text after IPv6") << "[::1]x"
                                     << "unexpected text after IPv6 address"
                                     << "unexpected text after IPv6 address '[::1]x'";
}

void TestHostPort::wordsProblems()
{
    QFETCH(QString, text);
    QFETCH(QString, oneHost);
    QFETCH(QString, hostList);
    const HostPort parsed = HostPort::parse(text);
    QCOMPARE(parsed.problem(text, HostPort::Wording::OneHost), oneHost);
    QCOMPARE(parsed.problem(text, HostPort::Wording::HostList), hostList);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestHostPort)

} // namespace tst_hostport

#include "tst_hostport.moc"
