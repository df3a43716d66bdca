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
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
   * several of its files reported, the first {@value MergedResult#NAMED_COLLISIONS} named.
   */
  public record Written(
      String uploadId,
      int testCases,
      int skippedCount,
      List<String> skipped,
      int collisions,
      List<String> colliding) {}

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
            report -> report.variant() != null ? report.variant() : form.variant(),
            (variant, r) ->
                TestIdentity.of(
                        repo.host(),
                        repo.owner(),
                        repo.name(),
                        r.filePath(),
                        r.classname(),
                        r.parent(),
                        r.name(),
                        variant)
                    .toString());
    List<MergedResult> merged = upload.results();
    Instant commitKnown =
        git.commitTime(org, repo, form.commitSha())
            .or(
                () ->
                    reports.stream()
                        .map(ParsedReport::started)
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
    TargetBranch target = repoSettings.target(git.defaultBranch(org, repo));
    String newOwners = targetOwners(org, form, target, codeowners);
    if (newOwners != null && !newOwners.equals(repoSettings.codeowners())) {
      settings.codeowners(org, repo, newOwners);
      repoSettings = settings.get(org, repo);
    }
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
        upload.named());
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
    TargetBranch target = repoSettings.target(git.defaultBranch(org, repo));
    classifyAll(
        org,
        upload.form(),
        upload.uploadId(),
        results.of(org, upload.uploadId()),
        upload.begun(),
        repoSettings,
        target);
  }

  private void classifyAll(
      String org,
      UploadForm form,
      String uploadId,
      List<MergedResult> merged,
      UploadStore.Begun begun,
      RepoSettings repoSettings,
      TargetBranch target) {
    Codeowners owners = settings.parsed(org, repoSettings);
    for (int i = 0; i < merged.size(); i += BATCH) {
      classify(
          org,
          form,
          uploadId,
          merged.subList(i, Math.min(merged.size(), i + BATCH)),
          begun.at(),
          begun.commitAt(),
          repoSettings,
          target,
          owners);
    }
    try {
      writes.announceResults(
          org,
          repoSettings,
          form,
          uploadId,
          merged.stream()
              .filter(r -> r.outcome() == Outcome.FAILED)
              .map(MergedResult::testId)
              .toList());
    } catch (KafkaException e) {
      // the upload is stored and classified; left unfinished, the sweep announces it later
      log.warn(
          "upload {} is stored; announcing it waits for the broker: {}", uploadId, e.toString());
      return;
    }
    uploads.done(org, uploadId);
  }

  private void classify(
      String org,
      UploadForm form,
      String uploadId,
      List<MergedResult> batch,
      Instant at,
      Instant commitAt,
      RepoSettings repoSettings,
      TargetBranch target,
      Codeowners owners) {
    Repo repo = form.repo();
    Map<String, UnaryOperator<TestCase>> changes = new LinkedHashMap<>();
    for (MergedResult r : batch) {
      RecentRun run =
          new RecentRun(
              uploadId,
              form.commitSha(),
              form.branch(),
              form.prNumber(),
              r.outcome(),
              at,
              commitAt);
      changes.put(
          r.testId(),
          before ->
              new TestCase(
                  org,
                  repo.key(),
                  r.testId(),
                  r.name(),
                  r.classname(),
                  r.parent(),
                  r.filePath(),
                  r.variant(),
                  null, // classified by the writer
                  RunHistory.add(before == null ? List.of() : before.runs(), run, target, at),
                  before == null ? QuarantineSetting.UNSPECIFIED : before.quarantine(),
                  before == null ? 0 : before.quarantineVersion(),
                  before == null ? null : before.ticketUrl(),
                  before == null ? 0 : before.version()));
    }
    writes.write(
        new StatusWrites.Writer(org, repo, repoSettings, target, owners, uploadId, at), changes);
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
