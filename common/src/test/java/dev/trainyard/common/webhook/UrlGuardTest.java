package dev.trainyard.common.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SSRF rules: which targets a webhook URL may name, with DNS answered by the test. */
class UrlGuardTest {
  private static final Map<String, String> DNS =
      Map.of(
          "hooks.example.com", "93.184.216.34",
          "sneaky.example.com", "127.0.0.1",
          "inside.example.com", "10.1.2.3",
          "v6-inside.example.com", "fd00::1");

  private static final UrlGuard.Resolver RESOLVER =
      host -> {
        String address = DNS.getOrDefault(host, host);
        if (!address.matches("[0-9a-fA-F:.]+")) {
          throw new UnknownHostException(host);
        }
        return new InetAddress[] {InetAddress.getByName(address)};
      };

  @ParameterizedTest(name = "{0} (http {1}, loopback {2}) → {3}")
  @CsvSource({
    "https://hooks.example.com/in, false, false, ok",
    "http://hooks.example.com/in, false, false, url must use https",
    "http://hooks.example.com/in, true, false, ok",
    "ftp://hooks.example.com/in, true, false, url must use http or https",
    "http://127.0.0.1:9000/in, true, false, loopback",
    "http://127.0.0.1:9000/in, true, true, ok",
    "https://[::1]/in, false, false, loopback",
    "https://[::1]/in, false, true, ok",
    "https://sneaky.example.com/in, false, false, loopback",
    "http://169.254.169.254/latest/meta-data, true, true, link-local or metadata",
    "http://10.0.0.1/in, true, true, private",
    "https://inside.example.com/in, false, true, private",
    "https://192.168.1.20/in, false, true, private",
    "https://172.16.5.4/in, false, true, private",
    "https://v6-inside.example.com/in, false, true, unique-local",
    "https://100.64.0.1/in, false, true, carrier-grade NAT",
    "https://0.0.0.0/in, false, true, wildcard",
    "https://224.0.0.1/in, false, true, multicast",
    "https://[::ffff:127.0.0.1]/in, false, false, loopback",
    "https://user:pw@hooks.example.com/in, false, false, no credentials",
    "https://nowhere.invalid/in, false, false, does not resolve",
    "not a url, false, false, absolute"
  })
  void refusesWhatWouldReachInside(String url, boolean http, boolean loopback, String expected) {
    UrlGuard guard = new UrlGuard(new UrlGuard.Policy(http, loopback), RESOLVER);

    var problem = guard.problem(url);

    if (expected.equals("ok")) {
      assertThat(problem).isEmpty();
    } else {
      assertThat(problem).get().asString().contains(expected);
    }
  }
}
