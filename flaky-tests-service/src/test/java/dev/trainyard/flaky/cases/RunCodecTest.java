package dev.trainyard.flaky.cases;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.flaky.ingest.Outcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A history written as one binary value reads back as it was, whatever its ids look like. */
class RunCodecTest {
  private static final Instant AT = Instant.parse("2026-11-27T01:02:03.456Z");

  @Test
  void everyKindOfRunReadsBackAsItWas() {
    List<RecentRun> runs =
        List.of(
            new RecentRun(
                UUID.randomUUID().toString(),
                "0123456789abcdef0123456789abcdef01234567",
                "main",
                null,
                Outcome.FAILED,
                AT),
            new RecentRun(
                "u-not-a-uuid",
                "abc123",
                "feature/é",
                4_294_967_295L,
                Outcome.PASSED,
                hoursBefore(1),
                AT),
            new RecentRun(
                "7B1C2D3E-0000-4000-8000-00000000000A",
                "0123456789ABCDEF0123456789ABCDEF01234567",
                null,
                7L,
                Outcome.PASSED_ON_RETRY,
                AT,
                AT.plusSeconds(3600)),
            new RecentRun("u-not-a-uuid", null, "main", 0L, Outcome.SKIPPED, AT, AT),
            new RecentRun(
                "u-configured",
                "c0ffee",
                "main",
                null,
                Outcome.FAILED_IN_OUTAGE,
                AT,
                AT,
                "java.version=21, os.name=Linux"));

    assertThat(RunCodec.decode(RunCodec.encode(runs))).isEqualTo(runs);
  }

  @Test
  void aFullHistoryIsAboutFiftyBytesARun() {
    List<RecentRun> runs = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      runs.add(
          new RecentRun(
              UUID.randomUUID().toString(),
              String.format("%040x", i),
              i < 20 ? "main" : "feature/" + (i % 7),
              i < 20 ? null : (long) i,
              Outcome.PASSED,
              AT.plusSeconds(i),
              AT.minusSeconds(i)));
    }

    byte[] encoded = RunCodec.encode(runs);

    assertThat(RunCodec.decode(encoded)).isEqualTo(runs);
    assertThat(encoded.length).isLessThan(120 * 56);
  }

  private static Instant hoursBefore(int hours) {
    return AT.minusSeconds(hours * 3600L);
  }
}
