package dev.trainyard.common.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which URLs the outbound guard lets through, one row per address family and spelling; DNS is
 * answered by the test (no lookup leaves the JVM).
 */
class OutboundGuardTest {
  private static final Map<String, List<String>> DNS =
      Map.of(
          "hooks.example.com", List.of("93.184.216.34"),
          "public6.example.com", List.of("2606:4700::1"),
          "sneaky.example.com", List.of("127.0.0.1"),
          "localhost", List.of("127.0.0.1", "::1"),
          "inside.example.com", List.of("10.1.2.3"),
          "v6-inside.example.com", List.of("fd00::1"),
          "mixed.example.com", List.of("93.184.216.34", "10.0.0.1"),
          "metadata.internal", List.of("169.254.169.254"),
          "x.metadata.internal", List.of("169.254.169.254"));

  private static final OutboundGuard.Resolver RESOLVER = OutboundGuard.Resolver.table(DNS);

  private static final OutboundGuard.Policy CLUSTER =
      OutboundGuard.Policy.webhooks(true, false, List.of());
  private static final OutboundGuard.Policy HTTPS_ONLY =
      OutboundGuard.Policy.webhooks(false, false, List.of());
  private static final OutboundGuard.Policy LOOPBACK_ALLOWED =
      OutboundGuard.Policy.webhooks(true, true, List.of());
  private static final OutboundGuard.Policy TRUSTING =
      OutboundGuard.Policy.webhooks(true, false, List.of(" Metadata.Internal ", "10.0.0.5", ""));

  /** A URL, the policy it is checked under, and the refusal expected (null: allowed). */
  record Row(String url, OutboundGuard.Policy policy, String refusal) {
    @Override
    public String toString() {
      return url + (refusal == null ? " is allowed" : " → " + refusal);
    }
  }

  static Row refused(String url, String why) {
    return new Row(url, CLUSTER, why);
  }

  static Stream<Row> spellings() {
    String metadata = "is the IPv4 address 169.254.169.254 in another spelling";
    String loopback = "is the IPv4 address 127.0.0.1 in another spelling";
    return Stream.of(
        refused("http://2852039166/", metadata),
        refused("http://0251.0376.0251.0376/", metadata),
        refused("http://0xa9fea9fe/", metadata),
        refused("http://0xA9.0xFE.0xA9.0xFE/", metadata),
        refused("http://169.254.43518/", metadata),
        refused("http://169.254.169.254./", metadata),
        refused("http://127.1/", loopback),
        refused("http://0x7f.1/", loopback),
        refused("http://0177.0.0.1/", loopback),
        refused("http://127.0.0.01/", loopback),
        refused("http://134744072/", "is the IPv4 address 8.8.8.8 in another spelling"),
        refused("http://1.2.3.4.5/", "ends in a number but is not an IPv4 address"),
        refused("http://256.1.1.1/", "ends in a number but is not an IPv4 address"),
        refused("http://example.0x/", "ends in a number but is not an IPv4 address"),
        refused("http://[::ffff:169.254.169.254]/", "link-local or metadata address"),
        refused("http://[::ffff:a9fe:a9fe]/", "link-local or metadata address (169.254.169.254)"),
        refused("http://[::ffff:127.0.0.1]/", "loopback address"),
        refused("http://[::ffff:127.0.0.01]/", "is not an IPv6 address"),
        refused("http://[::a9fe:a9fe]/", "an IPv4-compatible address"),
        refused("http://[::169.254.169.254]/", "an IPv4-compatible address"),
        refused("http://[::8.8.8.8]/", "an IPv4-compatible address"),
        refused("http://[64:ff9b::a9fe:a9fe]/", "link-local or metadata (through NAT64)"),
        refused("http://[64:ff9b::10.0.0.1]/", "private (through NAT64)"),
        refused("http://[64:ff9b::7f00:1]/", "loopback (through NAT64)"),
        refused("http://[64:ff9b:1::a9fe:a9fe]/", "local-use NAT64"),
        refused("http://[2002:a9fe:a9fe::1]/", "a 6to4 address"),
        refused("http://[2002:808:808::1]/", "a 6to4 address"),
        refused("http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "a Teredo address"),
        refused("http://[fe80::1%25eth0]/", "may not name an IPv6 zone"),
        refused("http://exa_mple.com/", "must be a DNS name"),
        refused("http://b\u00fccher.example/", "must be a DNS name"),
        refused("http://%31%32%37.0.0.1/", "ends in a number but is not an IPv4 address"));
  }

  static Stream<Row> ranges() {
    return Stream.of(
        refused("http://127.0.0.1:9000/in", "is a loopback address (127.0.0.1)"),
        refused("http://127.255.255.254/", "loopback"),
        refused("http://[::1]:9000/in", "is a loopback address"),
        refused("http://10.0.0.1/", "is a private address"),
        refused("http://172.16.5.4/", "is a private address"),
        refused("http://172.31.255.255/", "is a private address"),
        refused("http://192.168.1.20/", "is a private address"),
        refused("http://[fd00::1]/", "private (unique-local)"),
        refused("http://[fc00::1]/", "private (unique-local)"),
        refused("http://169.254.169.254/latest/meta-data", "link-local or metadata"),
        refused("http://[fe80::1]/", "a link-local address"),
        refused("http://[fec0::1]/", "a site-local address"),
        refused("http://100.64.0.1/", "shared (carrier-grade NAT)"),
        refused("http://100.127.255.255/", "shared (carrier-grade NAT)"),
        refused("http://0.0.0.0/", "an unspecified address"),
        refused("http://[::]/", "an unspecified address"),
        refused("http://0.1.2.3/", "reserved (0/8)"),
        refused("http://224.0.0.1/", "a multicast address"),
        refused("http://239.255.255.250/", "a multicast address"),
        refused("http://[ff02::1]/", "a multicast address"),
        refused("http://255.255.255.255/", "a broadcast address"),
        refused("http://240.0.0.1/", "reserved (240/4)"),
        refused("http://192.0.0.8/", "an IETF protocol assignment address"),
        refused("http://192.0.2.1/", "a documentation address"),
        refused("http://198.51.100.7/", "a documentation address"),
        refused("http://203.0.113.9/", "a documentation address"),
        refused("http://198.18.0.1/", "a benchmarking address"),
        refused("http://198.19.255.255/", "a benchmarking address"),
        refused("http://192.88.99.1/", "6to4 relay anycast"),
        refused("http://[2001:db8::1]/", "a documentation address"),
        refused("http://[3fff::1]/", "a documentation address"),
        refused("http://[100::1]/", "a discard-only address"),
        refused("http://[2001:2::1]/", "a benchmarking address"),
        refused("http://[2001:10::1]/", "an ORCHID address"),
        refused("http://[2001:20::1]/", "an ORCHIDv2 address"),
        refused("http://[2001:100::1]/", "an IETF protocol assignment address"),
        refused("http://[5f00::1]/", "segment-routing"),
        refused("http://[4000::1]/", "reserved (outside 2000::/3)"));
  }

  static Stream<Row> namesAndRules() {
    return Stream.of(
        refused("https://sneaky.example.com/in", "resolves to a loopback address (127.0.0.1)"),
        refused("http://localhost:9000/hook", "resolves to a loopback address"),
        refused("https://inside.example.com/in", "resolves to a private address (10.1.2.3)"),
        refused("https://v6-inside.example.com/in", "private (unique-local)"),
        refused("https://mixed.example.com/in", "resolves to a private address (10.0.0.1)"),
        refused("https://nowhere.example.com/in", "url host nowhere.example.com does not resolve"),
        refused("https://user:pw@hooks.example.com/in", "carry no credentials"),
        refused("https://user@hooks.example.com/in", "carry no credentials"),
        refused("ftp://hooks.example.com/in", "url must use http or https"),
        refused("ssh://hooks.example.com/in", "url must use http or https"),
        refused("/relative/hook", "url must use http or https"),
        refused("http:///hook", "url must name a host"),
        refused("http:hooks.example.com", "url must name a host"),
        refused("not a url", "url must be an absolute URL"),
        refused("http://hooks.example.com:0/", "url port must be between 1 and 65535"),
        refused("http://hooks.example.com:99999/", "url port must be between 1 and 65535"),
        new Row("http://hooks.example.com/in", HTTPS_ONLY, "url must use https"),
        new Row("http://127.1/", LOOPBACK_ALLOWED, "in another spelling"),
        new Row("http://10.0.0.1/", LOOPBACK_ALLOWED, "private"),
        new Row("http://[64:ff9b::7f00:1]/", LOOPBACK_ALLOWED, "loopback (through NAT64)"),
        new Row("http://x.metadata.internal/", TRUSTING, "link-local or metadata"),
        new Row("http://10.0.0.6/", TRUSTING, "private"),
        new Row("http://user@metadata.internal/", TRUSTING, "carry no credentials"),
        new Row("http://0xa9fea9fe/", TRUSTING, "in another spelling"));
  }

  static Stream<Row> allowed() {
    return Stream.of(
        new Row("https://hooks.example.com/in", HTTPS_ONLY, null),
        new Row("https://HOOKS.Example.com:8443/in?x=1", HTTPS_ONLY, null),
        new Row("https://public6.example.com/in", HTTPS_ONLY, null),
        new Row("http://8.8.8.8/in", CLUSTER, null),
        new Row("http://[2606:4700::1]/in", CLUSTER, null),
        new Row("http://[::ffff:8.8.8.8]/in", CLUSTER, null),
        new Row("http://[64:ff9b::808:808]/in", CLUSTER, null),
        new Row("http://192.31.196.1/in", CLUSTER, null),
        new Row("http://127.0.0.1:9000/in", LOOPBACK_ALLOWED, null),
        new Row("http://[::1]:9000/in", LOOPBACK_ALLOWED, null),
        new Row("http://[::ffff:127.0.0.1]/in", LOOPBACK_ALLOWED, null),
        new Row("http://localhost:9000/in", LOOPBACK_ALLOWED, null),
        new Row("http://metadata.internal/in", TRUSTING, null),
        new Row("http://METADATA.Internal/in", TRUSTING, null),
        new Row("http://10.0.0.5:8080/in", TRUSTING, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"spellings", "ranges", "namesAndRules", "allowed"})
  void refusesWhatWouldReachInside(Row row) {
    OutboundGuard guard = new OutboundGuard(row.policy(), RESOLVER);

    Optional<String> problem = guard.problem(row.url());

    if (row.refusal() == null) {
      assertThat(problem).isEmpty();
    } else {
      assertThat(problem).get().asString().contains(row.refusal()).startsWith("url ");
    }
  }

  @Test
  void aConnectionGetsEveryCheckedAddressAndNoOther() throws Exception {
    OutboundGuard guard = new OutboundGuard(LOOPBACK_ALLOWED, RESOLVER);

    assertThat(guard.addresses("LocalHost"))
        .containsExactly(InetAddress.getByName("127.0.0.1"), InetAddress.getByName("::1"));
    assertThatThrownBy(() -> guard.addresses("mixed.example.com"))
        .isInstanceOf(OutboundRefusedException.class)
        .hasMessageContaining("10.0.0.1");
    assertThatThrownBy(() -> guard.addresses("0x7f.1"))
        .isInstanceOf(OutboundRefusedException.class)
        .hasMessageContaining("another spelling");
  }

  @Test
  void aTargetIsCheckedWithoutALookupAndNamesItsPort() {
    OutboundGuard guard =
        new OutboundGuard(
            CLUSTER,
            host -> {
              throw new AssertionError("target() looked up " + host);
            });

    OutboundGuard.Target name = guard.target("https://Hooks.Example.com/in");
    OutboundGuard.Target literal = guard.target("http://[2606:4700::1]:8080/in");

    assertThat(name.host()).isEqualTo("hooks.example.com");
    assertThat(name.port()).isEqualTo(443);
    assertThat(name.address()).isEmpty();
    assertThat(literal.host()).isEqualTo("2606:4700::1");
    assertThat(literal.port()).isEqualTo(8080);
    assertThat(literal.address()).isPresent();
    assertThat(literal.uri().getHost()).isEqualTo("[2606:4700::1]");
    assertThatThrownBy(() -> guard.target("http://10.0.0.1/"))
        .isInstanceOf(OutboundRefusedException.class);
  }
}
