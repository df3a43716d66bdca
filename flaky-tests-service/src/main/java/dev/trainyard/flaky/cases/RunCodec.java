package dev.trainyard.flaky.cases;

import dev.trainyard.flaky.ingest.Outcome;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A test case's run history as one binary value instead of an array of sub-documents: the store
 * reads and writes one element per test case rather than seven per run (120 runs: 840 elements, ~20
 * KB), which is what every upload and every quarantine configuration paid for. About 50 bytes a
 * run: an upload id as 16 bytes (UUIDs, which every upload id is), a commit as 20 (hex object ids),
 * the branch as an index into a table of the document's strings (which also holds any id that is
 * neither), the PR number and the commit's place as variable-length numbers, the upload time in
 * milliseconds.
 *
 * <p>Layout (version 1): {@code 0x01}, the string table (count, then length and UTF-8 bytes of
 * each), the run count, then per run a flags byte, the upload id, the commit, the branch's index
 * (+1, 0 = none), the PR number if flagged, the outcome's ordinal, the upload time and, if flagged,
 * the commit time's distance from it, and, if flagged, the configuration's index.
 */
public final class RunCodec {
  static final byte VERSION = 1;
  private static final int UUID_ID = 1;
  private static final int HEX_SHA = 2;
  private static final int HAS_PR = 4;
  private static final int OWN_COMMIT_TIME = 8;
  private static final int HAS_CONFIGURATION = 16;
  private static final Pattern OBJECT_ID = Pattern.compile("[0-9a-f]{40}");
  private static final Pattern UUID_TEXT =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  private static final Outcome[] OUTCOMES = Outcome.values();

  private RunCodec() {}

  public static byte[] encode(List<RecentRun> runs) {
    Map<String, Integer> table = new HashMap<>();
    List<String> strings = new ArrayList<>();
    ByteArrayOutputStream body = new ByteArrayOutputStream(runs.size() * 56);
    varint(body, runs.size());
    for (RecentRun r : runs) {
      boolean uuid = UUID_TEXT.matcher(r.uploadId()).matches();
      boolean hex = r.commitSha() != null && OBJECT_ID.matcher(r.commitSha()).matches();
      boolean ownTime = !r.commitAt().equals(r.at());
      body.write(
          (uuid ? UUID_ID : 0)
              | (hex ? HEX_SHA : 0)
              | (r.prNumber() != null ? HAS_PR : 0)
              | (ownTime ? OWN_COMMIT_TIME : 0)
              | (r.configuration() != null ? HAS_CONFIGURATION : 0));
      if (uuid) {
        UUID id = UUID.fromString(r.uploadId());
        body.writeBytes(
            ByteBuffer.allocate(16)
                .putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits())
                .array());
      } else {
        varint(body, index(table, strings, r.uploadId()));
      }
      if (hex) {
        body.writeBytes(HexFormat.of().parseHex(r.commitSha()));
      } else {
        varint(body, r.commitSha() == null ? 0 : index(table, strings, r.commitSha()) + 1);
      }
      varint(body, r.branch() == null ? 0 : index(table, strings, r.branch()) + 1);
      if (r.prNumber() != null) {
        varint(body, r.prNumber());
      }
      body.write(r.outcome().ordinal());
      body.writeBytes(ByteBuffer.allocate(8).putLong(r.at().toEpochMilli()).array());
      if (ownTime) {
        long delta = r.commitAt().toEpochMilli() - r.at().toEpochMilli();
        varint(body, (delta << 1) ^ (delta >> 63)); // zig-zag: earlier commits are negative
      }
      if (r.configuration() != null) {
        varint(body, index(table, strings, r.configuration()));
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.size() + 64);
    out.write(VERSION);
    varint(out, strings.size());
    for (String s : strings) {
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      varint(out, utf8.length);
      out.writeBytes(utf8);
    }
    out.writeBytes(body.toByteArray());
    return out.toByteArray();
  }

  public static List<RecentRun> decode(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    if (in.get() != VERSION) {
      throw new IllegalStateException("a run history written by a newer version of trainyard");
    }
    String[] strings = new String[(int) varint(in)];
    for (int i = 0; i < strings.length; i++) {
      byte[] utf8 = new byte[(int) varint(in)];
      in.get(utf8);
      strings[i] = new String(utf8, StandardCharsets.UTF_8);
    }
    int count = (int) varint(in);
    List<RecentRun> runs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int flags = in.get();
      String uploadId =
          (flags & UUID_ID) != 0
              ? new UUID(in.getLong(), in.getLong()).toString()
              : strings[(int) varint(in)];
      String sha;
      if ((flags & HEX_SHA) != 0) {
        byte[] raw = new byte[20];
        in.get(raw);
        sha = HexFormat.of().formatHex(raw);
      } else {
        int index = (int) varint(in);
        sha = index == 0 ? null : strings[index - 1];
      }
      int branch = (int) varint(in);
      Long pr = (flags & HAS_PR) != 0 ? varint(in) : null;
      Outcome outcome = OUTCOMES[in.get()];
      Instant at = Instant.ofEpochMilli(in.getLong());
      Instant commitAt = at;
      if ((flags & OWN_COMMIT_TIME) != 0) {
        long zigzag = varint(in);
        commitAt = at.plusMillis((zigzag >>> 1) ^ -(zigzag & 1));
      }
      String configuration = (flags & HAS_CONFIGURATION) != 0 ? strings[(int) varint(in)] : null;
      runs.add(
          new RecentRun(
              uploadId,
              sha,
              branch == 0 ? null : strings[branch - 1],
              pr,
              outcome,
              at,
              commitAt,
              configuration));
    }
    return runs;
  }

  private static int index(Map<String, Integer> table, List<String> strings, String value) {
    return table.computeIfAbsent(
        value,
        v -> {
          strings.add(v);
          return strings.size() - 1;
        });
  }

  private static void varint(ByteArrayOutputStream out, long value) {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  private static long varint(ByteBuffer in) {
    long value = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = in.get();
      value |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
  }
}
