package dev.trainyard.standalone.topology;

import static dev.trainyard.standalone.support.QueueSteps.createRetrying;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.CiSimulator;
import dev.trainyard.standalone.support.ClusterHarness;
import dev.trainyard.standalone.support.GitHost;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Queues on real git repositories of a local cluster's git root, each with {@code prs} PRs opened
 * ("Add file n") and a CI that reports on their test branches (or none: their PRs test until
 * cancelled); closing stops the CIs and the hosts.
 */
final class ClusterQueues implements AutoCloseable {
  final List<String> names = new ArrayList<>();
  final List<GitHost> hosts = new ArrayList<>();
  private final List<CiSimulator> cis = new ArrayList<>();

  static ClusterQueues open(ClusterHarness cluster, Api api, int queues, int prs)
      throws IOException {
    return open(cluster, api, queues, prs, true);
  }

  static ClusterQueues open(ClusterHarness cluster, Api api, int queues, int prs, boolean ci)
      throws IOException {
    ClusterQueues opened = new ClusterQueues();
    try {
      for (int q = 0; q < queues; q++) {
        String name = Api.uniqueRepo();
        GitHost git = new GitHost(cluster.gitRoot(), cluster.org(), api, name);
        opened.names.add(name);
        opened.hosts.add(git);
        if (ci) {
          opened.cis.add(new CiSimulator(git.repo(), api, name));
        }
        createRetrying(api, name, 2);
        for (long pr = 1; pr <= prs; pr++) {
          git.openPr(pr, "Add file " + pr, "dev" + pr, "f" + pr + ".txt", "change " + pr + "\n");
        }
      }
      return opened;
    } catch (IOException | RuntimeException e) {
      opened.close();
      throw e;
    }
  }

  /** How many of PRs 1..{@code prs} have their merge commit on their main exactly once. */
  int mergedOnce(int prs) throws IOException {
    int mergedOnce = 0;
    for (GitHost host : hosts) {
      List<String> subjects = host.mainSubjects();
      for (long pr = 1; pr <= prs; pr++) {
        String landed = "Merge pull request #" + pr + ": Add file " + pr;
        if (subjects.stream().filter(landed::equals).count() == 1) {
          mergedOnce++;
        }
      }
    }
    return mergedOnce;
  }

  /** How many queues have PRs 1..{@code prs} landed on main in their order, nothing else. */
  int landedInOrder(int prs) throws IOException {
    int inOrder = 0;
    for (GitHost host : hosts) {
      if (host.mainSubjects().equals(GitHost.landedInOrder(prs))) {
        inOrder++;
      }
    }
    return inOrder;
  }

  @Override
  public void close() {
    cis.forEach(CiSimulator::close);
    hosts.forEach(GitHost::close);
  }
}
