package dev.trainyard.standalone.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ports claimed across processes (TRAINYARD_PORT_CLAIMS: the test suites' two JVMs and what they
 * start): a port goes to whoever claims it first; a claim older than ten minutes goes to exactly
 * one of those who find it, however many at once.
 */
class FreePortClaimsTest {
  @TempDir Path claims;

  @Test
  void aPortIsHandedOutOnlyByWhoeverClaimedItFirst() {
    assertThat(FreePorts.claimed(null, 12_345)).as("no claims directory: no claims").isTrue();
    assertThat(FreePorts.claimed(claims, 12_345)).isTrue();
    assertThat(FreePorts.claimed(claims, 12_345)).as("claimed by another").isFalse();
    assertThat(FreePorts.claimed(claims, 12_346)).isTrue();
  }

  @Test
  void aStaleClaimGoesToExactlyOneOfThoseWhoFindIt() throws Exception {
    assertThat(FreePorts.claimed(claims, 20_000)).isTrue();
    Files.setLastModifiedTime(
        claims.resolve("20000"),
        FileTime.from(Instant.now().minus(FreePorts.CLAIM_HELD).minusSeconds(60)));
    int contenders = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(contenders);
    try {
      List<Future<Boolean>> tries = new ArrayList<>();
      Callable<Boolean> claim =
          () -> {
            start.await();
            return FreePorts.claimed(claims, 20_000);
          };
      for (int i = 0; i < contenders; i++) {
        tries.add(pool.submit(claim));
      }
      start.countDown();
      int won = 0;
      for (Future<Boolean> t : tries) {
        won += t.get() ? 1 : 0;
      }
      assertThat(won).isEqualTo(1);
      assertThat(FreePorts.claimed(claims, 20_000)).as("fresh again").isFalse();
    } finally {
      pool.shutdownNow();
    }
  }
}
