package dev.trainyard.flaky.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An XML byte stream in which no single piece the parser would hold whole is large. The JDK's
 * streaming parser materialises every attribute value, comment and CDATA section as one string (a
 * 100 MB attribute cost some 350 MiB of heap before any check could look at it), while it hands
 * text out in 16 KiB pieces. So, as the bytes pass: an attribute value, a comment or a CDATA
 * section longer than {@link #MAX_PIECE} bytes is cut there, at a character boundary, and closed
 * again (the parser then sees a value past {@link UploadLimits#MAX_ATTRIBUTE} and refuses it by
 * name; a message or a log is cut anyway; a value is never cut inside a character reference such as
 * {@code &#10;}); a processing instruction is bounded the same way; a tag longer than {@link
 * #MAX_TAG} bytes outside its values fails the read, and so does a DTD ({@code <!DOCTYPE}, which
 * the parser refuses anyway) before its subset is read. Only ASCII markup is looked at, so a report
 * in an encoding that is not ASCII-compatible (UTF-16, UTF-32) is refused: every JUnit producer
 * writes UTF-8.
 */
final class BoundedMarkup extends InputStream {
  /** Bytes kept of one attribute value, comment or CDATA section. */
  static final int MAX_PIECE = 64 * 1024;

  /** Bytes of one tag outside its attribute values: names, spaces, quotes. */
  static final int MAX_TAG = 64 * 1024;

  private static final byte[] COMMENT = "<!--".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CDATA = "<![CDATA[".getBytes(StandardCharsets.US_ASCII);

  private enum State {
    TEXT,
    TAG,
    VALUE,
    COMMENT,
    CDATA,
    INSTRUCTION
  }

  private final InputStream in;
  private final byte[] chunk = new byte[8192];
  private final byte[] prefix = new byte[CDATA.length];
  private byte[] out = new byte[chunk.length + 16];
  private int outStart;
  private int outEnd;
  private State state = State.TEXT;
  private int quote;
  private long tag;
  private long piece;
  private boolean cutting;
  private int last;
  private int beforeLast;
  private boolean opened;
  private boolean inReference;
  private long read;
  private int line = 1;

  /** Markup refused as it streamed, on {@code line}. */
  static final class Refused extends IOException {
    final int line;

    Refused(int line, String message) {
      super(message);
      this.line = line;
    }
  }

  BoundedMarkup(InputStream in) {
    this.in = in;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    while (outStart == outEnd) {
      int n = in.read(chunk);
      if (n < 0) {
        return -1;
      }
      outStart = 0;
      outEnd = 0;
      for (int i = 0; i < n; i++) {
        step(chunk[i] & 0xff);
      }
      read += n;
    }
    int given = Math.min(length, outEnd - outStart);
    System.arraycopy(out, outStart, buffer, offset, given);
    outStart += given;
    return given;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  private void step(int b) throws IOException {
    if (read == 0 && outEnd < 2 && notAsciiCompatible(b)) {
      throw new Refused(line, "the report is not UTF-8 (UTF-16 or UTF-32 is not read)");
    }
    if (b == '\n') {
      line++;
    }
    switch (state) {
      case TEXT -> {
        emit(b);
        if (b == '<') {
          state = State.TAG;
          tag = 1;
          prefix[0] = (byte) b;
        }
      }
      case TAG -> tagByte(b);
      case VALUE -> {
        if (b == quote) {
          close(State.TAG, new byte[] {(byte) b});
        } else {
          inPiece(b);
        }
      }
      case COMMENT -> {
        if (b == '>' && last == '-' && beforeLast == '-') {
          close(
              State.TEXT, cutting ? " -->".getBytes(StandardCharsets.US_ASCII) : new byte[] {'>'});
        } else {
          inPiece(b);
        }
      }
      case CDATA -> {
        if (b == '>' && last == ']' && beforeLast == ']') {
          close(State.TEXT, cutting ? "]]>".getBytes(StandardCharsets.US_ASCII) : new byte[] {'>'});
        } else {
          inPiece(b);
        }
      }
      case INSTRUCTION -> {
        if (b == '>' && last == '?') {
          close(State.TEXT, cutting ? " ?>".getBytes(StandardCharsets.US_ASCII) : new byte[] {'>'});
        } else {
          inPiece(b);
        }
      }
    }
    if (opened) {
      // the opening's own "--", "[" or "?" close nothing
      opened = false;
      beforeLast = 0;
      last = 0;
    } else {
      beforeLast = last;
      last = b;
    }
  }

  /** A byte order mark or a zero byte around the first {@code <}: UTF-16 or UTF-32. */
  private boolean notAsciiCompatible(int b) {
    return b == 0 || b == 0xFE || b == 0xFF;
  }

  private void tagByte(int b) throws IOException {
    tag++;
    if (tag <= prefix.length) {
      prefix[(int) tag - 1] = (byte) b;
    }
    emit(b);
    if (tag == 2 && b == '?') {
      open(State.INSTRUCTION);
    } else if (tag == 3 && prefix[1] == '!' && b != '-' && b != '[') {
      throw new Refused(line, "DTDs are not allowed in test reports");
    } else if (tag == COMMENT.length
        && Arrays.equals(prefix, 0, COMMENT.length, COMMENT, 0, COMMENT.length)) {
      open(State.COMMENT);
    } else if (tag == CDATA.length && prefix[1] == '!') {
      if (!Arrays.equals(prefix, CDATA)) {
        throw new Refused(line, "only comments and CDATA sections may start with <! in a report");
      }
      open(State.CDATA);
    } else if (tag > MAX_TAG) {
      throw new Refused(line, "a tag is longer than " + MAX_TAG + " bytes");
    } else if (b == '"' || b == '\'') {
      quote = b;
      open(State.VALUE);
    } else if (b == '>') {
      state = State.TEXT;
    }
  }

  private void open(State next) {
    state = next;
    piece = 0;
    cutting = false;
    inReference = false;
    opened = true;
  }

  /**
   * A byte inside a piece: kept up to the limit, and past it to the end of its character and of a
   * character reference it is in (a reference left open that long is malformed: cut anyway).
   */
  private void inPiece(int b) {
    piece++;
    if (state == State.VALUE) {
      if (b == '&') {
        inReference = true;
      } else if (b == ';') {
        inReference = false;
      }
    }
    boolean midReference = inReference && piece <= MAX_PIECE + 16;
    if (!cutting && piece > MAX_PIECE && (b & 0xC0) != 0x80 && !midReference && b != ';') {
      cutting = true;
    }
    if (!cutting) {
      emit(b);
    }
  }

  private void close(State next, byte[] closing) {
    for (byte b : closing) {
      emit(b & 0xff);
    }
    state = next;
    cutting = false;
  }

  private void emit(int b) {
    if (outEnd == out.length) {
      out = Arrays.copyOf(out, out.length * 2);
    }
    out[outEnd++] = (byte) b;
  }
}
