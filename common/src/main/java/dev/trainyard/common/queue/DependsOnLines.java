package dev.trainyard.common.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The dependencies a source host declares for a pull request (API.md §2): {@code Depends-On: #<n>}
 * lines of its description (GitHub) or of its head commit's message (git). A line may name several
 * ({@code Depends-On: #12, #14}); the key is matched without case, as trailers are. At most {@code
 * max} numbers are taken, each once.
 */
public final class DependsOnLines {
  private static final Pattern LINE =
      Pattern.compile(
          "(?im)^[ \\t]*depends-on:[ \\t]*(#[0-9]{1,10}(?:[ \\t]*,?[ \\t]*#[0-9]{1,10})*)");
  private static final Pattern NUMBER = Pattern.compile("#([0-9]{1,10})");

  private DependsOnLines() {}

  public static List<Long> parse(String text, int max) {
    List<Long> numbers = new ArrayList<>();
    if (text == null) {
      return numbers;
    }
    Matcher line = LINE.matcher(text);
    while (line.find()) {
      Matcher number = NUMBER.matcher(line.group(1));
      while (number.find() && numbers.size() < max) {
        long n = Long.parseLong(number.group(1));
        if (n <= 4_294_967_295L && !numbers.contains(n)) {
          numbers.add(n);
        }
      }
    }
    return numbers;
  }
}
