package dev.trainyard.flaky.quarantine;

import com.mongodb.client.model.Filters;
import dev.trainyard.flaky.cases.QuarantineSetting;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.classify.Health;
import java.util.ArrayList;
import java.util.List;
import org.bson.conversions.Bson;

/**
 * The store's query for the quarantined test cases, derived from {@link TestCase#quarantined} by
 * enumerating every (override, status) pair, so the rule is written once and the list of {@code
 * get-quarantine-config} cannot drift from what a test case says about itself.
 */
final class QuarantinedFilter {
  private QuarantinedFilter() {}

  static Bson of(boolean autoQuarantine) {
    List<Bson> any = new ArrayList<>();
    for (QuarantineSetting setting : QuarantineSetting.values()) {
      List<String> healths = new ArrayList<>();
      for (Health health : Health.values()) {
        if (TestCase.quarantined(setting, health, autoQuarantine)) {
          healths.add(health.wire());
        }
      }
      if (healths.size() == Health.values().length) {
        any.add(Filters.eq("quarantine", setting.name()));
      } else if (!healths.isEmpty()) {
        any.add(
            Filters.and(
                Filters.eq("quarantine", setting.name()), Filters.in("status.value", healths)));
      }
    }
    return any.size() == 1 ? any.get(0) : Filters.or(any);
  }
}
