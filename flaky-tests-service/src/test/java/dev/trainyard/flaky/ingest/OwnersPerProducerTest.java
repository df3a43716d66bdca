package dev.trainyard.flaky.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.flaky.cases.QuarantineSetting;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.classify.Status;
import dev.trainyard.flaky.owners.Codeowners;
import dev.trainyard.flaky.repo.Repo;
import dev.trainyard.flaky.repo.RepoSettings;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The owners of a test case as each producer reports it (the files under {@code reports/} were
 * written by the tools themselves), under one CODEOWNERS: {@code *} for everyone, and a team per
 * directory.
 */
class OwnersPerProducerTest {
  private static final Codeowners CODEOWNERS =
      Codeowners.parse(
          """
          * @acme/all
          /src/test/java/com/acme/ @acme/java
          /tests/ @acme/python
          /sum/ @acme/go
          /packages/web/ @acme/web
          /services/ledger/src/test/java/ @acme/ledger
          /services/billing/src/test/kotlin/ @acme/billing
          /services/billing/tests/ @acme/billing-py
          """);

  @ParameterizedTest(name = "{0} (pathPrefix {2}) → {3}")
  @CsvSource(
      nullValues = "-",
      value = {
        "surefire.xml, shop, -, @acme/java",
        "surefire-beforeall.xml, shop, -, @acme/java",
        "pytest-xunit1.xml, shop, -, @acme/python",
        "pytest-xunit2.xml, shop, -, @acme/python",
        "gotestsum.xml, rocket, -, @acme/go",
        "jest-junit-file.xml, shop, packages/web, @acme/web",
        "jest-junit-file.xml, shop, -, @acme/all",
        "jest-junit-default.xml, shop, packages/web, -",
        "surefire.xml, shop, services/ledger, @acme/ledger",
        "surefire.xml, shop, services/billing, @acme/billing",
        "pytest-xunit2.xml, shop, services/billing, @acme/billing-py",
      })
  void everyProducersTestsHaveTheirOwners(
      String report, String repoName, String pathPrefix, String owner) throws Exception {
    Repo repo = new Repo("github.com", "acme", repoName);
    UploadForm form = new UploadForm(repo, "abc", "main", null, "", null, null, pathPrefix, null);
    List<TestCaseResult> results;
    try (InputStream in = getClass().getResourceAsStream("/reports/" + report)) {
      results = new JunitXmlParser().parse(report, in);
    }
    ParsedReport located =
        form.located(new ParsedReport(report, null, new byte[32], results, null, null, null, null));
    RepoSettings settings = new RepoSettings(repo.key(), null, false, "");

    for (TestCaseResult r : located.results()) {
      List<String> owners = settings.owners(CODEOWNERS, testCase(repo, form, r));
      assertThat(owners)
          .as(r.classname() + " " + r.name())
          .isEqualTo(owner == null ? List.of() : List.of(owner));
    }
  }

  private static TestCase testCase(Repo repo, UploadForm form, TestCaseResult r) {
    return new TestCase(
        "acme-org",
        repo.key(),
        "id",
        r.name(),
        r.classname(),
        r.parent(),
        form.storedPath(r.filePath(), r.classname(), r.parent()),
        "",
        Status.healthy(Instant.EPOCH),
        List.of(),
        QuarantineSetting.UNSPECIFIED,
        0,
        null,
        1);
  }
}
