package dev.trainyard.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Addresses as throttle keys: IPv6 by its /64, anything else but a literal never looked up. */
class ClientAddressesTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "203.0.113.7 | 203.0.113.7",
        "2001:db8:1:2:aaaa:bbbb:cccc:dddd | 2001:db8:1:2:0:0:0:0/64",
        "2001:db8:1:2::1 | 2001:db8:1:2:0:0:0:0/64",
        "::ffff:203.0.113.7 | 203.0.113.7",
        "example.com | unknown",
        "cafe | unknown",
        "1.2.3.4.5 | unknown",
        "dead:beef:zz | unknown",
        "'' | unknown",
      })
  void keysAnAddressWithoutEverResolvingAName(String text, String key) {
    assertThat(ClientAddresses.key(text)).isEqualTo(key);
  }
}
