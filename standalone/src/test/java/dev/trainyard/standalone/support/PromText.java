package dev.trainyard.standalone.support;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format 0.0.4, as far as trainyard uses it: any
 * line that is not a HELP, a TYPE or a well-formed sample fails, as do a sample before its family's
 * TYPE, a family typed twice, and a repeated series.
 */
public final class PromText {
  private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") (.*)");
  private static final Pattern TYPE =
      Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
  private static final Pattern SAMPLE_NAME = Pattern.compile("(" + NAME + ")\\{");
  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  private static final Pattern VALUE = Pattern.compile("[+-]?(\\d+(\\.\\d+)?|Inf|NaN)");

  /** One sample: its metric name (with any {@code _bucket}/{@code _sum}/{@code _count}). */
  public record Sample(String name, Map<String, String> labels, double value) {}

  public final Map<String, String> help = new LinkedHashMap<>();
  public final Map<String, String> types = new LinkedHashMap<>();
  public final List<Sample> samples = new ArrayList<>();

  public static PromText parse(String text) {
    PromText out = new PromText();
    if (!text.isEmpty() && !text.endsWith("\n")) {
      throw new IllegalArgumentException("the exposition does not end with a line feed");
    }
    String family = null;
    Set<String> seen = new HashSet<>();
    for (String line : text.split("\n", -1)) {
      if (line.isEmpty()) {
        continue;
      }
      Matcher m;
      if ((m = HELP.matcher(line)).matches()) {
        if (out.help.put(m.group(1), m.group(2)) != null) {
          throw new IllegalArgumentException("a second HELP: " + line);
        }
      } else if ((m = TYPE.matcher(line)).matches()) {
        if (out.types.put(m.group(1), m.group(2)) != null) {
          throw new IllegalArgumentException("a second TYPE: " + line);
        }
        family = m.group(1);
      } else {
        Sample sample = sample(line);
        String base = sample.name().replaceFirst("_(bucket|sum|count)$", "");
        if (family == null || !(sample.name().equals(family) || base.equals(family))) {
          throw new IllegalArgumentException("a sample outside its family: " + line);
        }
        if (!seen.add(sample.name() + sample.labels())) {
          throw new IllegalArgumentException("a repeated series: " + line);
        }
        out.samples.add(sample);
      }
    }
    return out;
  }

  private static Sample sample(String line) {
    Matcher name = SAMPLE_NAME.matcher(line);
    if (!name.lookingAt()) {
      throw new IllegalArgumentException("not a sample with labels: " + line);
    }
    Map<String, String> labels = new LinkedHashMap<>();
    int i = name.end();
    while (line.charAt(i) != '}') {
      Matcher label = LABEL_NAME.matcher(line).region(i, line.length());
      if (!label.lookingAt()
          || line.charAt(label.end()) != '='
          || line.charAt(label.end() + 1) != '"') {
        throw new IllegalArgumentException("a bad label at " + i + ": " + line);
      }
      StringBuilder value = new StringBuilder();
      int j = label.end() + 2;
      for (; line.charAt(j) != '"'; j++) {
        char c = line.charAt(j);
        if (c == '\\') {
          char next = line.charAt(++j);
          switch (next) {
            case '\\':
              value.append('\\');
              break;
            case '"':
              value.append('"');
              break;
            case 'n':
              value.append('\n');
              break;
            default:
              throw new IllegalArgumentException("a bad escape: " + line);
          }
        } else {
          value.append(c);
        }
      }
      if (labels.put(label.group(), value.toString()) != null) {
        throw new IllegalArgumentException("a repeated label: " + line);
      }
      i = j + 1;
      if (line.charAt(i) == ',') {
        i++;
      } else if (line.charAt(i) != '}') {
        throw new IllegalArgumentException("labels not separated by a comma: " + line);
      }
    }
    String rest = line.substring(i + 1);
    if (!rest.startsWith(" ") || !VALUE.matcher(rest.substring(1)).matches()) {
      throw new IllegalArgumentException("a bad value: " + line);
    }
    String v = rest.substring(1);
    double value =
        v.endsWith("Inf")
            ? (v.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY)
            : Double.parseDouble(v);
    return new Sample(name.group(1), labels, value);
  }

  /** The value of the one sample named {@code name} whose labels include {@code labels}. */
  public double value(String name, Map<String, String> labels) {
    List<Sample> found =
        samples.stream()
            .filter(
                s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
            .toList();
    if (found.size() != 1) {
      throw new AssertionError(found.size() + " samples " + name + labels + " in " + samples);
    }
    return found.get(0).value();
  }
}
