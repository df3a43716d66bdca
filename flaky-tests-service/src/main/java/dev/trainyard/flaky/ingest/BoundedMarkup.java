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
 * name; a message or a log is cut anyway); a tag longer than {@link #MAX_TAG} bytes outside its
 * values fails the read. Only ASCII markup is looked at: UTF-8, which every JUnit producer writes.
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
    CDATA
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
    }
    beforeLast = last;
    last = b;
  }

  private void tagByte(int b) throws IOException {
    tag++;
    if (tag <= prefix.length) {
      prefix[(int) tag - 1] = (byte) b;
    }
    emit(b);
    if (tag == COMMENT.length
        && Arrays.equals(prefix, 0, COMMENT.length, COMMENT, 0, COMMENT.length)) {
      open(State.COMMENT);
    } else if (tag == CDATA.length && Arrays.equals(prefix, CDATA)) {
      open(State.CDATA);
    } else if (tag > MAX_TAG) {
      throw new IOException("a tag is longer than " + MAX_TAG + " bytes");
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
    last = 0; // the opening's own "--" or "[" close nothing
  }

  /** A byte inside a piece: kept up to the limit, and past it to the end of its character. */
  private void inPiece(int b) {
    piece++;
    if (!cutting && piece > MAX_PIECE && (b & 0xC0) != 0x80) {
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
