package dev.trainyard.standalone.support;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A test class that needs a stack of its own (it injects faults, moves the clock or stops the
 * infrastructure). The Testcontainers variants override {@link #infrastructure()}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class OwnStack {
  protected TestStack stack;

  protected Supplier<Infrastructure> infrastructure() {
    return EmbeddedInfrastructure::new;
  }

  /** Fault probes, clocks: what the worker is started with. */
  protected List<ApplicationContextInitializer<ConfigurableApplicationContext>> workerSetup() {
    return List.of();
  }

  /** Service properties on top of the test defaults. */
  protected Map<String, Object> properties() {
    return Map.of();
  }

  @BeforeAll
  @SuppressWarnings("unchecked")
  protected void startStack() {
    stack =
        TestStack.start(
            infrastructure(),
            properties(),
            workerSetup().toArray(ApplicationContextInitializer[]::new));
  }

  @AfterAll
  protected void stopStack() {
    if (stack != null) { // null when startup was skipped (an assumption) or failed
      stack.close();
    }
  }
}
