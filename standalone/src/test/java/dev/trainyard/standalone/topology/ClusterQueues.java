package dev.trainyard.standalone.topology;

import static dev.trainyard.standalone.support.QueueSteps.create;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.CiSimulator;
import dev.trainyard.standalone.support.ClusterHarness;
import dev.trainyard.standalone.support.GitHost;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Queues on real git repositories of a local cluster's git root, each with {@code prs} PRs opened
 * ("Add file n") and a CI that reports on their test branches; closing stops the CIs and the hosts.
 */
final class ClusterQueues implements AutoCloseable {
  final List<String> names = new ArrayList<>();
  final List<GitHost> hosts = new ArrayList<>();
  private final List<CiSimulator> cis = new ArrayList<>();

  static ClusterQueues open(ClusterHarness cluster, Api api, int queues, int prs)
      throws IOException {
    ClusterQueues opened = new ClusterQueues();
    try {
      for (int q = 0; q < queues; q++) {
        String name = Api.uniqueRepo();
        GitHost git = new GitHost(cluster.gitRoot(), cluster.org(), api, name);
        opened.names.add(name);
        opened.hosts.add(git);
        opened.cis.add(new CiSimulator(git.repo(), api, name));
        create(api, name, 2);
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

  @Override
  public void close() {
    cis.forEach(CiSimulator::close);
    hosts.forEach(GitHost::close);
  }
}
