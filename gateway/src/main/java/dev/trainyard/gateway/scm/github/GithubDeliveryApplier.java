package dev.trainyard.gateway.scm.github;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.gateway.commands.CommandBus;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.queues.RepositoryQueues;
import dev.trainyard.gateway.queues.RepositoryQueues.RepositoryQueue;
import dev.trainyard.gateway.scm.github.GithubEvents.Intent;
import dev.trainyard.gateway.scm.github.GithubEvents.Routed;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What a GitHub delivery asks, done: an installation that changed is recorded, and a delivery for a
 * repository becomes commands for the organization's queues on it (API.md §6): re-read the PRs, a
 * CI result, a submission by label or by a {@code /trainyard} comment from a user with write access
 * or a listed Bot. Routed by the installation to the organization it serves, and by the
 * repository's name in any case. Command ids derive from {@code X-GitHub-Delivery}, so applying a
 * delivery again (a retry, GitHub's redelivery) changes nothing twice.
 */
@Component
public class GithubDeliveryApplier {
  private static final Logger log = LoggerFactory.getLogger(GithubDeliveryApplier.class);
  private final GatewayProperties.Github github;
  private final GithubInstallations installations;
  private final GithubCommenters commenters;
  private final RepositoryQueues queues;
  private final CommandBus commands;
  private final GithubRepositoryNames names;
  private final GithubStatusApps statusApps;

  public GithubDeliveryApplier(
      GatewayProperties props,
      GithubInstallations installations,
      GithubCommenters commenters,
      RepositoryQueues queues,
      CommandBus commands,
      GithubRepositoryNames names,
      GithubStatusApps statusApps) {
    this.github = props.github();
    this.statusApps = statusApps;
    this.installations = installations;
    this.commenters = commenters;
    this.queues = queues;
    this.commands = commands;
    this.names = names;
  }

  /**
   * Whether PR {@code number} of repository {@code repositoryId} was pushed to since a delivery.
   */
  interface PushesSince {
    Mono<Boolean> to(long repositoryId, long number);
  }

  /** Applies delivery {@code delivery}, read as {@code routed}. */
  Mono<Void> apply(Routed routed, String delivery, PushesSince pushes) {
    if (routed instanceof Routed.Installation i) {
      return installations.changed(
          i.id(), i.account(), i.action(), github.defaultOrgFor(i.account()));
    }
    if (routed instanceof Routed.Repositories many) {
      return Flux.fromIterable(many.each()).concatMap(r -> apply(r, delivery, pushes)).then();
    }
    if (!(routed instanceof Routed.Repository r)) {
      log.debug("GitHub delivery {} ignored: {}", delivery, ((Routed.Ignored) routed).why());
      return Mono.empty();
    }
    return installations
        .servedOrg(r.installationId())
        .flatMap(
            org ->
                Mono.zip(
                    queuesOf(org, r),
                    Flux.fromIterable(r.intents())
                        .concatMap(i -> authorized(r, i, pushes))
                        .collectList()))
        .flatMap(
            found ->
                Flux.fromIterable(found.getT1())
                    .concatMap(queue -> send(queue, found.getT2(), delivery))
                    .then(replies(r, found.getT1(), found.getT2())))
        .then();
  }

  /**
   * Tells the author of each {@code /trainyard} comment trainyard does not act on why, in a reply
   * on the PR (API.md §6), unless every queue it concerns has {@code commentsEnabled} off. Sent
   * after the commands, once: a reply GitHub refuses does not apply the delivery again.
   */
  private Mono<Void> replies(
      Routed.Repository r, List<RepositoryQueue> queues, List<Intent> intents) {
    return Flux.fromIterable(intents)
        .concatMap(
            intent -> {
              String why = null;
              long number = 0;
              String login = null;
              List<RepositoryQueue> concerned = queues;
              if (intent instanceof Intent.Ignored i) {
                why = i.why();
                number = i.number();
                login = i.login();
              } else if (intent instanceof Intent.Command c) {
                concerned = queues.stream().filter(q -> q.key().branch().equals(c.base())).toList();
                why = whyIgnored(concerned, c);
                number = c.number();
                login = c.login();
              }
              // a repository without a queue of the organization hears nothing from trainyard
              boolean speaks =
                  !queues.isEmpty()
                      && (concerned.isEmpty()
                          || concerned.stream().anyMatch(q -> q.settings().commentsEnabled()));
              return why == null || !speaks
                  ? Mono.<Void>empty()
                  : commenters.reply(
                      r.installationId(),
                      r.repo(),
                      number,
                      login,
                      "@" + login + " trainyard did not act on this command: " + why + ".");
            })
        .then();
  }

  /** Why no queue onto the command's base takes it, or null when one does. */
  private static String whyIgnored(List<RepositoryQueue> onto, Intent.Command c) {
    if (onto.isEmpty()) {
      return "no merge queue of trainyard merges into `" + c.base() + "` in this repository";
    }
    String why = null;
    for (RepositoryQueue queue : onto) {
      String refused =
          !queue.settings().commandsEnabled()
              ? "comment commands are off on the `" + c.base() + "` queue (`commandsEnabled`)"
              : refusal(queue, c.bot());
      if (refused == null) {
        return null;
      }
      why = refused;
    }
    return why;
  }

  /**
   * The organization's queues on the repository under any name it was delivered under (a rename or
   * transfer keeps GitHub's id of it), each compared without case.
   */
  private Mono<List<RepositoryQueue>> queuesOf(String org, Routed.Repository r) {
    return names
        .remember(r.repositoryId(), r.repo().slug(), r.formerNames())
        .flatMapMany(Flux::fromIterable)
        .concatMap(
            slug -> {
              String[] parts = slug.split("/", 2);
              return queues.find(org, new RepoRef(r.repo().host(), parts[0], parts[1]), true);
            })
        .flatMapIterable(found -> found)
        .distinct(queue -> queue.key().id())
        .collectList();
  }

  /**
   * A comment becomes its command, and a person's label stays a command, when GitHub says its
   * author may write to the repository (labelling takes only the triage role); the rest as they
   * are.
   */
  private Mono<Intent> authorized(Routed.Repository r, Intent intent, PushesSince pushes) {
    if (intent instanceof Intent.Comment c) {
      Mono<Intent> authorized = commenters.authorize(r.installationId(), r.repo(), c);
      if (!c.submit()) {
        return authorized;
      }
      // the head queued is the one GitHub showed when the comment was authorized, which may be
      // minutes after it was written: one pushed since it was delivered is not what was asked for
      return authorized.flatMap(
          command ->
              !(command instanceof Intent.Command)
                  ? Mono.just(command)
                  : pushes
                      .to(r.repositoryId(), c.number())
                      .map(
                          pushed ->
                              pushed
                                  ? new Intent.Ignored(
                                      c.number(),
                                      c.login(),
                                      "the pull request was pushed to after this command, so what"
                                          + " it holds now is not what was asked for; comment"
                                          + " `/trainyard merge` again to queue it")
                                  : command));
    }
    if (intent instanceof Intent.Status status) {
      return statusApps.withApp(status);
    }
    if (intent instanceof Intent.Label label && label.bot() == null) {
      return commenters
          .mayWrite(r.installationId(), r.repo(), label.sender())
          .filter(Boolean::booleanValue)
          .map(yes -> intent);
    }
    return Mono.just(intent);
  }

  /** The commands for one queue, each under an id derived from the delivery. */
  private Flux<Void> send(RepositoryQueue queue, List<Intent> intents, String delivery) {
    List<QueueCommand> toSend = new ArrayList<>();
    for (Intent intent : intents) {
      commandFor(queue, intent).ifPresent(toSend::add);
    }
    return Flux.range(0, toSend.size())
        .concatMap(
            i -> {
              String id =
                  UUID.nameUUIDFromBytes(
                          (delivery + "/" + queue.key().id() + "/" + i)
                              .getBytes(StandardCharsets.UTF_8))
                      .toString();
              // a rejection (a label for a PR already queued) changes nothing: not an error
              return commands.send(queue.key(), toSend.get(i), id).then();
            });
  }

  private static Optional<QueueCommand> commandFor(RepositoryQueue queue, Intent intent) {
    if (intent instanceof Intent.Refresh r) {
      return Optional.of(new QueueCommand.RefreshFromScm(r.checksChanged()));
    }
    if (intent instanceof Intent.Status s) {
      return Optional.of(s.report());
    }
    if (intent instanceof Intent.Command c) {
      if (!queue.settings().commandsEnabled()
          || !c.base().equals(queue.key().branch())
          || refusal(queue, c.bot()) != null) {
        return Optional.empty();
      }
      return Optional.of(
          c.submit()
              ? new QueueCommand.SubmitPullRequest(
                  c.number(), c.priority(), c.noBatch(), c.headSha())
              : new QueueCommand.CancelPullRequest(c.number()));
    }
    if (intent instanceof Intent.Comment || intent instanceof Intent.Ignored) {
      return Optional.empty(); // not authorized, or no command: its author gets a reply
    }
    Intent.Label label = (Intent.Label) intent;
    boolean enqueueing =
        queue.settings().labelCommandsEnabled()
            && label.label().equals(queue.settings().enqueueingLabel())
            && label.base().equals(queue.key().branch())
            && refusal(queue, label.bot()) == null;
    if (!enqueueing) {
      return Optional.empty();
    }
    return Optional.of(
        label.added()
            ? new QueueCommand.SubmitPullRequest(label.number(), null, null, label.headSha())
            : new QueueCommand.CancelPullRequest(label.number()));
  }

  /**
   * Null for a person's command (no {@code bot}), or one from a Bot account the queue lists in
   * {@code allowedBotSubmitters} (API.md §6); why any other Bot's is ignored.
   */
  private static String refusal(RepositoryQueue queue, String bot) {
    if (bot == null || queue.settings().allowedBotSubmitters().contains(bot)) {
      return null;
    }
    log.info(
        "a command from {} on {} was ignored: the queue does not list it in allowedBotSubmitters",
        bot,
        queue.key().id());
    return "`" + bot + "` is not in the queue's `allowedBotSubmitters`";
  }
}
