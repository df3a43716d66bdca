package dev.trainyard.standalone.guarantees;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.QueueSteps.PATIENCE;
import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.CiSimulator;
import dev.trainyard.standalone.support.GitHost;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.worker.scm.MergeResult;
import dev.trainyard.worker.scm.ScmProvider;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The worker dies between moving the target ref and recording the landing: the first landing of
 * every run moves the ref and then throws, which leaves the stored state as a kill -9 would (the
 * record is never sent), and the landing is asked for again from the stored state. With squash,
 * with rebase, and in parallel mode where the other lane's run is landed next onto the target the
 * lost landing moved, every PR is on the target exactly once (its commits on main are counted).
 */
class LandingCrashIT extends OwnStack {
  private final Path gitRoot = GitHost.newRoot();
  private final Set<String> crashedRuns = ConcurrentHashMap.newKeySet();

  @Override
  protected Map<String, Object> properties() {
    return Map.of(
        "trainyard.git.root", gitRoot.toString(), "trainyard.worker.effect-sweep-interval", "1s");
  }

  @Override
  protected List<ApplicationContextInitializer<ConfigurableApplicationContext>> workerSetup() {
    return List.of(context -> context.getBeanFactory().addBeanPostProcessor(crashAfterLanding()));
  }

  /** Wraps the worker's source host: the first merge of each tested commit lands, then throws. */
  private BeanPostProcessor crashAfterLanding() {
    return new BeanPostProcessor() {
      @Override
      public Object postProcessAfterInitialization(Object bean, String name) {
        if (!name.equals("scm") || !(bean instanceof ScmProvider scm)) {
          return bean;
        }
        return Proxy.newProxyInstance(
            ScmProvider.class.getClassLoader(),
            new Class<?>[] {ScmProvider.class},
            (proxy, method, args) -> {
              Object result;
              try {
                result = method.invoke(scm, args);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
              if (method.getName().equals("merge")
                  && result instanceof MergeResult.Merged
                  && crashedRuns.add((String) args[4])) {
                throw new IllegalStateException("simulated crash after the ref moved");
              }
              return result;
            });
      }
    };
  }

  @ParameterizedTest(name = "{0}, {1}")
  @CsvSource({
    "squash, single",
    "rebase, single",
    "merge_commit, parallel",
    "squash, parallel",
    "rebase, parallel"
  })
  void everyPullRequestIsOnTheTargetOnceAfterACrashBetweenTheRefMoveAndItsRecord(
      String method, String mode) throws Exception {
    crashedRuns.clear(); // one stack serves every case
    Api api = stack.api();
    String name = Api.uniqueRepo();
    try (GitHost git = new GitHost(gitRoot, TestStack.ORG, api, name);
        CiSimulator ci = new CiSimulator(git.repo(), api, name)) {
      create(api, name, 2);
      String settings = "\"mergeMethod\":\"" + method + "\",\"mode\":\"" + mode + "\"";
      assertThat(api.post("/v1/updateQueue", body(name, settings)).status()).isEqualTo(200);
      ci.hold(true); // both runs are built on the same main before either lands
      ObjectId api1 = git.openPr(1, "Change the api", "ann", "api/a.txt", "a\n");
      ObjectId web2 = git.openPr(2, "Change the web app", "bob", "web/b.txt", "b\n");
      if (mode.equals("parallel")) {
        QueueSteps.impactedTargets(api, name, 1, api1.name(), "[\"//api:server\"]");
        QueueSteps.impactedTargets(api, name, 2, web2.name(), "[\"//web:app\"]");
      }
      submit(api, name, 1);
      submit(api, name, 2);
      awaitState(api, name, 1, "testing");
      awaitState(api, name, 2, "testing");
      if (mode.equals("parallel")) {
        // PR 2's lane passes first and lands; its record is lost; then PR 1's lane, ahead in
        // the queue, passes and is the one to land next, onto a target it did not expect
        awaitReported(ci, tree -> tree.containsKey("web/b.txt"));
        Awaitility.await().atMost(PATIENCE).until(() -> !crashedRuns.isEmpty());
        awaitReported(ci, tree -> tree.containsKey("api/a.txt"));
      }
      ci.hold(false);

      awaitState(api, name, 1, "merged");
      awaitState(api, name, 2, "merged");

      assertThat(crashedRuns).as("landings crashed after moving the ref").hasSize(2);
      List<RevCommit> landed = git.repo().history(git.main(), null);
      assertThat(landed.stream().filter(c -> landing(c, 1, "Change the api")))
          .as("PR 1's landings on main")
          .hasSize(1);
      assertThat(landed.stream().filter(c -> landing(c, 2, "Change the web app")))
          .as("PR 2's landings on main")
          .hasSize(1);
      assertThat(git.repo().tree(git.main())).containsKeys("api/a.txt", "web/b.txt");
    }
  }

  private static void awaitReported(CiSimulator ci, Predicate<Map<String, String>> tree) {
    Awaitility.await().atMost(PATIENCE).until(() -> ci.reportNow(tree) > 0);
  }

  /**
   * Whether {@code commit} lands PR {@code pr}: its merge commit, its squash ("… (#n)"), or its own
   * commit rebased (its title).
   */
  private static boolean landing(RevCommit commit, long pr, String title) {
    String subject = commit.getShortMessage();
    return subject.startsWith("Merge pull request #" + pr + ":")
        || subject.endsWith("(#" + pr + ")")
        || subject.equals(title);
  }
}
