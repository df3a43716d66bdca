package dev.trainyard.common.view;

import dev.trainyard.common.queue.QueueFreeze;
import dev.trainyard.common.queue.QueueSettings;
import dev.trainyard.common.queue.QueueState;
import java.util.List;

/**
 * A queue as getQueue shows it; the gateway flattens {@code settings} into the response. {@code
 * freeze}: null unless frozen; {@code forecast}: positions and estimates as of the version's write
 * (not part of the getQueue body as such; readers add them to the PRs).
 */
public record QueueView(
    QueueState state,
    String branch,
    QueueSettings settings,
    QueueFreeze freeze,
    List<PullRequestListItem> enqueuedPullRequests,
    QueueForecast forecast) {
  public QueueView {
    forecast = forecast == null ? QueueForecast.NONE : forecast;
  }
}
