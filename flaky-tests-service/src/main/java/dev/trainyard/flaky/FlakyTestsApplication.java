package dev.trainyard.flaky;

import dev.trainyard.common.boot.Rule;
import dev.trainyard.common.boot.ServiceMain;
import dev.trainyard.common.boot.Setting;
import java.util.List;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The flaky-tests service as a service of its own (Kubernetes); the standalone embeds it. */
@SpringBootApplication
public class FlakyTestsApplication {
  /** The settings of API.md §6 the flaky-tests service reads, checked before it starts. */
  static final List<Setting> SETTINGS =
      List.of(
          Setting.optional("server.port", Rule.PORT),
          Setting.required("trainyard.flaky.token-key", Rule.SECRET),
          Setting.required("trainyard.flaky.internal-key", Rule.SECRET),
          Setting.optional("trainyard.flaky.retention", Rule.DURATION));

  public static void main(String[] args) {
    // its defaults live in application-flaky.properties, as when the standalone composes it
    ServiceMain.run(FlakyTestsApplication.class, "flaky", SETTINGS, args);
  }
}
