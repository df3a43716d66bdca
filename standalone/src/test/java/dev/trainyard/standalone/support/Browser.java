package dev.trainyard.standalone.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;

/**
 * A real headless Chromium (Debian's {@code chromium} and {@code chromedriver}) driven over
 * WebDriver, and axe-core (from npm, installed by {@code .ci/browser}) run inside its pages. Tests
 * that need it are skipped when any of the three is missing, unless {@code
 * -Dtrainyard.browser=required} (CI).
 */
public final class Browser implements AutoCloseable {
  public static final Path AXE =
      Path.of("..", ".ci", ".tools", "browser", "node_modules", "axe-core", "axe.min.js");
  private static final String CHROMIUM = "/usr/bin/chromium";
  private static final String DRIVER = "/usr/bin/chromedriver";
  public static final Duration PATIENCE = Duration.ofSeconds(60);

  private final ChromeDriver driver;
  private final String base;

  /** Skips (or in CI fails) the calling test unless the browser and axe-core are here. */
  public static void required() {
    boolean met = Files.isExecutable(Path.of(CHROMIUM)) && Files.isExecutable(Path.of(DRIVER));
    Prerequisites.require(
        met && Files.isRegularFile(AXE),
        "trainyard.browser",
        "chromium, chromedriver and axe-core (.ci/browser installs them)");
  }

  public Browser(String base) {
    this.base = base;
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--window-size=1280,900");
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(Path.of(DRIVER).toFile()).build();
    driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
  }

  public ChromeDriver driver() {
    return driver;
  }

  public void open(String path) {
    driver.get(base + path);
  }

  /** The path (and query) the browser shows now. */
  public String path() {
    return driver.getCurrentUrl().substring(base.length());
  }

  /** Opens {@code path}, is sent to the sign-in page, signs in with {@code token}, comes back. */
  public void signIn(String path, String token) {
    open(path);
    assertThat(path()).startsWith("/ui/sign-in?next=");
    driver.findElement(By.id("token")).sendKeys(token);
    driver.findElement(By.cssSelector("form[action='/ui/sign-in'] button")).click();
    await().until(d -> path().equals(path));
  }

  /**
   * Waits for a condition; an element swapped out by a live update while the condition reads it is
   * read again.
   */
  public WebDriverWait await() {
    WebDriverWait wait = new WebDriverWait(driver, PATIENCE, Duration.ofMillis(100));
    wait.ignoring(StaleElementReferenceException.class);
    return wait;
  }

  /** Clicks the element {@code css} selects, found again if a live update replaced it. */
  public void click(String css) {
    await()
        .until(
            d ->
                stale(
                    () -> {
                      find(css).click();
                      return true;
                    }));
  }

  /**
   * The text of the element {@code css} selects, read again if a live update or a navigation
   * replaced it.
   */
  public String text(String css) {
    return await().until(d -> stale(() -> find(css).getText()));
  }

  /**
   * Runs a read of an element, reporting Chrome's "does not belong to the document" (an element
   * found in the page a navigation is leaving, read in the next one) as the stale element it is.
   */
  private static <T> T stale(Supplier<T> read) {
    try {
      return read.get();
    } catch (WebDriverException e) {
      if (String.valueOf(e.getMessage()).contains("does not belong to the document")) {
        throw new StaleElementReferenceException("replaced by a navigation", e);
      }
      throw e;
    }
  }

  public WebElement find(String css) {
    return driver.findElement(By.cssSelector(css));
  }

  public List<WebElement> all(String css) {
    return driver.findElements(By.cssSelector(css));
  }

  /** Marks the loaded document: {@link #reloaded} tells whether a new one replaced it since. */
  public void markDocument() {
    driver.executeScript("window.__trainyardDocument = 'kept';");
  }

  public boolean reloaded() {
    return !"kept".equals(driver.executeScript("return window.__trainyardDocument || null;"));
  }

  /** Waits until the page's event stream is open (live updates reach it from then on). */
  public void awaitLive() {
    await()
        .until(
            d ->
                "true"
                    .equals(
                        driver.executeScript(
                            "return document.documentElement.getAttribute('data-live-open');")));
  }

  /**
   * The axe-core violations of the page (WCAG 2 A and AA rules and best practices) whose impact is
   * serious or critical.
   */
  public List<String> seriousViolations() {
    try {
      driver.executeScript(Files.readString(AXE));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Object answer =
        driver.executeAsyncScript(
            "const done = arguments[arguments.length - 1];"
                + "axe.run(document, {resultTypes: ['violations']})"
                + ".then(r => done(JSON.stringify(r.violations.map(v => ({id: v.id, impact: v.impact,"
                + " help: v.help, nodes: v.nodes.map(n => n.target.join(' '))})))))"
                + ".catch(e => done(JSON.stringify([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}])));");
    JsonNode violations = dev.trainyard.common.json.Json.mapper().readTree((String) answer);
    return violations
        .valueStream()
        .filter(v -> List.of("serious", "critical").contains(v.get("impact").asString()))
        .map(v -> v.get("id").asString() + " (" + v.get("help").asString() + "): " + v.get("nodes"))
        .toList();
  }

  /** Whether the page fits {@code width} CSS pixels without scrolling sideways. */
  public boolean fitsWidth(int width) {
    Dimension before = driver.manage().window().getSize();
    driver.manage().window().setSize(new Dimension(width, 800));
    try {
      Object fits =
          driver.executeScript(
              "return document.documentElement.scrollWidth <= document.documentElement.clientWidth;");
      return Boolean.TRUE.equals(fits);
    } finally {
      driver.manage().window().setSize(before);
    }
  }

  /**
   * Saves a screenshot of the whole page (up to 2,400 pixels high) as {@code name}.png under {@code
   * target/screenshots}, and under {@code docs/images} when {@code -Dtrainyard.docs=write}.
   */
  public void screenshot(String name) {
    Dimension before = driver.manage().window().getSize();
    Object height = driver.executeScript("return document.documentElement.scrollHeight;");
    int full = Math.min(2400, ((Number) height).intValue() + before.getHeight() - viewportHeight());
    driver.manage().window().setSize(new Dimension(before.getWidth(), Math.max(full, 400)));
    byte[] png;
    try {
      png = driver.getScreenshotAs(OutputType.BYTES);
    } finally {
      driver.manage().window().setSize(before);
    }
    try {
      for (Path dir : screenshotDirs()) {
        Files.createDirectories(dir);
        Files.write(dir.resolve(name + ".png"), png);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private int viewportHeight() {
    return ((Number) driver.executeScript("return window.innerHeight;")).intValue();
  }

  private static List<Path> screenshotDirs() {
    Path target = Path.of("target", "screenshots");
    return "write".equals(System.getProperty("trainyard.docs"))
        ? List.of(target, Path.of("..", "docs", "images"))
        : List.of(target);
  }

  /** The session cookie the browser holds, as a {@code Cookie} header. */
  public String sessionCookie() {
    return "trainyard_session=" + driver.manage().getCookieNamed("trainyard_session").getValue();
  }

  @Override
  public void close() {
    driver.quit();
  }
}
