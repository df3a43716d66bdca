package dev.trainyard.flaky.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TestIdentityTest {
  @Test
  void version5MatchesTheKnownVector() {
    // RFC 9562 name-based UUID: uuid5(NAMESPACE_DNS, "python.org"), as Python's uuid module gives
    // it
    UUID dns = UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");

    assertThat(TestIdentity.v5(dns, "python.org"))
        .isEqualTo(UUID.fromString("886313e1-3b8a-5372-9b90-0c9aee199e5d"));
  }

  @Test
  void theSameTestKeepsItsIdAndEveryPartMatters() {
    UUID id = id("src/sum.test.ts", "sum.test", "sums some nums", "adds", "");

    assertThat(id.version()).isEqualTo(5);
    assertThat(id("src/sum.test.ts", "sum.test", "sums some nums", "adds", "")).isEqualTo(id);
    Set<UUID> variants = new HashSet<>();
    variants.add(id);
    variants.add(id("src/other.test.ts", "sum.test", "sums some nums", "adds", ""));
    variants.add(id("src/sum.test.ts", "sum", "sums some nums", "adds", ""));
    variants.add(id("src/sum.test.ts", "sum.test", "sums", "adds", ""));
    variants.add(id("src/sum.test.ts", "sum.test", "sums some nums", "adds 2", ""));
    variants.add(id("src/sum.test.ts", "sum.test", "sums some nums", "adds", "linux"));
    variants.add(id(null, "sum.test", "sums some nums", "adds", ""));
    // parts are length-prefixed: moving text between parts changes the id
    variants.add(id("src/sum.test.ts", "sum.tes", "tsums some nums", "adds", ""));
    assertThat(variants).hasSize(8);
  }

  private static UUID id(
      String file, String classname, String parent, String name, String variant) {
    return TestIdentity.of("github.com", "acme", "rocket", file, classname, parent, name, variant);
  }
}
