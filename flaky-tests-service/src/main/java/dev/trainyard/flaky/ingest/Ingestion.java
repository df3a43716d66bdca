package dev.trainyard.flaky.ingest;

import dev.trainyard.flaky.cases.QuarantineSetting;
import dev.trainyard.flaky.cases.RecentRun;
import dev.trainyard.flaky.cases.RunHistory;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.classify.TargetBranch;
import dev.trainyard.flaky.owners.Codeowners;
import dev.trainyard.flaky.owners.GitCodeowners;
import dev.trainyard.flaky.repo.Repo;
import dev.trainyard.flaky.repo.RepoSettings;
import dev.trainyard.flaky.repo.RepoSettingsStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.KafkaException;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Writes a fully parsed upload: the upload record, the run log, then each test case's bounded
 * history and its new status ({@link StatusWrites}: compare-and-set, the status change published
 * after it is stored). Every step is idempotent per upload id (documents keyed by it, the upload's
 * time fixed by its first attempt, a run already in a history not added again), so an upload
 * written again after a crash or a 503 converges instead of counting twice. Uploads of one
 * repository are written one at a time in this instance ({@link PerKeySerializer}); across replicas
 * the compare-and-set keeps every run.
 */
public class Ingestion {
  private static final Logger log = LoggerFactory.getLogger(Ingestion.class);
  static final int BATCH = 1000;
  private final ResultStore results;
  private final UploadStore uploads;
  private final RepoSettingsStore settings;
  private final GitCodeowners git;
  private final StatusWrites writes;
  private final InstantSource clock;
  private final PerKeySerializer perRepo =
      new PerKeySerializer(task -> Schedulers.boundedElastic().schedule(task));

  public Ingestion(
      ResultStore results,
      UploadStore uploads,
      RepoSettingsStore settings,
      GitCodeowners git,
      StatusWrites writes,
      InstantSource clock) {
    this.results = results;
    this.uploads = uploads;
    this.settings = settings;
    this.git = git;
    this.writes = writes;
    this.clock = clock;
  }

  /**
   * What the client is told: the upload's id, how many test cases it kept, how many it skipped with
   * a line naming each of the first {@value UploadLimits#NAMED_SKIPS}, and how many test ids
   * several of its files reported, the first {@value MergedResult#NAMED_COLLISIONS} named, and the
   * outage it reads as, if it does ({@link Outage}: null when not).
   */
  public record Written(
      String uploadId,
      int testCases,
      int skippedCount,
      List<String> skipped,
      int collisions,
      List<String> colliding,
      Outage outage,
      OtherConfigurations otherConfigurations) {}

  /**
   * Test cases of the upload that already ran on its commit in another configuration (another job
   * of a CI matrix that uploads its own report without a {@code variant}): never read as a retry,
   * and said so, with the advice to give each configuration its variant.
   */
  public record OtherConfigurations(int testCases, String message) {
    static OtherConfigurations of(Map<String, String> others, String configuration) {
      if (others.isEmpty()) {
        return null;
      }
      return new OtherConfigurations(
          others.size(),
          others.size()
              + " test cases also ran on this commit as "
              + others.values().iterator().next()
              + " in another upload (this one: "
              + configuration
              + "): two configurations, never a retry of each other; give each job its own"
              + " variant to list them as tests of their own");
    }
  }

  /** What classifying an upload found: its outage, and its tests run in other configurations. */
  private record Classification(Optional<Outage> outage, OtherConfigurations others) {}

  /**
   * Writes the upload once the repository's earlier uploads in this instance are written (waiting
   * holds no thread); it runs to its end even if the caller stops waiting.
   */
  public Mono<Written> submit(
      String org, UploadForm form, List<ParsedReport> reports, String codeowners) {
    return Mono.defer(
        () ->
            Mono.fromFuture(
                perRepo.submit(
                    org + "/" + form.repo().key(), () -> write(org, form, reports, codeowners)),
                true));
  }

  /** Writes the upload on this thread; callers serialise per repository ({@link #submit}). */
  Written write(String org, UploadForm form, List<ParsedReport> parsed, String codeowners) {
    Repo repo = form.repo();
    List<ParsedReport> reports = parsed.stream().map(form::located).toList();
    int testCases = reports.stream().mapToInt(r -> r.results().size()).sum();
    byte[] content = fingerprint(org, form, reports);
    String uploadId =
        form.uploadId() != null ? form.uploadId() : UUID.nameUUIDFromBytes(content).toString();
    MergedResult.Merged upload =
        MergedResult.merge(
            reports,
            form::variantOf,
            (variant, r) ->
                identity(repo).of(r.filePath(), r.classname(), r.parent(), r.name(), variant));
    List<MergedResult> merged = upload.results();
    Instant commitKnown =
        git.commitTime(org, repo, form.commitSha())
            .or(
                () ->
                    reports.stream()
                        .map(form::started)
                        .filter(java.util.Objects::nonNull)
                        .min(Instant::compareTo))
            .orElse(null);
    UploadStore.Begun begun =
        uploads.begin(
            org,
            uploadId,
            HexFormat.of().formatHex(content),
            form,
            testCases,
            commitKnown,
            configuration(reports),
            clock.instant());
    Instant at = begun.at();
    for (int i = 0; i < merged.size(); i += BATCH) {
      results.save(
          org,
          repo.key(),
          form,
          uploadId,
          merged.subList(i, Math.min(merged.size(), i + BATCH)),
          at);
    }
    RepoSettings repoSettings = settings.get(org, repo);
    TargetBranch target = settings.target(org, repo, repoSettings, git.defaultBranch(org, repo));
    String newOwners = targetOwners(org, form, target, codeowners);
    if (newOwners != null && !newOwners.equals(repoSettings.codeowners())) {
      settings.codeowners(org, repo, newOwners);
      repoSettings = settings.get(org, repo);
    }
    Classification classified =
        classifyAll(org, form, uploadId, merged, begun, repoSettings, target);
    List<String> named =
        reports.stream()
            .flatMap(r -> r.skipped().named().stream())
            .limit(UploadLimits.NAMED_SKIPS)
            .toList();
    return new Written(
        uploadId,
        testCases,
        reports.stream().mapToInt(r -> r.skipped().count()).sum(),
        named,
        upload.collisions(),
        upload.named(),
        classified.outage().orElse(null),
        classified.others());
  }

  /**
   * Finishes an upload whose writer stopped after logging its results (the sweep finds it still
   * {@code writing}): classifies its runs from the log, as the writer would have. What the writer
   * had already stored is not added again (a history holds an upload once).
   */
  public void finish(UploadStore.Unfinished upload) {
    String org = upload.org();
    Repo repo = upload.form().repo();
    RepoSettings repoSettings = settings.get(org, repo);
    TargetBranch target = settings.target(org, repo, repoSettings, git.defaultBranch(org, repo));
    classifyAll(
        org,
        upload.form(),
        upload.uploadId(),
        results.of(org, upload.uploadId()),
        upload.begun(),
        repoSettings,
        target);
  }

  /** Classifies the upload's runs. */
  private Classification classifyAll(
      String org,
      UploadForm form,
      String uploadId,
      List<MergedResult> merged,
      UploadStore.Begun begun,
      RepoSettings repoSettings,
      TargetBranch target) {
    Codeowners owners = settings.parsed(org, repoSettings);
    Optional<Outage> outage = Outage.of(merged.stream().map(MergedResult::outcome).toList());
    Map<String, String> others = new java.util.concurrent.ConcurrentHashMap<>();
    List<MergedResult> judged = new ArrayList<>(merged);
    judged.addAll(
        SetupRuns.passes(merged, identity(form.repo()), ids -> writes.existing(org, ids)));
    for (int i = 0; i < judged.size(); i += BATCH) {
      classify(
          org,
          form,
          uploadId,
          judged.subList(i, Math.min(judged.size(), i + BATCH)),
          outage,
          begun,
          new Classified(repoSettings, target, owners, others));
    }
    Classification classification =
        new Classification(outage, OtherConfigurations.of(others, begun.configuration()));
    try {
      writes.announceResults(
          org,
          form,
          uploadId,
          merged.stream()
              .filter(r -> r.outcome() == Outcome.FAILED)
              .map(MergedResult::testId)
              .toList(),
          target);
    } catch (KafkaException e) {
      // the upload is stored and classified; left unfinished, the sweep announces it later
      log.warn(
          "upload {} is stored; announcing it waits for the broker: {}", uploadId, e.toString());
      return classification;
    }
    uploads.done(org, uploadId);
    return classification;
  }

  /**
   * Where the upload's tests ran by its reports' properties: the one configuration they name, else
   * null (none named, or several: files of one upload are told apart by their variants).
   */
  static String configuration(List<ParsedReport> reports) {
    List<String> named =
        reports.stream()
            .map(ParsedReport::configuration)
            .filter(java.util.Objects::nonNull)
            .distinct()
            .limit(2)
            .toList();
    return named.size() == 1 ? named.get(0) : null;
  }

  /**
   * Notes {@code run}'s test when its history holds a run of the commit in another configuration.
   */
  private static void noteOtherConfiguration(
      TestCase before, RecentRun run, Map<String, String> others) {
    if (before == null || run.configuration() == null) {
      return;
    }
    before.runs().stream()
        .filter(o -> java.util.Objects.equals(o.commitSha(), run.commitSha()))
        .map(RecentRun::configuration)
        .filter(c -> c != null && !c.equals(run.configuration()))
        .findFirst()
        .ifPresent(c -> others.put(before.testId(), c));
  }

  /** The ids of the upload's test cases {@code rename} names (as {@link #write} makes them). */
  static List<String> testIds(UploadForm form, List<ParsedReport> parsed, Rename rename) {
    SetupRuns.Identity identity = identity(form.repo());
    return parsed.stream()
        .map(form::located)
        .flatMap(
            report ->
                report.results().stream()
                    .filter(rename::names)
                    .map(
                        r ->
                            identity.of(
                                r.filePath(),
                                r.classname(),
                                r.parent(),
                                r.name(),
                                form.variantOf(report))))
        .distinct()
        .toList();
  }

  /** How the test ids of {@code repo}'s test cases are made. */
  private static SetupRuns.Identity identity(Repo repo) {
    return (filePath, classname, parent, name, variant) ->
        TestIdentity.of(
                repo.host(), repo.owner(), repo.name(), filePath, classname, parent, name, variant)
            .toString();
  }

  /**
   * What classifying an upload's runs reads of its repository, and where it notes its tests that
   * ran on the commit in another configuration (test id to that configuration).
   */
  private record Classified(
      RepoSettings settings,
      TargetBranch target,
      Codeowners owners,
      Map<String, String> otherConfigurations) {}

  private void classify(
      String org,
      UploadForm form,
      String uploadId,
      List<MergedResult> batch,
      Optional<Outage> outage,
      UploadStore.Begun begun,
      Classified with) {
    Repo repo = form.repo();
    Instant at = begun.at();
    Map<String, UnaryOperator<TestCase>> changes = new LinkedHashMap<>();
    for (MergedResult r : batch) {
      RecentRun run =
          new RecentRun(
              uploadId,
              form.commitSha(),
              form.branch(),
              form.prNumber(),
              Outage.inHistory(r.outcome(), outage),
              at,
              begun.commitAt(),
              begun.configuration());
      changes.put(
          r.testId(),
          before -> {
            noteOtherConfiguration(before, run, with.otherConfigurations());
            return new TestCase(
                org,
                repo.key(),
                r.testId(),
                r.name(),
                r.classname(),
                r.parent(),
                form.storedPath(r.filePath(), r.classname(), r.parent()),
                r.variant(),
                null, // classified by the writer
                RunHistory.add(before == null ? List.of() : before.runs(), run, with.target(), at),
                before == null ? QuarantineSetting.UNSPECIFIED : before.quarantine(),
                before == null ? 0 : before.quarantineVersion(),
                before == null ? null : before.ticketUrl(),
                before == null ? 0 : before.version());
          });
    }
    writes.write(
        new StatusWrites.Writer(
            org, repo, with.settings(), with.target(), with.owners(), uploadId, at),
        changes);
  }

  /**
   * The CODEOWNERS a target-branch run brings: the uploaded file, else the file as committed at its
   * commit when the git adapter holds the repository. Other runs (a feature branch, a pull request,
   * a merge queue's branch) hold changes that are not merged, so they never change the repository's
   * owners. Null when there is nothing to take.
   */
  private String targetOwners(String org, UploadForm form, TargetBranch target, String uploaded) {
    if (!target.matches(form.branch(), form.prNumber())) {
      return null;
    }
    return uploaded != null ? uploaded : git.at(org, form.repo(), form.commitSha()).orElse(null);
  }

  /**
   * The SHA-256 of what is uploaded, metadata and files: without a client-given id it is the id
   * (the same content is the same upload); with one, it tells a resend from a reused id.
   */
  static byte[] fingerprint(String org, UploadForm form, List<ParsedReport> reports) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String part :
          new String[] {
            org,
            form.repo().key(),
            form.commitSha(),
            form.branch(),
            String.valueOf(form.prNumber()),
            form.variant(),
            String.valueOf(form.jobUrl())
          }) {
        sha.update(part.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
      }
      if (form.pathPrefix() != null) { // an upload without a prefix keeps its id
        sha.update(form.pathPrefix().getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
      }
      if (form.timeZone() != null) { // nor one without a time zone
        sha.update(form.timeZone().getId().getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
      }
      for (ParsedReport report : reports) {
        sha.update(report.fileName().getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        if (report.variant() != null) { // an upload without per-file variants keeps its id
          sha.update(report.variant().getBytes(StandardCharsets.UTF_8));
          sha.update((byte) 0);
        }
        sha.update(report.sha256());
      }
      return sha.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }
}
