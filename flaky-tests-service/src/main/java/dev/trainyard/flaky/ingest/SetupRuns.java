package dev.trainyard.flaky.ingest;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Tests that exist only when they fail: a class's failed setup (Surefire's nameless test case,
 * {@value TestCaseBuilder#CLASS_SETUP}; Gradle's {@code classMethod}, JUnit 4's {@code
 * initializationError}), a suite's own failure ({@value TestCaseBuilder#SUITE_SETUP}) and a pytest
 * module that failed to collect (a test case named by the module, without a classname). A report
 * names them only when they fail, so their history held nothing but failures: five at any spacing
 * made them broken (a setup failing 2 % of runs was listed broken most of the time). They are
 * judged against the runs of their class, suite or module instead: an upload in which a test of it
 * ran and the setup test did not fail is a pass of the setup test, for setup tests that already
 * exist.
 */
final class SetupRuns {
  /** Names a class-level failure is reported under, one per producer. */
  static final List<String> CLASS_LEVEL =
      List.of(TestCaseBuilder.CLASS_SETUP, "classMethod", "initializationError");

  /** Candidate ids looked up at once. */
  static final int LOOKUP = 1000;

  /** How a test case's id follows from its file path, classname, parent, name and variant. */
  interface Identity {
    String of(String filePath, String classname, String parent, String name, String variant);
  }

  private SetupRuns() {}

  /**
   * The passes of the setup tests of the classes, suites and modules that ran in {@code merged} (a
   * test of them passed or failed) and that {@code existing} knows, except those {@code merged}
   * reports itself.
   *
   * @param existing which of the given test ids are stored test cases
   */
  static List<MergedResult> passes(
      List<MergedResult> merged, Identity identity, Function<Set<String>, Set<String>> existing) {
    Set<String> reported = merged.stream().map(MergedResult::testId).collect(Collectors.toSet());
    Map<String, MergedResult> candidates = new LinkedHashMap<>();
    for (MergedResult r : merged) {
      if (r.outcome() == Outcome.SKIPPED || isSetup(r)) {
        continue;
      }
      if (r.classname() != null) {
        for (String name : CLASS_LEVEL) {
          candidate(candidates, identity, r.filePath(), r.classname(), r.parent(), name, r);
        }
        for (String module : modules(r.classname())) {
          candidate(candidates, identity, null, null, r.parent(), module, r);
        }
      }
      if (r.parent() != null) {
        for (String path : new String[] {null, r.filePath()}) {
          candidate(
              candidates, identity, path, r.parent(), r.parent(), TestCaseBuilder.SUITE_SETUP, r);
        }
      }
    }
    candidates.keySet().removeAll(reported);
    if (candidates.isEmpty()) {
      return List.of();
    }
    Set<String> stored = new HashSet<>();
    List<String> ids = new ArrayList<>(candidates.keySet());
    for (int i = 0; i < ids.size(); i += LOOKUP) {
      stored.addAll(existing.apply(Set.copyOf(ids.subList(i, Math.min(ids.size(), i + LOOKUP)))));
    }
    List<MergedResult> passes = new ArrayList<>();
    candidates.forEach(
        (id, pass) -> {
          if (stored.contains(id)) {
            passes.add(pass);
          }
        });
    return passes;
  }

  private static boolean isSetup(MergedResult r) {
    return CLASS_LEVEL.contains(r.name())
        || TestCaseBuilder.SUITE_SETUP.equals(r.name())
        || r.classname() == null;
  }

  /** The module a pytest classname names: itself, or without its last part (a test class). */
  private static List<String> modules(String classname) {
    int dot = classname.lastIndexOf('.');
    return dot < 0 ? List.of(classname) : List.of(classname, classname.substring(0, dot));
  }

  private static void candidate(
      Map<String, MergedResult> candidates,
      Identity identity,
      String filePath,
      String classname,
      String parent,
      String name,
      MergedResult ran) {
    String id = identity.of(filePath, classname, parent, name, ran.variant());
    candidates.putIfAbsent(
        id,
        new MergedResult(
            id, name, classname, parent, filePath, ran.variant(), Outcome.PASSED, 0, null));
  }
}
