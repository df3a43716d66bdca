package dev.trainyard.common.json;

/**
 * Whether bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past
 * U+10FFFF). A JSON text must be (RFC 8259 §8.1), and the parser alone does not refuse every
 * malformed sequence: inside an object's key it let {@code "owne\xFF\xFFr"} read as {@code owner}.
 */
public final class Utf8 {
  private Utf8() {}

  public static boolean isWellFormed(byte[] bytes) {
    int i = 0;
    while (i < bytes.length) {
      int b = bytes[i] & 0xFF;
      if (b < 0x80) {
        i++;
        continue;
      }
      int length;
      int min;
      if (b >= 0xC2 && b <= 0xDF) {
        length = 2;
        min = 0x80;
      } else if (b >= 0xE0 && b <= 0xEF) {
        length = 3;
        min = 0x800;
      } else if (b >= 0xF0 && b <= 0xF4) {
        length = 4;
        min = 0x10000;
      } else {
        return false; // a continuation byte first, 0xC0/0xC1 (overlong) or past 0xF4
      }
      if (i + length > bytes.length) {
        return false;
      }
      int code = b & (0xFF >> (length + 1));
      for (int k = 1; k < length; k++) {
        int next = bytes[i + k] & 0xFF;
        if ((next & 0xC0) != 0x80) {
          return false;
        }
        code = (code << 6) | (next & 0x3F);
      }
      if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
        return false;
      }
      i += length;
    }
    return true;
  }
}
