package dev.trainyard.common.boot;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Starts one service as a process of its own (a cluster pod, or one of the processes of the
 * topology on one machine). Before any bean exists it checks the service's settings; a missing or
 * malformed one ends the process at once with exit code 2 and one line on standard error naming its
 * environment variable — no stack trace, no half-started pod that could report ready. Any other
 * start-up failure is printed once, with its stack trace, and exits with 1.
 */
public final class ServiceMain {
  /** Exit code of a process stopped by a bad setting. */
  public static final int BAD_SETTING = 2;

  /** What every service needs: its broker, its store and its management port. */
  public static final List<Setting> PROCESS_SETTINGS =
      List.of(
          Setting.required("spring.kafka.bootstrap-servers", Rule.HOST_PORTS),
          Setting.required("spring.mongodb.uri", Rule.MONGO_URI),
          Setting.optional("trainyard.management-port", Rule.PORT),
          Setting.optional("trainyard.kafka.topic-prefix", Rule.TOPIC_PREFIX));

  private ServiceMain() {}

  /** Runs {@code application} as a server; see {@link #start}. */
  public static void run(
      Class<?> application, String profile, List<Setting> settings, String[] args) {
    start(application, profile, null, settings, args);
  }

  /**
   * Starts {@code application} with {@code profile} (whose properties hold the service's defaults),
   * after checking {@link #PROCESS_SETTINGS} and {@code settings}; never returns when it cannot
   * start.
   *
   * @param webType the kind of web server, or {@code null} to let the class path decide
   */
  public static ConfigurableApplicationContext start(
      Class<?> application,
      String profile,
      WebApplicationType webType,
      List<Setting> settings,
      String[] args) {
    List<Setting> all = new ArrayList<>(PROCESS_SETTINGS);
    all.addAll(settings);
    String name = "trainyard " + profile;
    SpringApplicationBuilder builder =
        new SpringApplicationBuilder(application)
            .profiles(profile)
            .listeners(new SettingsCheck(all))
            // a failure is reported below, once, in the form it deserves
            .properties(
                Map.of(
                    "logging.level.org.springframework.boot.SpringApplication", "off",
                    "logging.level.org.springframework.boot.diagnostics", "off"));
    if (webType != null) {
      builder.web(webType);
    }
    try {
      return builder.run(args);
    } catch (RuntimeException | Error e) {
      Optional<BadSetting> bad = BadSetting.in(e);
      if (bad.isPresent()) {
        System.err.println(name + ": " + bad.get().getMessage());
        System.exit(BAD_SETTING);
      }
      System.err.println(name + " failed to start:");
      e.printStackTrace();
      System.exit(1);
      throw e;
    }
  }

  /** Checks every setting against the prepared environment, before any bean is created. */
  static final class SettingsCheck
      implements ApplicationListener<ApplicationEnvironmentPreparedEvent> {
    private final List<Setting> settings;

    SettingsCheck(List<Setting> settings) {
      this.settings = List.copyOf(settings);
    }

    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
      check(event.getEnvironment());
    }

    void check(ConfigurableEnvironment environment) {
      List<String> problems = new ArrayList<>();
      for (Setting setting : settings) {
        String value;
        try {
          value = environment.getProperty(setting.property());
        } catch (IllegalArgumentException e) {
          value = "${unresolvable}";
        }
        setting.problem(value).ifPresent(problems::add);
      }
      if (!problems.isEmpty()) {
        throw new BadSetting(String.join("; ", problems));
      }
    }
  }

  /** A setting that stops the service from starting; its message names the variable. */
  public static final class BadSetting extends RuntimeException {
    public BadSetting(String message) {
      super(message, null, false, false);
    }

    static Optional<BadSetting> in(Throwable failure) {
      for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
        if (cause instanceof BadSetting bad) {
          return Optional.of(bad);
        }
      }
      return Optional.empty();
    }
  }
}
