package dev.trainyard.flaky.owners;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The repository path CODEOWNERS is matched against for a test case, from what its producer wrote:
 *
 * <ul>
 *   <li>a {@code file} attribute (pytest xunit1, jest-junit with {@code addFileAttribute}), or a
 *       suite named by its file (jest-junit with {@code suiteNameTemplate: "{filepath}"}): that
 *       path, relative to the repository root — {@code ./} dropped, backslashes made slashes, an
 *       absolute path (a CI workspace) cut after its last directory named as the repository;
 *   <li>a Go import path ({@code github.com/acme/shop/cart}, gotestsum): the package directory
 *       inside the repository ({@code cart/}, the module path cut: the repository's own, else the
 *       first three segments), where the package's {@code _test.go} files are;
 *   <li>a Python module ({@code tests.test_api}, {@code tests.test_api.TestCart}; pytest xunit2, in
 *       a suite named {@code pytest} or with a module named {@code test_…}): {@code
 *       tests/test_api.py};
 *   <li>a Java class ({@code com.acme.cart.CartTest}, {@code …CartTest$Nested}; Surefire): {@code
 *       src/test/java/com/acme/cart/CartTest.java}, Maven's layout at the repository root.
 * </ul>
 *
 * Anything else (jest-junit's default, a describe title as classname) has no path: no owners.
 */
public final class SourcePath {
  private static final Pattern DOTTED = Pattern.compile("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)+");
  private static final Pattern SOURCE_FILE =
      Pattern.compile("[^\\s]*/?[^\\s/]+\\.(?:[jt]sx?|mjs|cjs|py|go|rb|java|kt|cs|php|rs)");
  private static final Pattern GO_IMPORT = Pattern.compile("[a-z0-9.-]+\\.[a-z]+(/[\\w.~-]+)+");

  private static final String JAVA_TESTS = "src/test/java/";

  private SourcePath() {}

  /**
   * The path for a test case of {@code repoName} with these identity fields; null when nothing
   * names one.
   */
  public static String of(String filePath, String classname, String parent, String repoName) {
    if (filePath != null && !filePath.isBlank()) {
      return relative(filePath, repoName);
    }
    if (namesAFile(parent)) {
      return relative(parent, repoName);
    }
    if (classname == null) {
      return null;
    }
    if (GO_IMPORT.matcher(classname).matches()) {
      return goPackage(classname, repoName);
    }
    return ofClass(classname, parent);
  }

  /**
   * The path a Java class or Python module names, relative to where its build runs (a monorepo's
   * package: the upload's {@code pathPrefix} goes before it); null for anything else.
   */
  public static String ofClass(String classname, String parent) {
    if (classname == null || !DOTTED.matcher(classname).matches()) {
      return null;
    }
    List<String> segments = Arrays.asList(classname.split("\\."));
    return python(segments, parent) ? pythonModule(segments) : javaClass(segments);
  }

  /**
   * The Kotlin source a Java-layout path also stands for ({@code src/test/kotlin/…/X.kt}: the class
   * name does not say which language wrote it); null for any other path.
   */
  public static String kotlin(String path) {
    int at = path == null ? -1 : path.lastIndexOf(JAVA_TESTS);
    if (at < 0 || !path.endsWith(".java")) {
      return null;
    }
    return path.substring(0, at)
        + "src/test/kotlin/"
        + path.substring(at + JAVA_TESTS.length(), path.length() - ".java".length())
        + ".kt";
  }

  /** Whether a suite's name is a source file's path (jest-junit's {@code {filepath}}). */
  public static boolean namesAFile(String suite) {
    return suite != null && SOURCE_FILE.matcher(suite).matches();
  }

  static String relative(String path, String repoName) {
    String p = path.strip().replace('\\', '/');
    boolean absolute = p.startsWith("/") || p.matches("[A-Za-z]:/.*");
    if (absolute) {
      int at = p.lastIndexOf("/" + repoName + "/");
      if (at >= 0) {
        p = p.substring(at + repoName.length() + 2);
      }
    }
    while (p.startsWith("./")) {
      p = p.substring(2);
    }
    return p;
  }

  private static String goPackage(String importPath, String repoName) {
    List<String> segments = Arrays.asList(importPath.split("/"));
    int repo = segments.indexOf(repoName);
    int module = repo > 0 ? repo + 1 : Math.min(3, segments.size());
    return String.join("/", segments.subList(module, segments.size()))
        + (module < segments.size() ? "/" : "")
        + "_test.go";
  }

  private static boolean python(List<String> segments, String parent) {
    return "pytest".equals(parent)
        || segments.stream().anyMatch(s -> s.startsWith("test_") || s.endsWith("_test"));
  }

  private static String pythonModule(List<String> segments) {
    int end = segments.size();
    while (end > 1 && Character.isUpperCase(segments.get(end - 1).charAt(0))) {
      end--; // a test class inside the module
    }
    return String.join("/", segments.subList(0, end)) + ".py";
  }

  private static String javaClass(List<String> segments) {
    int end = segments.size();
    String last = segments.get(end - 1);
    int nested = last.indexOf('$');
    String outer = nested > 0 ? last.substring(0, nested) : last;
    if (!Character.isUpperCase(outer.charAt(0))
        || segments.subList(0, end - 1).stream()
            .anyMatch(s -> !s.equals(s.toLowerCase(Locale.ROOT)))) {
      return null; // not a package and a class
    }
    return JAVA_TESTS + String.join("/", segments.subList(0, end - 1)) + "/" + outer + ".java";
  }
}
